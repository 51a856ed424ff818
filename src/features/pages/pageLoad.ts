import type { WireBlock } from '../../../schema/block';
import type { WireElement } from '../../../schema/element';
import { api } from '../../app/api';
import { loadBlocks } from '../../editor/blockApi';
import { preloadDatabases } from '../../editor/blocks/databaseRows';
import { fetchPage } from './pagesSlice';
import { PAGE_HEAD_BLOCKS } from '../../../schema/constants';

export { PAGE_HEAD_BLOCKS };

/**
 * How long the top of a page holding a database waits for the Table view's code before it is
 * drawn: drawn with it, the grid is there in the editor's first frame (one drawing, one layout);
 * drawn without it, a card stands in and the grid is drawn again once the code has come and run.
 */
const DATABASE_CODE_WAIT_MS = 250;

/** A prefetched load is used by the screen only this soon after it started (else it is read again). */
const FRESH_MS = 10_000;

/** The top of a page: its first blocks in document order, and whether there are more. */
export interface PageHead {
  blocks: WireBlock[];
  at: string | undefined;
  hasMore: boolean;
}

/**
 * Everything the page screen reads: the page and the top of its blocks (small, answered at once,
 * asked for at once) and all its blocks (megabytes for a big page).
 */
export interface PageLoad {
  page: Promise<WireElement>;
  head: Promise<PageHead>;
  /**
   * All the blocks: the top itself when it is all of the page (one request for most pages), else
   * asked for on the first call. The page screen calls it once the top is drawn, so that the
   * server's and the browser's work on megabytes does not hold up the first screen.
   */
  blocks(): Promise<{ blocks: WireBlock[]; at: string | undefined }>;
}

async function loadHead(pageUid: string): Promise<PageHead> {
  const { data, meta } = await api<WireBlock[]>(`/api/v3/spaces/note/${encodeURIComponent(pageUid)}/blocks?limit=${PAGE_HEAD_BLOCKS}`);
  return { blocks: data, at: typeof meta.at === 'string' ? meta.at : undefined, hasMore: meta.hasMoreNext === true };
}

function pageLoadOf(pageUid: string, page: Promise<WireElement>, head: Promise<PageHead>): PageLoad {
  let all: Promise<{ blocks: WireBlock[]; at: string | undefined }> | null = null;
  return {
    page,
    head,
    blocks: () =>
      (all ??= head.then(
        (top) => (top.hasMore ? loadBlocks(pageUid) : { blocks: top.blocks, at: top.at }),
        () => loadBlocks(pageUid),
      )),
  };
}

/** Starts reading a page now (the page and the top of its blocks). */
export function startPageLoad(pageUid: string): PageLoad {
  const page = fetchPage(pageUid);
  // A database in the top of the page: its view's code and first rows are asked for as soon as
  // the blocks are in (index.html's script may have asked already), and the top waits a little for the code.
  const head = loadHead(pageUid).then((top) => {
    const code = preloadDatabases(top.blocks);
    if (!code) return top;
    const waited = new Promise<void>((resolve) => setTimeout(resolve, DATABASE_CODE_WAIT_MS));
    return Promise.race([code.catch(() => undefined), waited]).then(() => top);
  });
  // Whoever takes the load handles its failures; a load nobody takes must not report them.
  for (const promise of [page, head]) promise.catch(() => undefined);
  return pageLoadOf(pageUid, page, head);
}

let prefetched: { pageUid: string; load: PageLoad; startedAt: number } | null = null;

/** Starts reading a page before its screen is there (at start, when the address is a page's). */
export function prefetchPage(pageUid: string): void {
  prefetched = { pageUid, load: startPageLoad(pageUid), startedAt: Date.now() };
}

/** The page screen's reads: the prefetched ones when they are for this page and fresh, else new ones. */
export function takePageLoad(pageUid: string): PageLoad {
  const taken = prefetched;
  prefetched = null;
  if (!taken || taken.pageUid !== pageUid || Date.now() - taken.startedAt >= FRESH_MS) return startPageLoad(pageUid);
  // A failure is asked again: it may have been the 401 of someone who has signed in since.
  const { page, head } = taken.load;
  return pageLoadOf(
    pageUid,
    page.catch(() => fetchPage(pageUid)),
    head.catch(() => loadHead(pageUid)),
  );
}

import path from 'node:path';
import { paragraph } from '../../plugins/withClipboard/content';
import { parseHtml } from '../../plugins/withClipboard/parseHtml';
import type { HtmlWindow } from '../../plugins/withClipboard/sanitize';
import { flatPositions } from '../../plugins/withClipboard/serialize';
import { toWire } from '../../schema/block';
import { isSafeHref } from '../../schema/token';
import type { HtmlReading } from './htmlImport';
import { pageFilesToDocument, readMarkdownPage, type MarkdownTargets, type PageFileReader } from './markdownImport';
import { type ImportNote, importNote } from '../../schema/importProblems';

/**
 * Reading HTML files as pages (issue 18, import; docs/import-export.md «HTML»), in the worker
 * htmlImport.ts starts. Each file is read by the clipboard's HTML reader
 * (plugins/withClipboard/parseHtml.ts: sanitized by DOMPurify, then every block type's parse
 * rules) in jsdom's DOM. Before that, the document is prepared: its title taken out, marks of
 * Google Docs' stylesheet and its nested lists put where the reader sees them, links to other
 * files of the import made page links, pictures of the zip made the form the image block reads.
 */

const text = (element: Element | null | undefined) => (element?.textContent ?? '').replace(/\s+/g, ' ').trim();

/** The bytes of an HTML file as text: by its byte-order mark, else its `<meta charset>`, else UTF-8; null for what is not text. */
function decodeHtml(bytes: Uint8Array): string | null {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  if (bytes.subarray(0, 8192).includes(0)) return null;
  // Word's «save as web page» writes windows-1251 for Russian text, and says so in a <meta>.
  const charset = /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(new TextDecoder('latin1').decode(bytes.subarray(0, 2048)))?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(bytes);
  } catch {
    return new TextDecoder().decode(bytes);
  }
}

/**
 * The page's title, taken out of the body: Notion's `h1.page-title`, else a first `<h1>` with
 * nothing before it (as our export writes it) unless `<title>` names the page otherwise; else
 * `<title>`. Null when the file names none.
 */
function takeTitle(doc: Document): string | null {
  const titleTag = text(doc.querySelector('head title, title'));
  let heading = doc.querySelector('h1.page-title');
  if (!heading) {
    const first = doc.body.querySelector('h1');
    if (first) {
      const before = doc.createRange();
      before.setStart(doc.body, 0);
      before.setEndBefore(first);
      const content = before.cloneContents();
      if ((content.textContent ?? '').trim() === '' && !content.querySelector('img') && (!titleTag || text(first) === titleTag)) heading = first;
    }
  }
  const title = text(heading) || titleTag;
  heading?.remove();
  return title || null;
}

/**
 * Bold, italic and underline a stylesheet gives text by class (Google Docs' «web page» download:
 * `.c2{font-weight:700}` on spans) written on the spans themselves, where the reader sees them
 * (as in Google Docs' clipboard HTML). Only rules of one class, and only those marks: other rules
 * of a page's styles (`h1 {font-weight: 700}`, Notion's checked to-dos) are looks, not marks.
 */
function inlineClassMarks(doc: Document): void {
  for (const sheet of Array.from(doc.querySelectorAll('style'))) {
    for (const [, name, body] of (sheet.textContent ?? '').matchAll(/(?<=^|})\s*\.([\w-]+)\s*\{([^}]*)\}/g)) {
      const marks = body
        .split(';')
        .filter((declaration) => /^\s*(font-weight|font-style|text-decoration(-line)?)\s*:\s*(bold|[6-9]00|italic|underline)\b/i.test(declaration));
      if (marks.length === 0) continue;
      for (const span of Array.from(doc.body.getElementsByClassName(name))) {
        if (span.tagName === 'SPAN') span.setAttribute('style', [span.getAttribute('style')?.replace(/[;\s]+$/, ''), ...marks].filter(Boolean).join(';'));
      }
    }
  }
}

/**
 * Google Docs' «web page» download writes a nested list as a list of its own after its parent's,
 * its level in its class (`lst-kix_<id>-1`): each is put back in the last item above it.
 */
function googleDocsLists(doc: Document): void {
  const levelOf = (element: Element | null | undefined) => {
    const match = element && /^(UL|OL)$/.test(element.tagName) ? /\blst-kix_\w+-(\d+)\b/.exec(element.className) : null;
    return match ? Number(match[1]) : null;
  };
  for (const list of Array.from(doc.body.querySelectorAll('ul[class*="lst-kix_"], ol[class*="lst-kix_"]'))) {
    const level = levelOf(list);
    if (!level) continue;
    let above = list.previousElementSibling;
    while (above && (levelOf(above) ?? -1) >= level) above = above.previousElementSibling;
    if (!above || levelOf(above) === null) continue;
    // Down the last items to the list one level up.
    for (
      let next = above.lastElementChild?.lastElementChild;
      levelOf(above)! < level - 1 && levelOf(next) !== null && levelOf(next)! < level;
      next = above.lastElementChild?.lastElementChild
    )
      above = next!;
    above.lastElementChild?.appendChild(list);
  }
}

/**
 * The file's links and pictures made what the clipboard's reader takes: a link to another page
 * of the import a page link (`/{key}` with `data-page-id`), a link to a file of the zip a file
 * (`data-file-id`, read as a file block where it stands alone), a picture of the zip an image
 * block's `<img data-file-id>` (a block of its own, not a paragraph's text).
 * Ids of files elsewhere mean nothing here and are dropped. Pictures that are neither in the zip
 * nor on the web are removed and reported.
 */
function prepareLinks(doc: Document, targets: MarkdownTargets, problems: ImportNote[]): number {
  for (const element of Array.from(doc.body.querySelectorAll('[data-file-id]'))) element.removeAttribute('data-file-id');
  const fileAttributes = (element: Element, file: string, mimeType: string) => {
    element.setAttribute('data-file-id', file);
    // The real size and type are set on the blocks once all files are known.
    element.setAttribute('data-size', '0');
    element.setAttribute('data-mime-type', mimeType);
  };
  for (const link of Array.from(doc.body.querySelectorAll('a[href]'))) {
    // A picture that links to itself (Notion's way): the picture.
    if (link.querySelector('img')) {
      link.replaceWith(...Array.from(link.childNodes));
      continue;
    }
    const href = link.getAttribute('href')!;
    const target = targets.resolve(href);
    if (target && 'page' in target) {
      link.setAttribute('href', `/${target.page}`);
      link.setAttribute('data-page-id', target.page);
    } else if (target) {
      fileAttributes(link, target.file, 'application/octet-stream');
      if (!link.getAttribute('download')) link.setAttribute('download', path.posix.basename(decodeURIComponent(href.split('#')[0])));
    }
  }
  let pictures = 0;
  const movedAfter = new Map<Element, Element>();
  for (const image of Array.from(doc.body.querySelectorAll('img'))) {
    const src = image.getAttribute('src') ?? '';
    // Another site's picture: kept as a link to it (the clipboard's way).
    if (isSafeHref(src)) continue;
    const target = src ? targets.resolve(src) : null;
    if (!target || !('file' in target)) {
      problems.push(src.startsWith('data:') ? importNote('pictureInHtml') : importNote('pictureMissing', { src: src.slice(0, 200) }));
      image.remove();
      continue;
    }
    fileAttributes(image, target.file, 'image/png');
    if (!image.getAttribute('alt')?.trim()) image.setAttribute('alt', path.posix.basename(decodeURIComponent(src.split('#')[0])));
    // A block of its own: in a <figure>, before which the parser ends a paragraph the picture
    // stood in (the text after it a paragraph of its own), and which a list item holds as its
    // child block; out of a heading (read as text), after it.
    const figure = doc.createElement('figure');
    image.replaceWith(figure);
    figure.appendChild(image);
    const heading = figure.parentElement?.closest('h1, h2, h3, h4, h5, h6');
    if (heading) {
      (movedAfter.get(heading) ?? heading).after(figure);
      movedAfter.set(heading, figure);
    }
    pictures += 1;
  }
  return pictures;
}

/** One HTML file's title, blocks (as our export's: `parentId` names an earlier block) and problems, read with `window`'s DOM. */
export function htmlToBlocks(bytes: Uint8Array, targets: MarkdownTargets, window: HtmlWindow): ReturnType<PageFileReader> & { empty: boolean } {
  const source = decodeHtml(bytes);
  if (source === null) return { title: null, icon: null, blocks: [], problems: [importNote('notText')], empty: true };
  const doc = new window.DOMParser().parseFromString(source, 'text/html');
  const title = takeTitle(doc);
  // Notion's page icon (an emoji) beside its title: the page's icon.
  const iconHolder = doc.querySelector('header .page-header-icon');
  const icon = text(iconHolder?.querySelector('.icon')).slice(0, 16) || null;
  iconHolder?.remove();
  inlineClassMarks(doc);
  googleDocsLists(doc);
  const problems: ImportNote[] = [];
  const pictures = prepareLinks(doc, targets, problems);
  const content = parseHtml(doc.body.innerHTML, window);
  const elements = !content ? [] : content.kind === 'inline' ? [paragraph(content.tokens)] : content.blocks;
  const positions = flatPositions(elements);
  const blocks = elements.map((element, at) => {
    const block = toWire(element, { pageId: '', ...positions[at] });
    return { id: block.id, type: block.type, data: block.data as unknown as Record<string, unknown>, parentId: block.parentId };
  });
  const shown = blocks.filter((block) => block.type === 'image').length;
  if (shown < pictures) problems.push(importNote('picturesMisplaced', { count: pictures - shown }));
  const empty = blocks.length === 0 && title === null;
  if (empty) problems.push(importNote('nothingReadable'));
  return { title, icon, blocks, problems, empty };
}

/**
 * HTML files (a zip's entries by path, or one file) as our export's document, read in this
 * thread (htmlImport.ts runs it in a worker): a page per `.html`/`.htm` — with `markdown`, a
 * page per `.md` too — laid out as Markdown's are (a folder's pages under the page of the same
 * name beside it). Refused when no file holds anything readable.
 */
export async function readHtmlFiles(files: ReadonlyMap<string, Uint8Array>, options: { markdown?: boolean } = {}): Promise<HtmlReading> {
  const { JSDOM } = await import('jsdom');
  const dom = new JSDOM('');
  try {
    const window = dom.window as unknown as HtmlWindow;
    let empty = 0;
    const html: PageFileReader = (bytes, targets) => {
      const page = htmlToBlocks(bytes, targets, window);
      if (page.empty) empty += 1;
      return page;
    };
    const read = pageFilesToDocument(files, { html, htm: html, ...(options.markdown ? { md: readMarkdownPage } : {}) });
    return read.document.pages.length === empty ? { refused: 'the HTML holds nothing readable' } : { document: read.document, problems: read.problems };
  } finally {
    dom.window.close();
  }
}

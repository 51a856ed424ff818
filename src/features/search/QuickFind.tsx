import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { rateLimitMessage } from '../../app/errors';
import { Dialog } from '../../ui/Dialog';
import { PageIcon } from '../../ui/icons';
import { SearchField } from '../../ui/SearchField';
import { closeSearch, toggleSearch, useSearchOpen } from './openSearch';
import { databaseRowsAddress, recentPages, searchPages, searchResults, type RecentPage, type SearchResult, type WireSearchHit } from './searchApi';
import { DatabaseHeading, hitAddress, MoreRows, SearchHit } from './SearchHit';
import './search.css';

/** The finder asks this long after the last key. */
export const FIND_DEBOUNCE_MS = 120;
/** Pages the finder shows at most; the rest are on the full screen. */
const FIND_LIMIT = 10;
const RECENT_LIMIT = 8;

/**
 * Mounted once in the signed-in frame: Ctrl+K / ⌘K opens (and closes) the finder anywhere — but
 * over a selection or a link in the editor, where it is the link's (as in Notion); `openSearch()` too.
 */
export function QuickFindHost() {
  const open = useSearchOpen();
  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      // The editor takes Ctrl+K over a selection or a link (a link's field, its card).
      if (event.defaultPrevented) return;
      if ((event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && (event.key === 'k' || event.key === 'K' || event.code === 'KeyK')) {
        event.preventDefault();
        toggleSearch();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  return open ? <QuickFind onClose={closeSearch} /> : null;
}

type DatabaseResult = Extract<SearchResult, { kind: 'database' }>;
type Item = { kind: 'hit'; hit: WireSearchHit } | { kind: 'moreRows'; result: DatabaseResult } | ({ kind: 'recent' } & RecentPage) | { kind: 'all' };
type Found = { status: 'idle' | 'loading' } | { status: 'failed'; error: unknown } | { status: 'ready'; q: string; hits: WireSearchHit[]; more: boolean };

/**
 * The quick finder (docs/search.md «The finder»): pages of the workspace by their titles and text
 * as the query is typed, in the server's order (the best first), each with its path and the words
 * found marked, a database's rows under its name with how many more; the pages opened last while
 * nothing is typed. ↑/↓ move, Enter opens, «Все
 * результаты» opens the full screen with filters.
 */
export function QuickFind({ onClose }: { onClose(): void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const [found, setFound] = useState<Found>({ status: 'idle' });
  const [recents, setRecents] = useState<RecentPage[]>([]);
  const [active, setActive] = useState(0);
  const list = useRef<HTMLUListElement>(null);

  useEffect(() => {
    const controller = new AbortController();
    recentPages(RECENT_LIMIT, controller.signal).then(setRecents, () => undefined);
    return () => controller.abort();
  }, []);

  useEffect(() => {
    const q = query;
    if (!q.trim()) {
      setFound({ status: 'idle' });
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      setFound((f) => (f.status === 'ready' ? f : { status: 'loading' }));
      searchPages(q, {}, 0, FIND_LIMIT, controller.signal).then(
        ({ hits, more }) => setFound({ status: 'ready', q, hits, more }),
        (error: unknown) => !controller.signal.aborted && setFound({ status: 'failed', error }),
      );
    }, FIND_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [query]);

  const typed = query.trim() !== '';
  // The results in the server's order; a database's rows, then «ещё N строк», as one group.
  const results = useMemo(() => (typed && found.status === 'ready' ? searchResults(found.hits) : null), [typed, found]);
  const items: Item[] = useMemo(() => {
    if (!typed) return recents.map((recent) => ({ kind: 'recent' as const, ...recent }));
    if (!results) return [];
    const hits = results.flatMap((result): Item[] =>
      result.kind === 'hit'
        ? [result]
        : [...result.rows.map((hit) => ({ kind: 'hit' as const, hit })), ...(result.more > 0 ? [{ kind: 'moreRows' as const, result }] : [])],
    );
    return hits.length > 0 ? [...hits, { kind: 'all' }] : hits;
  }, [typed, recents, results]);
  useEffect(() => setActive(0), [items]);
  useEffect(() => {
    list.current?.querySelector<HTMLElement>(`[data-index="${active}"]`)?.scrollIntoView?.({ block: 'nearest' });
  }, [active]);

  const choose = (item: Item | undefined) => {
    if (!item) return;
    onClose();
    if (item.kind === 'all') navigate(`/search?q=${encodeURIComponent(query.trim())}`);
    else if (item.kind === 'moreRows') navigate(databaseRowsAddress(query, item.result.database.id));
    else navigate(item.kind === 'hit' ? hitAddress(item.hit) : `/${item.page.id}`);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (items.length === 0) return;
      setActive((at) => (at + (event.key === 'ArrowDown' ? 1 : -1) + items.length) % items.length);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      choose(items[active]);
    }
  };

  const option = (item: Item, index: number) => (
    <li
      key={
        item.kind === 'hit' ? item.hit.page.id : item.kind === 'recent' ? `r${item.page.id}` : item.kind === 'moreRows' ? `m${item.result.database.id}` : 'all'
      }
      id={`quick-find-${index}`}
      data-index={index}
      role="option"
      aria-selected={index === active}
      className={index === active ? 'search-option is-active' : 'search-option'}
      onMouseMove={() => index !== active && setActive(index)}
      onClick={() => choose(item)}
    >
      {item.kind === 'hit' ? (
        <SearchHit hit={item.hit} />
      ) : item.kind === 'moreRows' ? (
        <MoreRows result={item.result} />
      ) : item.kind === 'recent' ? (
        <span className="search-hit">
          <span className="search-hit-icon" aria-hidden>
            {item.page.icon ?? <PageIcon size={16} />}
          </span>
          <span className="search-hit-main">
            <span className="search-hit-title">{item.page.title || t('untitled')}</span>
            {item.path.length > 0 && <span className="search-hit-path">{item.path.map((title) => title || t('untitled')).join(' / ')}</span>}
          </span>
        </span>
      ) : (
        <span className="search-all">{t('search.allResults')}</span>
      )}
    </li>
  );
  let index = 0;
  const section = (label: ReactNode, name: string, entries: Item[]) =>
    entries.length > 0 && (
      <li role="presentation" className="search-group" key={name}>
        <div className="search-group-label" aria-hidden>
          {label}
        </div>
        <ul role="group" aria-label={name}>
          {entries.map((item) => option(item, index++))}
        </ul>
      </li>
    );
  // A database's rows (and «ещё N строк») as a group named by the database; a page as an option.
  const resultView = (result: SearchResult) => {
    if (result.kind === 'hit') return option(result, index++);
    const entries: Item[] = items.filter((i) => (i.kind === 'hit' && result.rows.includes(i.hit)) || (i.kind === 'moreRows' && i.result === result));
    return section(<DatabaseHeading database={result.database} />, result.database.title || t('search.database'), entries);
  };

  return (
    <Dialog title={t('search.title')} onClose={onClose} className="quick-find">
      <SearchField
        large
        type="text"
        autoFocus
        autoComplete="off"
        spellCheck={false}
        value={query}
        placeholder={t('search.placeholder')}
        role="combobox"
        aria-expanded={items.length > 0}
        aria-controls="quick-find-list"
        aria-activedescendant={items.length > 0 ? `quick-find-${active}` : undefined}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={onKeyDown}
      />
      {typed && found.status === 'loading' && <p className="search-placeholder">{t('loading')}</p>}
      {typed && found.status === 'failed' && (
        <p className="search-placeholder" role="alert">
          {rateLimitMessage(t, found.error) ?? t('search.failed')}
        </p>
      )}
      {typed && found.status === 'ready' && found.hits.length === 0 && <p className="search-placeholder">{t('search.nothing', { q: found.q.trim() })}</p>}
      {!typed && recents.length === 0 && <p className="search-placeholder">{t('search.hint')}</p>}
      <ul ref={list} id="quick-find-list" role="listbox" aria-label={t('search.results')} className="search-list">
        {!typed && section(t('search.recent'), t('search.recent'), items)}
        {results?.map(resultView)}
        {items.some((i) => i.kind === 'all') && option({ kind: 'all' }, index++)}
      </ul>
      <div className="search-keys" aria-hidden>
        {t('search.keys')}
      </div>
    </Dialog>
  );
}

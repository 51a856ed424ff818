import { Fragment, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PageIcon } from '../../ui/icons';
import { TableIcon } from '../../ui/pageTypeIcons';
import type { SearchResult, WireSearchHit } from './searchApi';

/** A passage with its found words marked (<mark>), «…» where text was left out. */
export function MarkedText({ match }: { match: WireSearchHit['match'] }) {
  const parts: ReactNode[] = [];
  let at = 0;
  match.marks.forEach(([start, end], i) => {
    if (start > at) parts.push(<Fragment key={`t${i}`}>{match.text.slice(at, start)}</Fragment>);
    parts.push(<mark key={`m${i}`}>{match.text.slice(start, end)}</mark>);
    at = end;
  });
  if (at < match.text.length) parts.push(<Fragment key="rest">{match.text.slice(at)}</Fragment>);
  return (
    <>
      {match.cutBefore && '…'}
      {parts}
      {match.cutAfter && '…'}
    </>
  );
}

/** A found page: icon and title (its words marked when the title matched), its path, the passage found in its text. */
export function SearchHit({ hit }: { hit: WireSearchHit }) {
  const { t } = useTranslation();
  const title = hit.page.title || t('untitled');
  return (
    <span className="search-hit">
      <span className="search-hit-icon" aria-hidden>
        {hit.page.icon ?? <PageIcon size={16} />}
      </span>
      <span className="search-hit-main">
        <span className="search-hit-title">{hit.match.kind === 'title' && !hit.match.fuzzy ? <MarkedText match={hit.match} /> : title}</span>
        {hit.path.length > 0 && <span className="search-hit-path">{hit.path.map((p) => p.title || t('untitled')).join(' / ')}</span>}
        {hit.match.kind !== 'title' && (
          <span className="search-hit-snippet">
            {hit.match.kind === 'comment' && <span className="search-hit-label">{t('search.inComment')} </span>}
            <MarkedText match={hit.match} />
          </span>
        )}
      </span>
    </span>
  );
}

/**
 * Where a result opens: its page, at the block found (`?block=`, revealed and marked by the
 * editor), or with the comment found shown in the comments panel (`?commentId=`).
 */
export function hitAddress(hit: WireSearchHit): string {
  const { kind, blockId, commentId } = hit.match;
  if (kind === 'block' && blockId) return `/${hit.page.id}?block=${encodeURIComponent(blockId)}`;
  if (kind === 'comment' && commentId) return `/${hit.page.id}?commentId=${encodeURIComponent(commentId)}`;
  return `/${hit.page.id}`;
}

/** The heading of a database's rows found: its icon and name («База данных» when its name is not the caller's to see). */
export function DatabaseHeading({ database }: { database: Extract<SearchResult, { kind: 'database' }>['database'] }) {
  const { t } = useTranslation();
  return (
    <span className="search-database">
      <TableIcon size={14} aria-hidden />
      {database.title || t('search.database')}
    </span>
  );
}

/** «ещё N строк в «orders»»: the rest of a database's rows found. */
export function MoreRows({ result }: { result: Extract<SearchResult, { kind: 'database' }> }) {
  const { t } = useTranslation();
  return <span className="search-all">{t('search.moreRows', { count: result.more, title: result.database.title || t('search.database') })}</span>;
}

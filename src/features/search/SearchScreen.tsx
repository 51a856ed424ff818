import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { rateLimitMessage } from '../../app/errors';
import { useAppSelector } from '../../app/store';
import { Button } from '../../ui/Button';
import { SearchField } from '../../ui/SearchField';
import { useWorkspaceUsers } from '../comments/members';
import { displayName } from '../comments/userLookup';
import { SEARCH_KINDS, SEARCH_SECTIONS } from '../../../schema/search';
import { DayInput } from '../database/cells/DateInput';
import { searchOfAddress, SEARCH_PAGE } from '../../app/earlyStart';
import { databaseRowsAddress, searchPages, searchResults, type SearchFilters, type WireSearchHit } from './searchApi';
import { DatabaseHeading, hitAddress, MoreRows, SearchHit } from './SearchHit';
import './search.css';
import { useDocumentTitle } from '../../app/documentTitle';

/** A value of the address when it is one of `values` (an unknown one is left out, not sent). */
function oneOf<T extends string>(values: readonly T[], value: string | undefined): T | undefined {
  return values.find((v) => v === value);
}

/** A filter of the address as a labelled select; the first choice is the default, kept out of the address (null). */
function ChoiceFilter({
  label,
  value,
  choices,
  onChange,
}: {
  label: string;
  value: string;
  choices: Array<[string, string]>;
  onChange(value: string | null): void;
}) {
  return (
    <label>
      {label}
      <select className="input-compact" value={value} onChange={(e) => onChange(e.target.value === choices[0][0] ? null : e.target.value)}>
        {choices.map(([choice, text]) => (
          <option key={choice} value={choice}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}

const TYPE_DEBOUNCE_MS = 250;

type Results =
  | { status: 'idle' | 'loading' }
  | { status: 'failed'; error: unknown }
  | { status: 'ready'; hits: WireSearchHit[]; more: boolean; next: number; loadingMore?: boolean };

/**
 * «Поиск» (`/search?q=…`, docs/search.md «The results screen»): every page found, 20 at a time,
 * with filters kept in the address — the workspace, the author, the kind, the part of the
 * sidebar, changed after / before (typed the Russian way), the trash — and the order (the best
 * match or the last edited first). Each result opens its page.
 */
export default function SearchScreen() {
  const { t } = useTranslation();
  useDocumentTitle(t('search.title'));
  const [params, setParams] = useSearchParams();
  const workspaces = useAppSelector((state) => state.workspaces.list);
  const activeId = useAppSelector((state) => state.workspaces.activeId);
  // The address read as the early script reads it (src/app/earlyStart.ts): the first results it asked for are these.
  const { q, ...address } = searchOfAddress(params.toString());
  const filters: SearchFilters = {
    ...address,
    workspaceId: address.workspaceId ?? activeId ?? undefined,
    kind: oneOf(SEARCH_KINDS, address.kind),
    section: oneOf(SEARCH_SECTIONS, address.section),
    sort: address.sort === 'edited' ? 'edited' : undefined,
  };
  const filterKey = JSON.stringify(filters);
  const [typed, setTyped] = useState(q);
  const [results, setResults] = useState<Results>({ status: 'idle' });
  // The authors one may choose from: the workspace's members (none for a guest).
  const members = useWorkspaceUsers(filters.workspaceId);

  const set = (name: string, value: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(name, value);
        else next.delete(name);
        // Another workspace has other people.
        if (name === 'ws') next.delete('author');
        return next;
      },
      { replace: true },
    );

  // The query typed goes into the address a little after the last key.
  useEffect(() => {
    if (typed === q) return;
    const timer = setTimeout(() => set('q', typed), TYPE_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [typed]); // eslint-disable-line react-hooks/exhaustive-deps

  useEffect(() => {
    if (!q.trim()) {
      setResults({ status: 'idle' });
      return;
    }
    const controller = new AbortController();
    setResults({ status: 'loading' });
    searchPages(q, filters, 0, SEARCH_PAGE, controller.signal).then(
      ({ hits, more, next }) => setResults({ status: 'ready', hits, more, next }),
      (error: unknown) => !controller.signal.aborted && setResults({ status: 'failed', error }),
    );
    return () => controller.abort();
  }, [q, filterKey]); // eslint-disable-line react-hooks/exhaustive-deps

  const more = async () => {
    if (results.status !== 'ready') return;
    setResults({ ...results, loadingMore: true });
    try {
      const next = await searchPages(q, filters, results.next, SEARCH_PAGE);
      setResults({ status: 'ready', hits: [...results.hits, ...next.hits], more: next.more, next: next.next });
    } catch {
      setResults({ ...results, loadingMore: false });
    }
  };

  const resultLink = (hit: WireSearchHit) => (
    <Link to={hitAddress(hit)} className="search-result">
      <SearchHit hit={hit} />
    </Link>
  );

  return (
    <div className="search-screen">
      <h1>{t('search.title')}</h1>
      <SearchField large autoFocus value={typed} placeholder={t('search.placeholder')} onChange={(e) => setTyped(e.target.value)} />
      <fieldset className="search-filters">
        <legend className="visually-hidden">{t('search.filters')}</legend>
        {workspaces.length > 1 && (
          <label>
            {t('search.workspace')}
            <select
              className="input-compact"
              value={filters.workspaceId ?? ''}
              onChange={(e) => set('ws', e.target.value === activeId ? null : e.target.value)}
            >
              {workspaces.map((w) => (
                <option key={w.id} value={w.id}>
                  {w.name}
                </option>
              ))}
            </select>
          </label>
        )}
        {members.length > 0 && (
          <label>
            {t('search.author')}
            <select className="input-compact" value={filters.author ?? ''} onChange={(e) => set('author', e.target.value || null)}>
              <option value="">{t('search.anyone')}</option>
              {members.map((m) => (
                <option key={m.id} value={m.id}>
                  {displayName(m, m.email)}
                </option>
              ))}
            </select>
          </label>
        )}
        <ChoiceFilter
          label={t('search.kind')}
          value={filters.kind ?? ''}
          choices={[['', t('search.kinds.any')], ...SEARCH_KINDS.map((kind): [string, string] => [kind, t(`search.kinds.${kind}`)])]}
          onChange={(kind) => set('kind', kind)}
        />
        <ChoiceFilter
          label={t('search.section')}
          value={filters.section ?? ''}
          choices={[['', t('search.sections.any')], ...SEARCH_SECTIONS.map((section): [string, string] => [section, t(`search.sections.${section}`)])]}
          onChange={(section) => set('section', section)}
        />
        <div className="search-filter-days">
          <DayInput label={t('search.after')} showLabel value={filters.after ?? ''} onChange={(day) => set('after', day || null)} />
          <DayInput label={t('search.before')} showLabel value={filters.before ?? ''} onChange={(day) => set('before', day || null)} />
        </div>
        <ChoiceFilter
          label={t('search.sort')}
          value={filters.sort ?? 'relevance'}
          choices={[
            ['relevance', t('search.sorts.relevance')],
            ['edited', t('search.sorts.edited')],
          ]}
          onChange={(sort) => set('sort', sort)}
        />
        <label className="search-filter-check">
          <input type="checkbox" checked={filters.inTrash ?? false} onChange={(e) => set('trash', e.target.checked ? '1' : null)} />
          {t('search.inTrash')}
        </label>
        {filters.database && (
          <span className="search-filter-database">
            {t('search.databaseRows')}
            <Button kind="flat" size="s" onClick={() => set('database', null)}>
              {t('search.allPages')}
            </Button>
          </span>
        )}
      </fieldset>
      {results.status === 'idle' && <p className="search-placeholder">{t('search.hint')}</p>}
      {results.status === 'loading' && <p className="search-placeholder">{t('loading')}</p>}
      {results.status === 'failed' && (
        <p className="search-placeholder" role="alert">
          {rateLimitMessage(t, results.error) ?? t('search.failed')}
        </p>
      )}
      {results.status === 'ready' && results.hits.length === 0 && <p className="search-placeholder">{t('search.nothing', { q: q.trim() })}</p>}
      {results.status === 'ready' && results.hits.length > 0 && (
        <>
          <ul className="search-results" aria-label={t('search.results')}>
            {searchResults(results.hits).map((result) =>
              result.kind === 'hit' ? (
                <li key={result.hit.page.id}>{resultLink(result.hit)}</li>
              ) : (
                <li key={`d${result.database.id}`} className="search-result-database">
                  <DatabaseHeading database={result.database} />
                  <ul aria-label={result.database.title || t('search.database')}>
                    {result.rows.map((hit) => (
                      <li key={hit.page.id}>{resultLink(hit)}</li>
                    ))}
                    {result.more > 0 && (
                      <li>
                        <Link to={databaseRowsAddress(q, result.database.id)} className="search-result">
                          <MoreRows result={result} />
                        </Link>
                      </li>
                    )}
                  </ul>
                </li>
              ),
            )}
          </ul>
          {results.more && (
            <Button kind="outline" size="s" disabled={results.loadingMore} onClick={() => void more()}>
              {t('search.more')}
            </Button>
          )}
        </>
      )}
    </div>
  );
}

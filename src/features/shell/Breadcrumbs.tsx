import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { WireElement } from '../../../schema/element';
import { useAppDispatch, useAppSelector } from '../../app/store';
import { fetchPage, pageLoaded } from '../pages/pagesSlice';

/** Ancestors we tried to load and could not (no access): asked once per session. */
const unreadable = new Set<string>();

/** The page's ancestors (its `path`) and the page itself; each ancestor is a link. Missing titles are loaded. */
export function Breadcrumbs({ page, linkBase = '/' }: { page: WireElement; linkBase?: string }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const entities = useAppSelector((state) => state.pages.entities);
  const missing = page.path.filter((id) => !entities[id] && !unreadable.has(id)).join(',');

  useEffect(() => {
    if (!missing) return;
    let cancelled = false;
    for (const id of missing.split(',')) {
      fetchPage(id)
        .then((ancestor) => !cancelled && dispatch(pageLoaded(ancestor)))
        .catch(() => unreadable.add(id));
    }
    return () => {
      cancelled = true;
    };
  }, [dispatch, missing]);

  const crumbs = [...page.path.map((id) => ({ id, page: entities[id] })), { id: page.id, page }];
  return (
    <nav className="breadcrumbs" aria-label={t('page.breadcrumbs')}>
      <ol>
        {crumbs.map(({ id, page: crumb }, index) => {
          const last = index === crumbs.length - 1;
          const label = (
            <>
              {crumb?.icon && (
                <span className="breadcrumb-icon" aria-hidden>
                  {crumb.icon}
                </span>
              )}
              <span className="breadcrumb-title">{crumb ? crumb.title || t('untitled') : '…'}</span>
            </>
          );
          return (
            <li key={id} className={last ? 'breadcrumb is-current' : 'breadcrumb'}>
              {last ? (
                <span aria-current="page">{label}</span>
              ) : (
                <Link to={`${linkBase}${id}`} title={crumb?.title || undefined}>
                  {label}
                </Link>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

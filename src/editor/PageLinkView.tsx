import type { MouseEvent, ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { pageHref } from '../../schema/token';
import { editorT } from './blocks/textBlockParts';
import { usePageLinkTarget, type PageLinkTarget } from './pageLinkTargets';
import './pageLink.css';

/** What a page link reads as: the page's icon and current title, or why there is none. */
export function pageLinkLabel(target: PageLinkTarget): string {
  const title = target.status === 'ok' ? target.title.trim() || editorT('document.untitled') : '';
  if (target.status === 'ok') return target.icon ? `${target.icon} ${title}` : title;
  if (target.status === 'noAccess') return editorT('pageLink.noAccess');
  if (target.status === 'deleted') return editorT('pageLink.deleted');
  return editorT('pageLink.loading');
}

/**
 * A page link in the text (docs/plugins.md, «Page links»): its token's text (↗) stays the
 * editable text, and the icon and title are drawn before it by CSS from `data-label`, so the
 * title is never part of the document and a rename shows without editing the block. A plain
 * click opens the page inside the app.
 */
export function PageLinkView({ pageId, children }: { pageId: string; children: ReactNode }) {
  const target = usePageLinkTarget(pageId);
  const navigate = useNavigate();
  const label = pageLinkLabel(target);
  // A page without an icon of its own gets the line page icon; no access, the lock.
  const icon = target.status === 'ok' && !target.icon ? ' page-link-page-icon' : target.status === 'noAccess' ? ' page-link-lock-icon' : '';
  const open = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    if (target.status === 'ok') navigate(pageHref(pageId));
  };
  return (
    <a
      className={`page-link page-link-${target.status}${icon}`}
      href={pageHref(pageId)}
      data-page-id={pageId}
      data-label={label}
      aria-label={label}
      title={label}
      onClick={open}
    >
      {children}
    </a>
  );
}

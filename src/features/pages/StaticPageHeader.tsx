import type { WireElement } from '../../../schema/element';
import { coverBackground } from './CoverPicker';

/**
 * A page's cover and icon, read-only: a published page's header, and the page's top the server
 * draws (src/ssr/pageTop.tsx). The same markup as the editable header (PageHeader) at rest: for
 * `editable` (the server's drawing of a page the reader may edit), the room of its «add an icon,
 * a cover» row too, so the title sits where the editor will draw it.
 */
export function StaticPageHeader({ page, editable = false }: { page: Pick<WireElement, 'id' | 'icon' | 'cover'>; editable?: boolean }) {
  return (
    <div className={['page-header', page.cover ? 'has-cover' : '', page.icon ? 'has-icon' : ''].filter(Boolean).join(' ')}>
      {page.cover && (
        <div className="page-cover" style={{ backgroundImage: coverBackground(page.cover, page.id), backgroundPosition: `center ${page.cover.position}%` }} />
      )}
      <div className="page-header-inner">
        {page.icon && (
          <span className="page-icon" role="img" aria-label={page.icon}>
            {page.icon}
          </span>
        )}
        {editable && (!page.icon || !page.cover) && <div className="page-header-add" />}
      </div>
    </div>
  );
}

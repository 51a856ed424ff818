import type { WireBlock } from '../../../schema/block';
import type { PageType } from '../../../schema/constants';
import type { WireElement } from '../../../schema/element';
import { IframeScreen } from './IframeScreen';
import { PageTitleField } from './PageTitleField';
import { SpaceScreen } from './SpaceScreen';
import './pageTypes.css';

/** Page types with a screen of their own instead of the document editor (a Database page has the other's). */
export const SCREEN_PAGE_TYPES: ReadonlySet<PageType> = new Set(['Space', 'Iframe']);

/** The body of a Space or Iframe page under its header: the title, then the folder's list or the frame. */
export function TypedPage({ page, blocks, editable, onTitleEdited, saveTitle }: { page: WireElement; blocks: readonly WireBlock[]; editable: boolean; onTitleEdited(title: string): void; saveTitle(title: string): void }) {
  return (
    <section className={page.type === 'Iframe' ? 'type-page is-wide' : 'type-page'} data-page-type={page.type}>
      <PageTitleField title={page.title} editable={editable} onEdited={onTitleEdited} onSave={saveTitle} />
      {page.type === 'Space' ? <SpaceScreen page={page} editable={editable} /> : <IframeScreen page={page} blocks={blocks} editable={editable} />}
    </section>
  );
}

import { lazy, Suspense } from 'react';
import type { WireBlock } from '../../../schema/block';
import type { PageType } from '../../../schema/constants';
import type { WireElement } from '../../../schema/element';
import { IframeScreen } from './IframeScreen';
import { PageTitleField } from './PageTitleField';
import { SpaceScreen } from './SpaceScreen';
import './pageTypes.css';

/** A linked view's screen: the database's Table view, loaded lazily with the rest of the database code. */
const LinkedView = lazy(() => import('../database/LinkedView'));

/** Page types with a screen of their own instead of the document editor (a Database or Widget page has the other's). */
export const SCREEN_PAGE_TYPES: ReadonlySet<PageType> = new Set(['Space', 'Iframe', 'WidgetView']);

const WIDTH: Partial<Record<PageType, string>> = { Iframe: ' is-wide', WidgetView: ' is-fill' };

/** The body of a Space, Iframe or WidgetView page under its header: the title, then the folder's list, the frame or the linked view. */
export function TypedPage({
  page,
  blocks,
  editable,
  onTitleEdited,
  saveTitle,
}: {
  page: WireElement;
  blocks: readonly WireBlock[];
  editable: boolean;
  onTitleEdited(title: string): void;
  saveTitle(title: string): void;
}) {
  let body;
  if (page.type === 'Space') body = <SpaceScreen page={page} editable={editable} />;
  else if (page.type === 'Iframe') body = <IframeScreen page={page} blocks={blocks} editable={editable} />;
  else
    body = (
      <Suspense fallback={null}>
        <LinkedView page={page} />
      </Suspense>
    );
  return (
    <section className={`type-page${WIDTH[page.type] ?? ''}`} data-page-type={page.type}>
      <PageTitleField title={page.title} editable={editable} onEdited={onTitleEdited} onSave={saveTitle} />
      {body}
    </section>
  );
}

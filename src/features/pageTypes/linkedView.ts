import type { WireElement } from '../../../schema/element';
import { newId } from '../../../schema/ids';
import type { AppDispatch } from '../../app/store';
import { createChildPage, createNote } from '../pages/pagesSlice';

/**
 * «Создать связанное представление»: a page of type WidgetView showing the view `layoutId` of the
 * database on `holder`, titled after both. It goes beside the holding page (same parent, or the
 * same section); where the person may not make pages, into their private section. Answers the
 * new page's id (the caller opens it); throws when neither place takes it.
 */
export async function createLinkedViewPage(dispatch: AppDispatch, holder: WireElement, layoutId: string, viewName: string): Promise<string> {
  const page = { type: 'WidgetView' as const, defaultLayoutId: layoutId, title: holder.title ? `${holder.title} · ${viewName}` : viewName };
  const inPrivate = async () => {
    const id = newId();
    await dispatch(createNote({ section: 'private', id, ...page })).unwrap();
    return id;
  };
  const id = newId();
  try {
    if (holder.parentId) await dispatch(createChildPage({ parentId: holder.parentId, id, ...page })).unwrap();
    else if (holder.section === 'all') await dispatch(createNote({ section: 'all', id, ...page })).unwrap();
    else return await inPrivate();
    return id;
  } catch {
    return inPrivate();
  }
}

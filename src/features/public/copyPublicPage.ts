import type { WireBlock } from '../../../schema/block';
import { wireElementSchema, type WireElement } from '../../../schema/element';
import { newId } from '../../../schema/ids';
import { api, ApiRequestError } from '../../app/api';

const spaces = '/api/v3/spaces';

/**
 * Copies a page into the caller's private section of `workspaceId`; resolves with the copy's id.
 * A page the caller can read is deep-copied by the server (page/clone). A public page of another
 * workspace cannot be cloned there (403): it is copied from its public view instead — title,
 * icon, a library or link cover, and its blocks in order (nested blocks under their copies); a
 * copy that fails half way is deleted again.
 */
export async function copyPublicPage(pageId: string, workspaceId: string): Promise<string> {
  const id = newId();
  try {
    await api(`${spaces}/element/${encodeURIComponent(pageId)}/page/clone`, { method: 'POST', body: { id, workspaceId, toElement: null } });
    return id;
  } catch (error) {
    if (!(error instanceof ApiRequestError) || (error.status !== 403 && error.status !== 404)) throw error;
  }
  const { data, included } = await api<unknown>(`${spaces}/element/public/${encodeURIComponent(pageId)}`);
  const page = wireElementSchema.parse(data);
  const blocks = ((included ?? []) as { contentType?: string }[]).filter((item) => item.contentType === 'Block') as unknown as WireBlock[];
  await api(`${spaces}/section/private`, { method: 'POST', body: { id, type: 'Note', contentType: 'Element', title: page.title } });
  try {
    await copyContent(id, page, blocks);
  } catch (error) {
    // A copy half made is rolled back (spec §8): to the trash, then out of it for good.
    await api(`${spaces}/element/${id}`, { method: 'DELETE' })
      .then(() => api(`${spaces}/trash/${id}/remove`, { method: 'POST' }))
      .catch(() => undefined);
    throw error;
  }
  return id;
}

/** The public page's icon, cover and blocks, into its copy `id` (made already, empty). */
async function copyContent(id: string, page: WireElement, blocks: WireBlock[]): Promise<void> {
  if (page.icon) await api(`${spaces}/element/${id}`, { method: 'PATCH', body: { id, icon: page.icon } }).catch(() => undefined);
  if (page.cover && page.cover.contentType !== 'FileCover') {
    await api(`${spaces}/element/${id}`, { method: 'PATCH', body: { id, cover: page.cover } }).catch(() => undefined);
  }
  const ids = new Map<string, string>();
  for (const block of blocks) ids.set(block.id, newId());
  // Document order: a block's parent and previous sibling always come before it.
  for (const block of blocks) {
    await api(`${spaces}/block`, {
      method: 'POST',
      body: {
        id: ids.get(block.id),
        pageId: id,
        type: block.type,
        data: block.data,
        parentId: block.parentId ? (ids.get(block.parentId) ?? null) : null,
        placeAfter: block.placeAfter ? (ids.get(block.placeAfter) ?? null) : null,
      },
    });
  }
}

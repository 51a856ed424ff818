import { versionedWrite, type CreateBlockOutcome, type DeleteBlockOutcome, type WireBlock } from '../../schema/block';
import type { BlockSyncApi } from '../../plugins/withBlockSync';
import { api } from '../app/api';

/** The block endpoints the sync queue talks to, its writes told to others as coming from `clientId` (default: this tab). */
export function blockApiAs(clientId?: string): BlockSyncApi {
  const as = clientId === undefined ? {} : { clientId };
  return {
    async createBlock(body) {
      return (await api<WireBlock>('/api/v3/spaces/block', { method: 'POST', body: versionedWrite(body), ...as })).data;
    },
    async updateBlock(id, body) {
      return (await api<WireBlock>(`/api/v3/spaces/block/${encodeURIComponent(id)}`, { method: 'POST', body: versionedWrite(body), ...as })).data;
    },
    async moveBlock(id, body) {
      return (await api<WireBlock>(`/api/v3/spaces/block/${encodeURIComponent(id)}/move`, { method: 'POST', body, ...as })).data;
    },
    async deleteBlock(id, version) {
      await api(`/api/v3/spaces/block/${encodeURIComponent(id)}${version === undefined ? '' : `?version=${version}`}`, { method: 'DELETE', ...as });
    },
    async createBlocks(pageId, blocks) {
      return (await api<CreateBlockOutcome[]>('/api/v3/spaces/blocks/create', { method: 'POST', body: { pageId, blocks: blocks.map(versionedWrite) }, ...as }))
        .data;
    },
    async deleteBlocks(pageId, blocks) {
      return (await api<DeleteBlockOutcome[]>('/api/v3/spaces/blocks/delete', { method: 'POST', body: { pageId, blocks }, ...as })).data;
    },
    async getBlock(id) {
      return (await api<WireBlock>(`/api/v3/spaces/block/${encodeURIComponent(id)}`)).data;
    },
  };
}

/** The block endpoints the page's sync queue talks to. */
export const blockApi: BlockSyncApi = blockApiAs();

/** A page's blocks, and the server time they were read at (the realtime catch-up starts there). */
export async function loadBlocks(pageId: string): Promise<{ blocks: WireBlock[]; at: string | undefined }> {
  const { data, meta } = await api<WireBlock[]>(`/api/v3/spaces/note/${encodeURIComponent(pageId)}/blocks`);
  return { blocks: data, at: typeof meta.at === 'string' ? meta.at : undefined };
}

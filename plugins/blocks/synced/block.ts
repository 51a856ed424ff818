import { z } from 'zod';
import { escapeHtml } from '../../../schema/html';
import type { BlockDefinition } from '../../../schema/blocks/definition';
import type { BlockElementBase } from '../../../schema/slate';

/**
 * A synced block (issue 39 §2): the same blocks shown in two or more pages, edited from any of
 * them. The blocks live in a page of their own — a synced-content page: a child of the page the
 * synced block was made on, hidden from the sidebar, search, recents and the trash's list (the
 * server's `SYNCED_CONTENT` state, docs/api/blocks.md «Synced blocks») — and every instance is
 * this void block naming that page. Who may read or edit it follows that page, so the page it
 * was made on. The web app's view embeds an editor of that page in the block.
 */
export interface SyncedElement extends BlockElementBase {
  type: 'syncedBlock';
  pageId: string;
}

export const syncedDataSchema = z.object({ pageId: z.uuid() }).strict();
export type SyncedData = z.infer<typeof syncedDataSchema>;

/** The HTML attribute that marks a synced block (the clipboard's copy of one, «Копировать и синхронизировать»). */
export const SYNCED_ATTRIBUTE = 'data-synced-block';

export const syncedBlock: BlockDefinition<'synced', SyncedData, SyncedElement> = {
  wireType: 'synced',
  slateType: 'syncedBlock',
  dataSchema: syncedDataSchema,
  shortcuts: [],
  // No empty synced block: its page is made first (POST element/{id}/synced), so no defaultData;
  // the view's maker does it from the slash menu (View.tsx `blockMakers`).
  madeInEditor: true,
  isVoid: true,
  menuGroup: 'advanced',
  canonicalize: (data) => ({ pageId: data.pageId.toLowerCase() }),
  toSlateFields: (data) => ({ children: [{ text: '' }], pageId: data.pageId }),
  toWireData: (element) => {
    if (element.type !== 'syncedBlock') throw new Error(`${element.type} is not a synced element`);
    return { pageId: element.pageId };
  },
  // Exports write a synced block's blocks in its place (server/export: `expandSynced`); one that
  // reaches the writer could not be read (its page gone): nothing is written for it.
  markdown: { serialize: () => [] },
  html: {
    // A marker without the blocks: what a copy puts on the clipboard; pasted into a page, it is
    // one more instance of the same blocks. Exports write the blocks instead.
    serialize: (data) => `<div ${SYNCED_ATTRIBUTE}="${escapeHtml(data.pageId)}"></div>`,
    parse: [
      {
        selector: `div[${SYNCED_ATTRIBUTE}]`,
        read: (element) => {
          const result = syncedDataSchema.safeParse({ pageId: element.getAttribute(SYNCED_ATTRIBUTE) });
          return result.success ? { pageId: result.data.pageId.toLowerCase() } : null;
        },
      },
    ],
  },
};

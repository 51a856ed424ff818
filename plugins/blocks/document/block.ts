import type { BlockElementBase } from '../../../schema/slate';
import { z } from 'zod';
import { escapeHtml } from '../../../schema/html';
import type { BlockDefinition } from '../../../schema/blocks/definition';
import { escapeMarkdown } from '../../../schema/markdown/write';

/** A child page shown as a block (void); the block keeps a uuid id, the page id is pageId. */
export interface DocumentElement extends BlockElementBase {
  type: 'documentBlock';
  pageId: string;
}

/**
 * A nested page shown as a block (spec: documentBlock). The spec gives such a block a uid
 * prefixed `block_`; our block ids are uuids, so the block keeps a uuid id and the child page's
 * id lives in `data.pageId` (docs/api/blocks.md). There is no empty document block: one is made
 * by creating the child page first (src/editor/blocks/insertDocumentBlock.ts), so no defaultData.
 */
export const documentDataSchema = z.object({ pageId: z.uuid() }).strict();
export type DocumentData = z.infer<typeof documentDataSchema>;

/** The app's address of a page (the `/:pageUid` route). */
export function pagePath(pageId: string): string {
  return `/${encodeURIComponent(pageId)}`;
}

export const documentBlock: BlockDefinition<'document', DocumentData, DocumentElement> = {
  wireType: 'document',
  slateType: 'documentBlock',
  dataSchema: documentDataSchema,
  shortcuts: [],
  isVoid: true,
  canonicalize: (data) => ({ pageId: data.pageId.toLowerCase() }),
  toSlateFields: (data) => ({ children: [{ text: '' }], pageId: data.pageId }),
  toWireData: (element) => {
    if (element.type !== 'documentBlock') throw new Error(`${element.type} is not a document element`);
    return { pageId: element.pageId };
  },
  markdown: {
    // A link to the subpage's file, named by it (the export names files by their pages' titles).
    serialize: (data, md) => {
      const target = md.page(data.pageId);
      return target ? [`[↗ ${escapeMarkdown(target.replace(/^.*\//, '').replace(/\.md$/, ''))}](${md.address(target)})`] : [];
    },
  },
  html: {
    serialize: (data) => `<a href="${escapeHtml(pagePath(data.pageId))}" data-page-id="${escapeHtml(data.pageId)}">${escapeHtml(pagePath(data.pageId))}</a>`,
    parse: [
      {
        selector: 'a[data-page-id]',
        read: (element) => {
          const result = documentDataSchema.safeParse({ pageId: element.getAttribute('data-page-id') });
          return result.success ? { pageId: result.data.pageId.toLowerCase() } : null;
        },
      },
    ],
  },
};

/** @jest-environment jsdom */
import { wireBlockSchema } from '../../../schema/block';
import { VOID_SLATE_TYPES } from '../../../schema/blocks/index';
import { documentBlock, documentDataSchema, pagePath } from './block';

const pageId = '0f7a1b2c-3d4e-4f50-8a6b-7c8d9e0f1a2b';

describe('document block', () => {
  it('holds the uuid of a page and nothing else', () => {
    expect(documentDataSchema.safeParse({ pageId }).success).toBe(true);
    expect(documentDataSchema.safeParse({ pageId: 'block_abc' }).success).toBe(false);
    expect(documentDataSchema.safeParse({ pageId, title: 'x' }).success).toBe(false);
    const block = { id: 'b1', contentType: 'Block', pageId: 'p1', type: 'document', version: 1, parentId: null, placeAfter: null };
    expect(wireBlockSchema.safeParse({ ...block, data: { pageId } }).success).toBe(true);
    expect(wireBlockSchema.safeParse({ ...block, data: {} }).success).toBe(false);
  });

  it('is void and offered only through insertDocumentBlock (no default data, no shortcut)', () => {
    expect(VOID_SLATE_TYPES.has('documentBlock')).toBe(true);
    expect(documentBlock.defaultData).toBeUndefined();
    expect(documentBlock.shortcuts).toEqual([]);
  });

  it('copies as a link to the page and pastes back', () => {
    const html = documentBlock.html!.serialize({ pageId }, '');
    expect(html).toBe(`<a href="/${pageId}" data-page-id="${pageId}">/${pageId}</a>`);
    const template = document.createElement('template');
    template.innerHTML = html;
    const element = template.content.firstElementChild!;
    expect(documentBlock.html!.parse[0].read(element, [])).toEqual({ pageId });
    template.innerHTML = '<a data-page-id="nope">x</a>';
    expect(documentBlock.html!.parse[0].read(template.content.firstElementChild!, [])).toBeNull();
    expect(pagePath(pageId)).toBe(`/${pageId}`);
  });
});

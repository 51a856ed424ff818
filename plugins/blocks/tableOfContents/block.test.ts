/** @jest-environment jsdom */
import { parseWith, roundTripHtml } from '../../../schema/blocks/htmlTestUtil';
import { VOID_SLATE_TYPES } from '../../../schema/blocks';
import { tableOfContentsBlock } from './block';

describe('table of contents', () => {
  test('a void block with no data; HTML: a marked <nav>, read back (its Markdown: server/export/markdown.test.ts)', () => {
    expect(VOID_SLATE_TYPES.has('tableOfContentsBlock')).toBe(true);
    expect(tableOfContentsBlock.dataSchema.safeParse({}).success).toBe(true);
    expect(tableOfContentsBlock.dataSchema.safeParse({ headings: [] }).success).toBe(false);
    expect(roundTripHtml(tableOfContentsBlock, {}, '')).toEqual({});
    expect(parseWith(tableOfContentsBlock, '<nav>меню сайта</nav>')).toBeNull();
  });
});

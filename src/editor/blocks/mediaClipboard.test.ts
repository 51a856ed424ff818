import { parseHtml } from '../../../plugins/withClipboard/parseHtml';
import { blocksToHtml } from '../../../plugins/withClipboard/serialize';
import { toSlate, toWire, type WireBlock } from '../../../schema/block';
import type { BlockElement } from '../../../schema/slate';
import { TEST_PAGE_ID, wireBlock } from './testing';

/** Copy as HTML, paste back: the media and page blocks survive the sanitizer and the parser. */
function roundTrip(blocks: WireBlock[]) {
  const html = blocksToHtml(blocks.map(toSlate));
  const pasted = parseHtml(html);
  if (pasted?.kind !== 'blocks') throw new Error(`not blocks: ${JSON.stringify(pasted)}`);
  return pasted.blocks.map((element: BlockElement) => {
    const wire = toWire(element, { pageId: TEST_PAGE_ID, parentId: null, placeAfter: null });
    return { type: wire.type, data: wire.data };
  });
}

const FILE_ID = '5e5e5e5e-0000-4000-8000-000000000005';
const PAGE = 'c0c0c0c0-0000-4000-8000-00000000000c';

describe('copy and paste of media and page blocks inside the app', () => {
  it('keeps images, files, embeds and child pages', () => {
    const blocks = [
      wireBlock('b1', 'image', {
        remoteData: { fileId: FILE_ID, title: 'Фото.jpg', size: 10, mimeType: 'image/jpeg' },
        crop: { left: 5, top: 5, width: 50, height: 60 },
        scale: 0.7,
        align: 'left',
      }),
      wireBlock('b2', 'file', { remoteData: { fileId: FILE_ID, title: 'Смета.xlsx', size: 99, mimeType: 'application/vnd.ms-excel' } }),
      wireBlock('b3', 'embed', { url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', scale: 0.5, align: 'right' }),
      wireBlock('b4', 'embed', { url: 'https://example.com/page', scale: 1, align: 'center' }),
      wireBlock('b5', 'document', { pageId: PAGE }),
    ];
    expect(roundTrip(blocks)).toEqual(blocks.map((b) => ({ type: b.type, data: b.data })));
  });

  it('turns a picture from another site into a link in a text block', () => {
    const pasted = parseHtml('<p><img src="https://example.com/cat.png" alt="Кот"></p>');
    expect(pasted).toEqual({ kind: 'inline', tokens: [{ text: 'Кот', link: { href: 'https://example.com/cat.png' } }] });
  });
});

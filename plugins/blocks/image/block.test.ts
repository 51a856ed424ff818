/** @jest-environment jsdom */
import { wireBlockSchema } from '../../../schema/block';
import { clampScale, imageBlock, imageDataSchema, pastedImageToTokens, type ImageData } from './block';

const remote = { fileId: 'a1b2c3d4-0000-4000-8000-000000000002', title: 'Схема.png', size: 1000, mimeType: 'image/png' };
const loaded: ImageData = { remoteData: remote, crop: { left: 10, top: 5, width: 50, height: 40.5 }, scale: 0.6, align: 'right' };

function parseHtml(html: string): Element {
  const template = document.createElement('template');
  template.innerHTML = html;
  return template.content.firstElementChild as Element;
}

describe('image block', () => {
  it('has the spec defaults and no shortcut', () => {
    expect(imageBlock.defaultData!()).toEqual({ remoteData: null, crop: null, scale: 1, align: 'center' });
    expect(imageBlock.isVoid).toBe(true);
    expect(imageBlock.shortcuts).toEqual([]);
  });

  it('validates scale, align and crop', () => {
    expect(imageDataSchema.safeParse(loaded).success).toBe(true);
    expect(imageDataSchema.safeParse({ ...loaded, scale: 0.05 }).success).toBe(false);
    expect(imageDataSchema.safeParse({ ...loaded, scale: 1.5 }).success).toBe(false);
    expect(imageDataSchema.safeParse({ ...loaded, align: 'justify' }).success).toBe(false);
    expect(imageDataSchema.safeParse({ ...loaded, crop: { left: 60, top: 0, width: 50, height: 10 } }).success).toBe(false);
    expect(imageDataSchema.safeParse({ ...loaded, crop: { left: 0, top: 0, width: 0, height: 10 } }).success).toBe(false);
    expect(imageDataSchema.safeParse({ ...loaded, crop: { left: -1, top: 0, width: 10, height: 10 } }).success).toBe(false);
    // Upload state never travels: localData is refused.
    expect(imageDataSchema.safeParse({ ...loaded, localData: { uploadingFileId: 'x' } }).success).toBe(false);
  });

  it('keeps scales in range, to two decimals', () => {
    expect(clampScale(0.456)).toBe(0.46);
    expect(clampScale(0.01)).toBe(0.1);
    expect(clampScale(3)).toBe(1);
    expect(clampScale(Number.NaN)).toBe(1);
  });

  it('round-trips through Slate and the server schema', () => {
    const element = { type: 'imageBlock', uid: 'b', version: 1, ...imageBlock.toSlateFields(loaded) } as never;
    expect(imageBlock.toWireData(element)).toEqual(loaded);
    const block = { id: 'b1', contentType: 'Block', pageId: 'p1', type: 'image', version: 1, parentId: null, placeAfter: null };
    expect(wireBlockSchema.safeParse({ ...block, data: loaded }).success).toBe(true);
    expect(wireBlockSchema.safeParse({ ...block, data: { ...loaded, scale: 2 } }).success).toBe(false);
  });

  it('reads a property Slate dropped (set to null) as null', () => {
    const element = { type: 'imageBlock', uid: 'b', version: 1, children: [{ text: '' }], scale: 1, align: 'center' } as never;
    expect(imageBlock.toWireData(element)).toEqual({ remoteData: null, crop: null, scale: 1, align: 'center' });
  });

  it('copies as <img> and pastes back inside the app', () => {
    const html = imageBlock.html!.serialize(loaded, '');
    expect(html).toBe(
      '<img src="/api/file/a1b2c3d4-0000-4000-8000-000000000002" alt="Схема.png" data-file-id="a1b2c3d4-0000-4000-8000-000000000002" data-size="1000" data-mime-type="image/png" data-scale="0.6" data-align="right" data-crop="10,5,50,40.5">',
    );
    const element = parseHtml(html);
    const rule = imageBlock.html!.parse.find((r) => element.matches(r.selector))!;
    expect(rule.read(element, [])).toEqual(loaded);
    expect(imageBlock.html!.serialize({ ...loaded, remoteData: null }, '')).toBe('');
  });

  it('turns a picture from elsewhere into a text link, not an image block', () => {
    const foreign = parseHtml('<img src="https://example.com/cat.png" alt=" Кот  на крыше ">');
    expect(imageBlock.html!.parse.some((r) => foreign.matches(r.selector))).toBe(false);
    expect(pastedImageToTokens(foreign)).toEqual([{ text: 'Кот на крыше', link: { href: 'https://example.com/cat.png' } }]);
    expect(pastedImageToTokens(parseHtml('<img src="https://example.com/a.png">'))).toEqual([
      { text: 'https://example.com/a.png', link: { href: 'https://example.com/a.png' } },
    ]);
    expect(pastedImageToTokens(parseHtml('<img src="data:image/png;base64,AAAA">'))).toBeNull();
    expect(pastedImageToTokens(parseHtml('<img src="javascript:alert(1)">'))).toBeNull();
  });
});

/** @jest-environment jsdom */
import { wireBlockSchema } from '../../../schema/block';
import { fileBlock, fileDataSchema, formatFileSize } from './block';

const remote = { fileId: '4e2b7c1a-0000-4000-8000-000000000001', title: 'Отчёт <1>.pdf', size: 48213, mimeType: 'application/pdf' };

function parseHtml(html: string): Element {
  const template = document.createElement('template');
  template.innerHTML = html;
  return template.content.firstElementChild as Element;
}

describe('file block', () => {
  it('formats sizes with Russian units', () => {
    expect(formatFileSize(0)).toBe('0 Б');
    expect(formatFileSize(512)).toBe('512 Б');
    expect(formatFileSize(1023)).toBe('1023 Б');
    expect(formatFileSize(1024)).toBe('1 КБ');
    expect(formatFileSize(1536)).toBe('1,5 КБ');
    expect(formatFileSize(48213)).toBe('47 КБ');
    expect(formatFileSize(5 * 1024 * 1024)).toBe('5 МБ');
    expect(formatFileSize(1024 * 1024 - 1)).toBe('1 МБ');
    expect(formatFileSize(3.25 * 1024 ** 3)).toBe('3,3 ГБ');
  });

  it('accepts an empty or uploaded file and refuses anything else', () => {
    expect(fileDataSchema.safeParse({ remoteData: null }).success).toBe(true);
    expect(fileDataSchema.safeParse({ remoteData: remote }).success).toBe(true);
    expect(fileDataSchema.safeParse({}).success).toBe(false);
    expect(fileDataSchema.safeParse({ remoteData: { ...remote, mimeType: 'text/html; charset=utf-8' } }).success).toBe(false);
    expect(fileDataSchema.safeParse({ remoteData: { ...remote, size: -1 } }).success).toBe(false);
    expect(fileDataSchema.safeParse({ remoteData: { ...remote, title: '' } }).success).toBe(false);
    expect(fileDataSchema.safeParse({ remoteData: { ...remote, extra: 1 } }).success).toBe(false);
    expect(fileDataSchema.safeParse({ remoteData: null, localData: { progress: 1 } }).success).toBe(false);
  });

  it('is a void type with the /file shortcut and an empty default', () => {
    expect(fileBlock.isVoid).toBe(true);
    expect(fileBlock.shortcuts).toEqual(['/file']);
    expect(fileBlock.defaultData!()).toEqual({ remoteData: null });
  });

  it('goes to a wire block the server schema takes', () => {
    const block = { id: 'b1', contentType: 'Block', pageId: 'p1', type: 'file', version: 1, parentId: null, placeAfter: null };
    expect(wireBlockSchema.safeParse({ ...block, data: { remoteData: remote } }).success).toBe(true);
    expect(wireBlockSchema.safeParse({ ...block, data: { remoteData: 'x' } }).success).toBe(false);
  });

  it('copies as a download link and pastes back to the same data', () => {
    const html = fileBlock.html!.serialize({ remoteData: remote }, '');
    expect(html).toBe(
      '<a href="/api/file/4e2b7c1a-0000-4000-8000-000000000001" download="Отчёт &lt;1&gt;.pdf" data-file-id="4e2b7c1a-0000-4000-8000-000000000001" data-size="48213" data-mime-type="application/pdf">Отчёт &lt;1&gt;.pdf</a>',
    );
    const element = parseHtml(html);
    const rule = fileBlock.html!.parse.find((r) => element.matches(r.selector))!;
    expect(rule.read(element, [])).toEqual({ remoteData: remote });
    expect(fileBlock.html!.serialize({ remoteData: null }, '')).toBe('');
  });

  it('does not take an ordinary link, nor one with broken file attributes', () => {
    const plain = parseHtml('<a href="https://example.com/a.pdf" download>a.pdf</a>');
    expect(fileBlock.html!.parse.some((r) => plain.matches(r.selector))).toBe(false);
    const broken = parseHtml('<a data-file-id="x" data-size="oops" data-mime-type="application/pdf">a</a>');
    expect(fileBlock.html!.parse[0].read(broken, [])).toBeNull();
  });
});

import { Editor } from 'slate';
import { createPageEditor } from './pageEditor';
import type { BlockElement } from '../../schema/slate';
import { pasteFiles } from './pasteFiles';
import { uploader, uploadsRunning, uploadsSettled } from './upload';

const PAGE = '0f0f0f0f-0000-4000-8000-00000000000f';
const remote = (name: string) => ({ fileId: '1a1a1a1a-0000-4000-8000-000000000001', title: name, size: 3, mimeType: 'image/png' });

function editorWith(blocks: unknown[], at: number) {
  const editor = createPageEditor();
  editor.children = [{ type: 'pageHeadingBlock', uid: `pageHeading_${PAGE}`, version: 1, children: [{ text: 'T' }] }, ...blocks] as never;
  editor.selection = { anchor: { path: [at, 0], offset: 0 }, focus: { path: [at, 0], offset: 0 } };
  return editor;
}
const emptyImage = (uid: string) => ({
  type: 'imageBlock',
  uid,
  version: 1,
  remoteData: null,
  crop: null,
  scale: 1,
  align: 'center',
  children: [{ text: '' }],
});
const text = (uid: string, value: string) => ({ type: 'textBlock', uid, version: 1, children: [{ text: value }] });
const file = (name: string, type: string) => new File(['abc'], name, { type });
const shape = (editor: Editor) =>
  editor.children.slice(1).map((n) => `${(n as BlockElement).type}:${(n as { remoteData?: { title: string } | null }).remoteData?.title ?? ''}`);

describe('pasting files', () => {
  let release: () => void = () => undefined;
  beforeEach(() => {
    // The upload endpoint is the server's (tested in the browser tests); here it answers when released.
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    release = open;
    jest.spyOn(uploader, 'upload').mockImplementation(async (_page, pasted) => {
      await gate;
      return remote(pasted.name);
    });
  });
  afterEach(() => jest.restoreAllMocks());

  it('an image goes into the empty image block the caret is on; more files follow it as image and file blocks', async () => {
    const editor = editorWith([text('a', 'x'), emptyImage('img'), text('z', '')], 2);
    expect(pasteFiles(editor, [file('one.png', 'image/png'), file('two.png', 'image/png'), file('notes.pdf', 'application/pdf')])).toBe(true);
    expect(shape(editor)).toEqual(['textBlock:', 'imageBlock:', 'imageBlock:', 'fileBlock:', 'textBlock:']);
    expect((editor.children[2] as BlockElement).uid).toBe('img');
    // While they upload, leaving the page would lose them: the page counts as unsaved.
    expect(uploadsRunning()).toBe(true);
    release();
    await uploadsSettled();
    expect(uploadsRunning()).toBe(false);
    expect(shape(editor)).toEqual(['textBlock:', 'imageBlock:one.png', 'imageBlock:two.png', 'fileBlock:notes.pdf', 'textBlock:']);
  });

  it('from a text block the files go after it; a non-image never goes into an image block', async () => {
    const editor = editorWith([text('a', 'x'), emptyImage('img'), text('z', '')], 1);
    pasteFiles(editor, [file('doc.txt', 'text/plain')]);
    expect(shape(editor)).toEqual(['textBlock:', 'fileBlock:', 'imageBlock:', 'textBlock:']);
    editor.selection = { anchor: { path: [3, 0], offset: 0 }, focus: { path: [3, 0], offset: 0 } };
    pasteFiles(editor, [file('more.txt', 'text/plain')]);
    expect(shape(editor)).toEqual(['textBlock:', 'fileBlock:', 'imageBlock:', 'fileBlock:', 'textBlock:']);
    release();
    await uploadsSettled();
    expect(shape(editor)).toEqual(['textBlock:', 'fileBlock:doc.txt', 'imageBlock:', 'fileBlock:more.txt', 'textBlock:']);
    expect(pasteFiles(editor, [])).toBe(false);
  });
});

/** @jest-environment jsdom */
import { act, createElement } from 'react';
import { fireEvent, render } from '@testing-library/react';
import { Transforms, type Descendant } from 'slate';
import { Editable, Slate } from 'slate-react';
import { CLIPBOARD_MIME } from '../../plugins/withClipboard/content';
import { BLOCK_CHUNK_SIZE, createPageEditor } from './pageEditor';
import { withContentEditable } from '../../test/helpers/jsdomEditable';

/** A DataTransfer stand-in for the events. */
function transfer(formats: Record<string, string> = {}) {
  const store = new Map(Object.entries(formats));
  return {
    getData: (type: string) => store.get(type) ?? '',
    setData: (type: string, value: string) => void store.set(type, value),
    get types() {
      return [...store.keys()];
    },
    files: [],
    items: [],
  };
}

/*
 * The web app's editor is the plugins' over slate-react's: the plugins' copy and paste must be what
 * the rendered editor's events reach (withReact under them, not over them).
 */
describe('the page editor, rendered', () => {
  withContentEditable();

  function setup() {
    const editor = createPageEditor();
    const value = [
      { type: 'pageHeadingBlock', uid: 'pageHeading_p1', version: 1, children: [{ text: 'Страница' }] },
      { type: 'textBlock', uid: 'a', version: 1, children: [{ text: 'абв' }] },
    ] as Descendant[];
    const editable = createElement(Editable, { 'data-testid': 'editor' } as never);
    const view = render(createElement(Slate, { editor, initialValue: value, children: editable }));
    return { editor, editable: view.getByTestId('editor') };
  }

  test('a paste event goes through the clipboard plugin (markdown lists become blocks)', async () => {
    const { editor, editable } = setup();
    await act(async () => Transforms.select(editor, { path: [1, 0], offset: 3 }));
    await act(async () => {
      fireEvent.paste(editable, { clipboardData: transfer({ 'text/plain': '- один\n- два' }) });
    });
    expect(editor.children.slice(1).map((n) => (n as { type: string }).type)).toEqual(['textBlock', 'bulletListBlock', 'bulletListBlock']);
    expect(editable.textContent).toBe('Страницаабводиндва');
  });

  test('a copy event puts our JSON, HTML and text on the clipboard', async () => {
    const { editor, editable } = setup();
    await act(async () => Transforms.select(editor, { anchor: { path: [1, 0], offset: 0 }, focus: { path: [1, 0], offset: 2 } }));
    const data = transfer();
    await act(async () => {
      fireEvent.copy(editable, { clipboardData: data });
    });
    expect(JSON.parse(data.getData(CLIPBOARD_MIME))).toEqual({ format: 'workspace-blocks', version: 1, tokens: [{ text: 'аб' }] });
    expect(data.getData('text/html')).toBe('аб');
    expect(data.getData('text/plain')).toBe('аб');
  });

  test('renders the top-level blocks in chunks', () => {
    const { editor } = setup();
    expect(editor.getChunkSize(editor)).toBe(BLOCK_CHUNK_SIZE);
    expect(editor.getChunkSize(editor.children[1] as never)).toBeNull();
  });
});

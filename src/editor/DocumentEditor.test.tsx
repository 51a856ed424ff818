import { act, render } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { Editor, Transforms } from 'slate';
import { ELEMENT_TO_NODE } from 'slate-dom';
import type { WorkspaceEditor } from '../../plugins';
import type { BlockSyncApi } from '../../plugins/withBlockSync';
import { newElement } from '../../schema/element';
import { createStore } from '../app/store';
import { DocumentEditor, type DocumentEditorProps } from './DocumentEditor';
import { flushEditor, installFetch, TEST_PAGE_ID, wireBlock } from './blocks/testing';
import { NestedEditorsContext, type NestedEditor, type NestedEditors } from './nestedEditors';

const CHILD = '22222222-3333-4444-8555-666666666666';
const WORKSPACE = '33333333-4444-4555-8666-777777777777';
const page = newElement({ id: TEST_PAGE_ID, workspaceId: WORKSPACE, title: 'Родитель', section: 'private' }, '2026-01-01T00:00:00.000Z');
const noApi: BlockSyncApi = {
  createBlock: () => new Promise(() => undefined),
  updateBlock: () => new Promise(() => undefined),
  moveBlock: () => new Promise(() => undefined),
  deleteBlock: () => new Promise(() => undefined),
};

/** The page's editor as the page screen draws it (editable, no network unless `api` answers), with `props` over those. */
function renderDocumentEditor(props: Partial<DocumentEditorProps> & Pick<DocumentEditorProps, 'blocks'>, outer?: NestedEditors) {
  const editor = (
    <DocumentEditor
      page={page}
      canEdit
      onTitleEdited={() => undefined}
      saveTitle={async () => undefined}
      onSyncStatus={() => undefined}
      api={noApi}
      {...props}
    />
  );
  return render(
    <Provider store={createStore()}>
      <MemoryRouter>{outer ? <NestedEditorsContext.Provider value={outer}>{editor}</NestedEditorsContext.Provider> : editor}</MemoryRouter>
    </Provider>,
  );
}

describe('DocumentEditor: duplicating a nested page', () => {
  it('asks the server for a copy of the page under this one; when it cannot be made, the duplicated block goes again', async () => {
    const calls = installFetch(() => ({ status: 403, body: { data: null, errors: [{ code: 'forbidden', message: '' }] } }));
    const { container } = renderDocumentEditor({ blocks: [wireBlock('d1', 'document', { pageId: CHILD })] });
    const editor = ELEMENT_TO_NODE.get(container.querySelector('[data-slate-editor]') as HTMLElement) as unknown as WorkspaceEditor;
    Transforms.select(editor, Editor.start(editor, [1]));
    editor.handleKey({ key: 'd', ctrlKey: true });
    const pageIds = () => editor.children.map((node) => (node as { pageId?: string }).pageId).filter(Boolean);
    expect(pageIds()).toHaveLength(2);
    const copy = pageIds()[1];
    expect(copy).not.toBe(CHILD);
    const clone = calls.find((call) => call.url.endsWith('/page/clone'));
    expect(clone).toEqual({
      url: `/api/v3/spaces/element/${CHILD}/page/clone`,
      method: 'POST',
      body: { id: copy, workspaceId: WORKSPACE, toElement: TEST_PAGE_ID },
    });
    await flushEditor();
    await flushEditor();
    expect(pageIds()).toEqual([CHILD]);
  });
});

describe('DocumentEditor: the title is saved 500 ms after the last key (spec §9)', () => {
  afterEach(() => jest.useRealTimers());

  it('each key shows at once (onTitleEdited); one save of the last title, 500 ms after the last key; leaving saves at once', async () => {
    jest.useFakeTimers();
    const edited: string[] = [];
    const saved: string[] = [];
    const { container, unmount } = renderDocumentEditor({
      blocks: [wireBlock('t1', 'text', { tokens: [{ text: 'текст' }] })],
      onTitleEdited: (title) => edited.push(title),
      saveTitle: async (title) => void saved.push(title),
    });
    const editor = ELEMENT_TO_NODE.get(container.querySelector('[data-slate-editor]') as HTMLElement) as unknown as WorkspaceEditor;
    const typeAt = async (text: string, wait: number) => {
      await act(async () => {
        Transforms.select(editor, Editor.end(editor, [0]));
        editor.insertText(text);
        await Promise.resolve();
      });
      await act(async () => void jest.advanceTimersByTime(wait));
    };
    await typeAt(' 1', 300);
    await typeAt('2', 300);
    await typeAt('3', 499);
    // 1.1 s of typing, never 500 ms without a key: the server has heard nothing yet.
    expect(edited).toEqual(['Родитель 1', 'Родитель 12', 'Родитель 123']);
    expect(saved).toEqual([]);
    await act(async () => void jest.advanceTimersByTime(1));
    expect(saved).toEqual(['Родитель 123']);
    // Typing in a block is no rename.
    await act(async () => {
      Transforms.select(editor, Editor.end(editor, [1]));
      editor.insertText('!');
      await Promise.resolve();
    });
    await act(async () => void jest.advanceTimersByTime(1000));
    expect(saved).toEqual(['Родитель 123']);
    // A key, and the page left before 500 ms: saved then, not lost.
    await typeAt('4', 100);
    expect(saved).toEqual(['Родитель 123']);
    unmount();
    expect(saved).toEqual(['Родитель 123', 'Родитель 1234']);
  });
});

describe('DocumentEditor drawn inside another page (a synced block)', () => {
  it("counted in the page's status and leave guard until its edits are saved, also after it is gone; then it leaves", async () => {
    installFetch(() => ({ status: 200, body: { data: [], meta: { at: '2026-01-01T00:00:00.000Z' } } }));
    let release: (() => void) | null = null;
    const updates: string[] = [];
    const api: BlockSyncApi = {
      ...noApi,
      updateBlock: (id, body) => {
        updates.push(id);
        return new Promise((resolve) => {
          release = () => resolve({ ...wireBlock(id, 'text', body.data), version: body.version + 1 });
        });
      },
    };
    const attached: NestedEditor[] = [];
    const left: NestedEditor[] = [];
    const outer: NestedEditors = {
      Editor: DocumentEditor,
      attach: (editor) => {
        attached.push(editor);
        return () => left.push(editor);
      },
      status: () => undefined,
      depth: 0,
      pageId: 'host-page',
      childPagesOf: 'host-page',
      workspaceId: WORKSPACE,
      published: false,
      reveal: { pending: null, listeners: new Set() },
    };
    const { container, unmount } = renderDocumentEditor(
      { blocks: [wireBlock('s1', 'text', { tokens: [{ text: 'общий' }] })], embedded: { label: 'Синхронизированный блок' }, api },
      outer,
    );
    expect(attached).toHaveLength(1);
    const editor = ELEMENT_TO_NODE.get(container.querySelector('[data-slate-editor]') as HTMLElement) as unknown as WorkspaceEditor;
    await act(async () => {
      Transforms.select(editor, Editor.end(editor, [1]));
      editor.insertText(' текст');
      await Promise.resolve();
    });
    expect(attached[0].unsaved()).toBe(true);
    // Gone with the edit unsent: sent at once, and still counted while the server has not answered.
    unmount();
    await flushEditor();
    expect(updates).toEqual(['s1']);
    await act(async () => void (await new Promise((resolve) => setTimeout(resolve, 1_200))));
    expect(left).toEqual([]);
    expect(attached[0].unsaved()).toBe(true);
    // Saved: it leaves within a retry.
    await act(async () => {
      release?.();
      await new Promise((resolve) => setTimeout(resolve, 1_200));
    });
    expect(left).toEqual([attached[0]]);
    expect(attached[0].unsaved()).toBe(false);
    expect(updates).toEqual(['s1']);
  });
});

describe('DocumentEditor: text typed with the caret on a synced block', () => {
  it("goes into the synced block's own editor (at the start of its blocks), not dropped as on other voids", async () => {
    const CONTENT = '44444444-5555-4666-8777-888888888888';
    const contentPage = {
      ...newElement({ id: CONTENT, workspaceId: WORKSPACE, parentId: TEST_PAGE_ID, path: [TEST_PAGE_ID] }, '2026-01-01T00:00:00.000Z'),
      synced: true,
    };
    installFetch((call) =>
      call.url.endsWith(`/element/${CONTENT}`)
        ? { status: 200, body: { data: contentPage, meta: {} } }
        : call.url.includes(`/note/${CONTENT}/blocks`)
          ? {
              status: 200,
              body: { data: [{ ...wireBlock('c1', 'text', { tokens: [{ text: 'общий' }] }), pageId: CONTENT }], meta: { at: '2026-01-01T00:00:00.000Z' } },
            }
          : { status: 404, body: { data: null, errors: [{ code: 'not_found', message: '' }] } },
    );
    const { container } = renderDocumentEditor({
      blocks: [wireBlock('s', 'synced', { pageId: CONTENT }), wireBlock('t', 'text', { tokens: [{ text: 'после' }] })],
    });
    const editors = () =>
      [...container.querySelectorAll('[data-slate-editor]')].map((el) => ELEMENT_TO_NODE.get(el as HTMLElement) as unknown as WorkspaceEditor);
    for (let i = 0; i < 10 && editors().length < 2; i++) await flushEditor();
    const [outer, inner] = editors();
    expect(inner).toBeDefined();
    await act(async () => {
      Transforms.select(outer, Editor.start(outer, [1]));
      outer.insertText('Ж');
      await Promise.resolve();
    });
    expect(Editor.string(inner, [1])).toBe('Жобщий');
    // Only the synced block takes it: on the paragraph after it, typing is as always.
    await act(async () => {
      Transforms.select(outer, Editor.start(outer, [2]));
      outer.insertText('!');
      await Promise.resolve();
    });
    expect(Editor.string(outer, [2])).toBe('!после');
    expect(Editor.string(inner, [1])).toBe('Жобщий');
  });
});

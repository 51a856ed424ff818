import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { Editor, Transforms } from 'slate';
import { ReactEditor } from 'slate-react';
import type { BlockElement } from '../../../schema/slate';
import { decorateCode, spansOf, type CodeRange } from './decorate';
import { loadLanguage } from './prism';
import { renderEditor } from '../../../src/editor/blocks/testing';

const code = (text: string, language?: string) =>
  ({ type: 'codeBlock', uid: 'c', version: 1, children: [{ text }], ...(language ? { language } : {}) }) as BlockElement;

describe('code view', () => {
  test('monospace block with a Russian language picker; changing it changes the block', async () => {
    const { editor, container } = renderEditor([code('print(1)', 'javascript')]);
    expect(container.querySelector('[data-block-id="c"] pre code')!.textContent).toContain('print(1)');
    const picker = screen.getByRole('combobox', { name: 'Язык кода' }) as HTMLSelectElement;
    expect(picker.value).toBe('javascript');
    expect(Array.from(picker.options).map((o) => o.textContent)).toEqual(expect.arrayContaining(['Обычный текст', 'Python', 'TypeScript', 'C++']));
    await act(async () => void fireEvent.change(picker, { target: { value: 'python' } }));
    expect((editor.children[1] as { language?: string }).language).toBe('python');
    expect(picker.value).toBe('python');
  });

  test('code is highlighted with prism once the language has loaded', async () => {
    const { container } = renderEditor([code('def f():\n    return "x"', 'python')]);
    await waitFor(() => expect(container.querySelector('[data-block-id="c"] .token.keyword')).not.toBeNull());
    const keywords = Array.from(container.querySelectorAll('[data-block-id="c"] .token.keyword')).map((e) => e.textContent);
    expect(keywords).toEqual(['def', 'return']);
    expect(container.querySelector('[data-block-id="c"] .token.string')!.textContent).toBe('"x"');
    // The text itself is unchanged.
    expect(container.querySelector('[data-block-id="c"] pre')!.textContent).toBe('def f():\n    return "x"');
  });

  test('read-only pages cannot change the language', () => {
    renderEditor([code('x')], { readOnly: true });
    expect((screen.getByRole('combobox') as HTMLSelectElement).disabled).toBe(true);
    expect((screen.getByRole('combobox') as HTMLSelectElement).value).toBe('javascript');
  });

  test('the copy button copies the code', async () => {
    const writeText = jest.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderEditor([code('a\nb')]);
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: 'Копировать' })));
    expect(writeText).toHaveBeenCalledWith('a\nb');
    expect(screen.getByRole('button', { name: 'Скопировано' })).toBeTruthy();
  });
});

describe('code view: the hint on leaving the block', () => {
  afterEach(() => jest.restoreAllMocks());
  const hint = 'Enter дважды на пустой строке или ↓ в конце — выйти из кода';

  test('shows only while the caret is in the block of an editable page', async () => {
    const { editor } = renderEditor([{ type: 'textBlock', uid: 't', version: 1, children: [{ text: 'до' }] }, code('x')]);
    jest.spyOn(ReactEditor, 'isFocused').mockReturnValue(true);
    expect(screen.queryByText(hint)).toBeNull();
    await act(async () => {
      ReactEditor.focus(editor);
      Transforms.select(editor, Editor.end(editor, [1]));
    });
    expect(screen.queryByText(hint)).toBeNull();
    await act(async () => void Transforms.select(editor, Editor.end(editor, [2])));
    const shown = screen.getByText(hint);
    expect(shown.closest('[data-block-id="c"]')).not.toBeNull();
    expect(shown.getAttribute('contenteditable')).toBe('false');
    await act(async () => void Transforms.select(editor, Editor.end(editor, [1])));
    expect(screen.queryByText(hint)).toBeNull();
  });

  test('read-only readers never see it', async () => {
    const { editor } = renderEditor([code('x')], { readOnly: true });
    jest.spyOn(ReactEditor, 'isFocused').mockReturnValue(true);
    await act(async () => void Transforms.select(editor, Editor.end(editor, [1])));
    expect(screen.queryByText(hint)).toBeNull();
  });
});

describe('decorateCode', () => {
  test('only code blocks get decorations; plain text gets none', async () => {
    await loadLanguage('typescript');
    expect(decorateCode([{ type: 'textBlock', uid: 't', version: 1, children: [{ text: 'const a = 1' }] }, [1]])).toEqual([]);
    expect(decorateCode([code('const a = 1', 'plain'), [1]])).toEqual([]);
    expect(decorateCode([{ text: 'const' }, [1, 0]])).toEqual([]);
    const ranges = decorateCode([code('const a: number = 1', 'typescript'), [3]]);
    expect(ranges[0]).toEqual({ anchor: { path: [3, 0], offset: 0 }, focus: { path: [3, 0], offset: 5 }, prism: 'token keyword' });
    expect(ranges.some((r) => (r as CodeRange).prism.includes('builtin'))).toBe(true);
  });

  test("the editor's own list is new each time (<Editable> pushes its placeholder decorations into it)", () => {
    const editor = { children: [] } as unknown as Parameters<typeof decorateCode>[0][0];
    const first = decorateCode([editor, []]);
    first.push({ anchor: { path: [0, 0], offset: 0 }, focus: { path: [0, 0], offset: 0 } });
    expect(decorateCode([editor, []])).toEqual([]);
    expect(decorateCode([{ type: 'textBlock', uid: 't', version: 1, children: [{ text: 'a' }] }, [1]])).toEqual([]);
  });

  test('offsets map across several text children', async () => {
    await loadLanguage('javascript');
    const element = { type: 'codeBlock', uid: 'c', version: 1, language: 'javascript', children: [{ text: 'let x' }, { text: ' = "s"' }] } as BlockElement;
    const string = decorateCode([element, [1]]).find((r) => (r as CodeRange).prism === 'token string')!;
    expect(string.anchor).toEqual({ path: [1, 1], offset: 3 });
    expect(string.focus).toEqual({ path: [1, 1], offset: 6 });
  });

  test('nested prism tokens carry the outer classes', () => {
    expect(spansOf(['a', { type: 'outer', alias: 'x', content: ['b', { type: 'inner', content: 'c' }] } as never])).toEqual([
      { start: 1, end: 2, className: 'token outer x' },
      { start: 2, end: 3, className: 'token outer x inner' },
    ]);
  });
});

import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { Editor, Transforms } from 'slate';
import { ReactEditor } from 'slate-react';
import type { BlockElement } from '../../../schema/slate';
import { renderEditor } from '../../../src/editor/blocks/testing';
import { describeFormulaError, formulaErrorText } from './katex';
import katex from 'katex';

const latex = (formula?: string) =>
  ({ type: 'latexBlock', uid: 'l', version: 1, children: [{ text: '' }], ...(formula !== undefined ? { formula } : {}) }) as BlockElement;

describe('latex view', () => {
  test('renders the formula with KaTeX in display mode', async () => {
    const { container } = renderEditor([latex('\\frac{a}{b}')]);
    await waitFor(() => expect(container.querySelector('[data-block-id="l"] .katex-display')).not.toBeNull());
    expect(container.querySelector('[data-block-id="l"] .katex-mathml annotation')!.textContent).toBe('\\frac{a}{b}');
  });

  test('an empty formula shows a placeholder; a wrong one a readable error, not a crash', async () => {
    const { container } = renderEditor([latex(), { ...latex('\\frac{a'), uid: 'bad' } as BlockElement]);
    expect(screen.getByText('Добавьте формулу')).toBeTruthy();
    await waitFor(() => expect(container.querySelector('[data-block-id="bad"] .latex-error')).not.toBeNull());
    expect(container.querySelector('[data-block-id="bad"] .latex-error')!.textContent).toBe('Ошибка в формуле: не хватает закрывающей «}» (в конце формулы)');
  });

  test('click opens a textarea with live preview; Escape saves the formula', async () => {
    const { editor, container } = renderEditor([latex('x')]);
    fireEvent.click(document.querySelector('.latex-view')!);
    const input = screen.getByRole('textbox', { name: 'Формула LaTeX' }) as HTMLTextAreaElement;
    expect(input.value).toBe('x');
    fireEvent.change(input, { target: { value: 'E = mc^2' } });
    await waitFor(() => expect(container.querySelector('[data-block-id="l"] .katex-mathml annotation')!.textContent).toBe('E = mc^2'));
    // Not saved until the field is left.
    expect((editor.children[1] as { formula?: string }).formula).toBe('x');
    await act(async () => void fireEvent.keyDown(input, { key: 'Escape' }));
    expect((editor.children[1] as { formula?: string }).formula).toBe('E = mc^2');
    expect(screen.queryByRole('textbox', { name: 'Формула LaTeX' })).toBeNull();
  });

  test('Ctrl+Enter and leaving the field save too', async () => {
    const { editor } = renderEditor([latex('')]);
    fireEvent.click(document.querySelector('.latex-view')!);
    fireEvent.change(screen.getByRole('textbox', { name: 'Формула LaTeX' }), { target: { value: 'a^2' } });
    await act(async () => void fireEvent.keyDown(screen.getByRole('textbox', { name: 'Формула LaTeX' }), { key: 'Enter', ctrlKey: true }));
    expect((editor.children[1] as { formula?: string }).formula).toBe('a^2');
    fireEvent.click(document.querySelector('.latex-view')!);
    fireEvent.change(screen.getByRole('textbox', { name: 'Формула LaTeX' }), { target: { value: 'b^2' } });
    await act(async () => void fireEvent.blur(screen.getByRole('textbox', { name: 'Формула LaTeX' })));
    expect((editor.children[1] as { formula?: string }).formula).toBe('b^2');
  });

  test('Enter on the selected formula opens it; Enter elsewhere does not', async () => {
    const { editor } = renderEditor([{ type: 'textBlock', uid: 't', version: 1, children: [{ text: 'до' }] }, latex('z')]);
    jest.spyOn(ReactEditor, 'isFocused').mockReturnValue(true);
    await act(async () => {
      ReactEditor.focus(editor);
      Transforms.select(editor, Editor.end(editor, [1]));
    });
    fireEvent.keyDown(document.body, { key: 'Enter' });
    expect(screen.queryByRole('textbox', { name: 'Формула LaTeX' })).toBeNull();
    await act(async () => void Transforms.select(editor, Editor.start(editor, [2])));
    const notCancelled = fireEvent.keyDown(document.body, { key: 'Enter' });
    expect(notCancelled).toBe(false);
    expect((screen.getByRole('textbox', { name: 'Формула LaTeX' }) as HTMLTextAreaElement).value).toBe('z');
    expect(editor.children).toHaveLength(3);
  });

  test('read-only pages show the formula but cannot edit it', async () => {
    const { container } = renderEditor([latex('y')], { readOnly: true });
    await waitFor(() => expect(container.querySelector('.katex')).not.toBeNull());
    fireEvent.click(container.querySelector('.latex-view')!);
    expect(screen.queryByRole('textbox', { name: 'Формула LaTeX' })).toBeNull();
  });
});

describe('formula errors in Russian', () => {
  const message = (formula: string) => {
    try {
      katex.renderToString(formula, { displayMode: true, throwOnError: true, strict: 'ignore' });
    } catch (error) {
      return formulaErrorText(describeFormulaError(error));
    }
    throw new Error(`${formula} rendered`);
  };

  test.each([
    ['a+\\foo', 'Ошибка в формуле: неизвестная команда \\foo (позиция 3)'],
    ['\\frac{a}{b', 'Ошибка в формуле: не хватает закрывающей «}» (в конце формулы)'],
    ['x^{2', 'Ошибка в формуле: не хватает закрывающей «}» (в конце формулы)'],
    ['\\left( x', 'Ошибка в формуле: не хватает закрывающей «\\right» (в конце формулы)'],
    ['\\begin{matrix} a', 'Ошибка в формуле: не хватает закрывающей «\\end» (в конце формулы)'],
    ['a}', 'Ошибка в формуле: лишняя «}» (позиция 2)'],
    ['x^', 'Ошибка в формуле: после «^» не хватает аргумента (позиция 2)'],
    ['a & b', 'Ошибка в формуле: неожиданный символ «&» (позиция 3)'],
    ['a\u0007', 'Ошибка в формуле: неизвестный символ «U+0007» (позиция 2)'],
    ['\\begin{foo}', 'Ошибка в формуле: неизвестное окружение foo (позиция 7)'],
    ['a^b^c', 'Ошибка в формуле: два верхних индекса подряд — возьмите их в скобки {} (позиция 4)'],
  ])('%j: %s', (formula, expected) => {
    expect(message(formula)).toBe(expected);
  });

  test('a message KaTeX has that we do not know reads as a general one, with its position', () => {
    expect(formulaErrorText(describeFormulaError({ rawMessage: 'Something new', position: 4, length: 1 }))).toBe(
      'Ошибка в формуле: не удалось разобрать формулу (позиция 5)',
    );
    expect(formulaErrorText(describeFormulaError(new TypeError('boom')))).toBe('Ошибка в формуле: не удалось разобрать формулу (в конце формулы)');
  });
});

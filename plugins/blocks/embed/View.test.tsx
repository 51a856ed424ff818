import { fireEvent, screen } from '@testing-library/react';
import { embedBlock } from '../../../schema/blocks';
import type { EmbedElement } from '../../../schema/slate';
import { flushEditor, renderEditor, wireBlock } from '../../../src/editor/blocks/testing';

const embedOf = (editor: { children: unknown[] }) => editor.children[1] as EmbedElement;

describe('EmbedView', () => {
  it('embeds an allowed link in a sandboxed, lazy, no-referrer frame', async () => {
    const { editor, container } = renderEditor([wireBlock('e-1', 'embed', { url: null, scale: 1, align: 'center' })]);
    const input = screen.getByLabelText('Ссылка для встраивания');
    fireEvent.change(input, { target: { value: '  https://youtu.be/dQw4w9WgXcQ ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Встроить' }));
    await flushEditor();
    expect(embedOf(editor).url).toBe('https://youtu.be/dQw4w9WgXcQ');
    const frame = container.querySelector('iframe')!;
    expect(frame.getAttribute('src')).toBe('https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ');
    expect(frame.getAttribute('sandbox')).toBe('allow-scripts allow-same-origin allow-popups allow-presentation');
    expect(frame.getAttribute('referrerpolicy')).toBe('no-referrer');
    expect(frame.getAttribute('loading')).toBe('lazy');
    expect(frame.getAttribute('title')).toBe('Встроенное содержимое: youtu.be');
  });

  it('refuses a link that is not http(s) and keeps the block empty', async () => {
    const { editor, container } = renderEditor([wireBlock('e-2', 'embed', { url: null, scale: 1, align: 'center' })]);
    fireEvent.change(screen.getByLabelText('Ссылка для встраивания'), { target: { value: 'javascript:alert(1)' } });
    fireEvent.click(screen.getByRole('button', { name: 'Встроить' }));
    await flushEditor();
    expect(screen.getByRole('alert').textContent).toBe('Нужна ссылка, начинающаяся с http:// или https://');
    expect(embedBlock.toWireData(embedOf(editor)).url).toBeNull();
    expect(container.querySelector('iframe')).toBeNull();
  });

  it('shows any other site as a link card, never a frame', () => {
    const { container } = renderEditor([wireBlock('e-3', 'embed', { url: 'https://example.com/page', scale: 1, align: 'center' })]);
    expect(container.querySelector('iframe')).toBeNull();
    const card = screen.getByRole('link');
    expect(card.getAttribute('href')).toBe('https://example.com/page');
    expect(card.getAttribute('rel')).toContain('noopener');
    expect(card.textContent).toContain('example.com');
    expect(screen.getByText('Этот сайт нельзя встроить, поэтому показана ссылка')).toBeTruthy();
  });

  it('sizes and aligns a frame, and lets the link be changed', async () => {
    const { editor, container } = renderEditor([wireBlock('e-4', 'embed', { url: 'https://vimeo.com/76979871', scale: 0.4, align: 'left' })]);
    expect((container.querySelector('.media-box') as HTMLElement).style.width).toBe('40%');
    expect(container.querySelector('.media-row')!.className).toContain('media-align-left');
    fireEvent.click(screen.getByRole('button', { name: 'По центру' }));
    await flushEditor();
    expect(embedOf(editor).align).toBe('center');
    fireEvent.click(screen.getByRole('button', { name: 'Изменить ссылку' }));
    await flushEditor();
    expect(embedBlock.toWireData(embedOf(editor))).toEqual({ url: null, scale: 0.4, align: 'center' });
    expect(screen.getByLabelText('Ссылка для встраивания')).toBeTruthy();
  });

  it('has no input or toolbar on a read-only page', () => {
    renderEditor(
      [
        wireBlock('e-5', 'embed', { url: null, scale: 1, align: 'center' }),
        wireBlock('e-6', 'embed', { url: 'https://vimeo.com/1', scale: 1, align: 'center' }),
      ],
      { readOnly: true },
    );
    expect(screen.queryByLabelText('Ссылка для встраивания')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Изменить ссылку' })).toBeNull();
    expect(screen.getByText('Встраивание: вставьте ссылку')).toBeTruthy();
  });
});

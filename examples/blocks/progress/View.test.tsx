import { act, fireEvent, render, screen } from '@testing-library/react';
import type { BlockElement } from '../../../schema/slate';
import { installPointerEvents, renderEditor } from '../../../src/editor/blocks/testing';
import { BLOCK_ICONS, BLOCK_VIEWS } from '../../../src/editor/blocks';
import { slashItemIcon } from '../../../src/editor/blockTypeIcons';

const progress = (value: number | undefined, text = 'Перевод') =>
  ({ type: 'progressBlock', uid: 'pr', version: 1, value, children: [{ text }] }) as BlockElement;

describe('the progress view (found by its folder)', () => {
  test('is the view of its element type, and the slash menu shows its own picture', () => {
    expect(BLOCK_VIEWS.progressBlock).toBeDefined();
    expect(BLOCK_ICONS.progress).toBeDefined();
    const picture = render(<>{slashItemIcon('progress')}</>).container.innerHTML;
    expect(picture).toContain('<rect');
    expect(picture).not.toBe(render(<>{slashItemIcon('no-such-type')}</>).container.innerHTML);
  });

  test('draws a slider at its percent and the text beside it', () => {
    const { container } = renderEditor([progress(40)]);
    const root = container.querySelector('[data-block-id="pr"]')!;
    expect(root.classList.contains('block-progress')).toBe(true);
    const slider = screen.getByRole('slider', { name: 'Выполнено, %' });
    expect(slider.getAttribute('aria-valuenow')).toBe('40');
    expect(slider.getAttribute('aria-valuetext')).toBe('40 %');
    expect((root.querySelector('.progress-fill') as HTMLElement).style.width).toBe('40%');
    expect(root.querySelector('.progress-text')!.textContent).toContain('Перевод');
  });

  test('keys move it: → a tenth, Shift+← one percent, End and Home the ends; never past them', async () => {
    const { editor } = renderEditor([progress(40)]);
    const slider = screen.getByRole('slider');
    const value = () => (editor.children[1] as { value?: number }).value;
    await act(async () => void fireEvent.keyDown(slider, { key: 'ArrowRight' }));
    expect(value()).toBe(50);
    await act(async () => void fireEvent.keyDown(slider, { key: 'ArrowLeft', shiftKey: true }));
    expect(value()).toBe(49);
    await act(async () => void fireEvent.keyDown(slider, { key: 'End' }));
    expect(value()).toBe(100);
    await act(async () => void fireEvent.keyDown(slider, { key: 'ArrowRight' }));
    expect(value()).toBe(100);
    await act(async () => void fireEvent.keyDown(slider, { key: 'Home' }));
    expect(value()).toBe(0);
    expect(screen.getByRole('slider').getAttribute('aria-valuenow')).toBe('0');
  });

  test('a click along the bar sets the percent where it lands', async () => {
    installPointerEvents();
    const { editor } = renderEditor([progress(0)]);
    const slider = screen.getByRole('slider');
    slider.getBoundingClientRect = () => ({ left: 100, width: 200, top: 0, height: 8, right: 300, bottom: 8, x: 100, y: 0, toJSON: () => ({}) });
    await act(async () => void fireEvent.pointerDown(slider, { clientX: 250, pointerId: 1 }));
    expect((editor.children[1] as { value?: number }).value).toBe(75);
  });

  test('a block just turned into one shows 0 %, and its empty text a hint', () => {
    const { container } = renderEditor([progress(undefined, '')]);
    expect(screen.getByRole('slider').getAttribute('aria-valuenow')).toBe('0');
    expect(container.querySelector('.progress-text')!.getAttribute('data-placeholder')).toBe('Что выполняется');
  });

  test('read-only: the bar is shown and does not move', async () => {
    const { editor } = renderEditor([progress(30)], { readOnly: true });
    const slider = screen.getByRole('slider');
    expect(slider.getAttribute('aria-readonly')).toBe('true');
    expect(slider.tabIndex).toBe(-1);
    await act(async () => void fireEvent.keyDown(slider, { key: 'End' }));
    expect((editor.children[1] as { value?: number }).value).toBe(30);
  });
});

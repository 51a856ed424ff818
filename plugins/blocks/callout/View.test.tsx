import { act, fireEvent, screen } from '@testing-library/react';
import type { BlockElement } from '../../../schema/slate';
import { renderEditor } from '../../../src/editor/blocks/testing';

describe('callout view', () => {
  test('shows its icon and text in a box; the icon opens a picker that changes it', async () => {
    const { editor, container } = renderEditor([{ type: 'calloutBlock', uid: 'co', version: 1, icon: '💡', children: [{ text: 'Важно' }] } as BlockElement]);
    const root = container.querySelector('[data-block-id="co"]')!;
    expect(root.classList.contains('block-callout')).toBe(true);
    expect(root.querySelector('.callout-content')!.textContent).toContain('Важно');
    const iconButton = screen.getByRole('button', { name: 'Сменить значок' });
    expect(iconButton.textContent).toBe('💡');
    expect(screen.queryByRole('group', { name: 'Значки' })).toBeNull();
    fireEvent.click(iconButton);
    const picker = screen.getByRole('group', { name: 'Значки' });
    expect(picker.querySelectorAll('button')).toHaveLength(12);
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: '🔥' })));
    expect((editor.children[1] as { icon?: string }).icon).toBe('🔥');
    expect(screen.getByRole('button', { name: 'Сменить значок' }).textContent).toBe('🔥');
    expect(screen.queryByRole('group', { name: 'Значки' })).toBeNull();
  });

  test('Escape or a click elsewhere closes the picker; read-only pages cannot open it', () => {
    renderEditor([{ type: 'calloutBlock', uid: 'co', version: 1, children: [{ text: '' }] } as BlockElement]);
    const iconButton = screen.getByRole('button', { name: 'Сменить значок' });
    expect(iconButton.textContent).toBe('💡');
    fireEvent.click(iconButton);
    fireEvent.keyDown(screen.getByRole('button', { name: '⭐' }), { key: 'Escape' });
    expect(screen.queryByRole('group')).toBeNull();
    fireEvent.click(iconButton);
    act(() => void fireEvent.mouseDown(document.body));
    expect(screen.queryByRole('group')).toBeNull();
  });

  test('read-only: the icon is not a live button', () => {
    renderEditor([{ type: 'calloutBlock', uid: 'co', version: 1, icon: '⚠️', children: [{ text: 'x' }] } as BlockElement], { readOnly: true });
    expect((screen.getByRole('button', { name: 'Сменить значок' }) as HTMLButtonElement).disabled).toBe(true);
  });
});

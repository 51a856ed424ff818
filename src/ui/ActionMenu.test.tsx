import { fireEvent, render, screen } from '@testing-library/react';
import { ActionMenu, MenuItem } from './ActionMenu';

function Menu({ onPick, onOpenChange }: { onPick(name: string): void; onOpenChange?(open: boolean): void }) {
  return (
    <ActionMenu label="Действия" trigger="⋯" onOpenChange={onOpenChange}>
      {(close) => (
        <>
          <MenuItem disabled onClick={() => onPick('first')}>
            Недоступно
          </MenuItem>
          {['Копия', 'Переименовать', 'Удалить'].map((name) => (
            <MenuItem
              key={name}
              onClick={() => {
                close();
                onPick(name);
              }}
            >
              {name}
            </MenuItem>
          ))}
        </>
      )}
    </ActionMenu>
  );
}

it('opens under its button with the focus on the first enabled item; ↑/↓ go round; an item closes it', () => {
  const picked: string[] = [];
  const changes: boolean[] = [];
  render(<Menu onPick={(name) => picked.push(name)} onOpenChange={(open) => changes.push(open)} />);
  const button = screen.getByRole('button', { name: 'Действия' });
  expect(button.getAttribute('aria-haspopup')).toBe('menu');
  expect(button.getAttribute('aria-expanded')).toBe('false');
  fireEvent.click(button);
  expect(button.getAttribute('aria-expanded')).toBe('true');
  expect(screen.getByRole('menu', { name: 'Действия' })).toBeTruthy();
  expect(document.activeElement?.textContent).toBe('Копия');
  fireEvent.keyDown(document.activeElement!, { key: 'ArrowUp' });
  expect(document.activeElement?.textContent).toBe('Удалить');
  fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
  expect(document.activeElement?.textContent).toBe('Копия');
  fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
  fireEvent.click(document.activeElement!);
  expect(picked).toEqual(['Переименовать']);
  expect(screen.queryByRole('menu')).toBeNull();
  expect(changes).toEqual([true, false]);
});

it('Escape closes it and gives the focus back to its button', () => {
  render(<Menu onPick={() => undefined} />);
  const button = screen.getByRole('button', { name: 'Действия' });
  fireEvent.click(button);
  fireEvent.keyDown(document, { key: 'Escape' });
  expect(screen.queryByRole('menu')).toBeNull();
  expect(document.activeElement).toBe(button);
});

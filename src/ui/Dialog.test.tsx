import { act, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import '../app/i18n';
import { ActionMenu, MenuItem } from './ActionMenu';
import { Dialog } from './Dialog';
import { openModalCount } from './modal';
import { dismissAllToasts, showToast, Toaster } from './Toast';

const tab = (shift = false) => fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Tab', shiftKey: shift });
const escape = () => fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });
const appRoot = () => document.body.firstElementChild as HTMLElement;

function Screen({ nested = false }: { nested?: boolean }) {
  const [open, setOpen] = useState(false);
  const [inner, setInner] = useState(false);
  return (
    <>
      <button type="button">До</button>
      <button type="button" onClick={() => setOpen(true)}>
        Открыть
      </button>
      {open && (
        <Dialog title="Настройки" onClose={() => setOpen(false)} footer={<button type="button">Готово</button>}>
          <input aria-label="Название" />
          <button type="button" disabled>
            Недоступно
          </button>
          {nested && (
            <button type="button" onClick={() => setInner(true)}>
              Вложенный
            </button>
          )}
          {inner && (
            <Dialog title="Вопрос" onClose={() => setInner(false)}>
              <button type="button">Да</button>
            </Dialog>
          )}
        </Dialog>
      )}
    </>
  );
}

afterEach(() => expect(openModalCount()).toBe(0));

it('takes the focus to its first field; Tab and Shift+Tab go round its own controls, never out', () => {
  render(<Screen />);
  screen.getByRole('button', { name: 'Открыть' }).focus();
  fireEvent.click(screen.getByRole('button', { name: 'Открыть' }));
  const dialog = screen.getByRole('dialog', { name: 'Настройки' });
  expect(document.activeElement).toBe(screen.getByLabelText('Название'));
  const done = screen.getByRole('button', { name: 'Готово' });
  const close = screen.getByRole('button', { name: 'Закрыть' });
  done.focus();
  tab();
  expect(document.activeElement).toBe(close);
  tab(true);
  expect(document.activeElement).toBe(done);
  // From anywhere outside (the body, after a click on nothing) Tab comes back in.
  (document.activeElement as HTMLElement).blur();
  tab();
  expect(document.activeElement).toBe(close);
  for (let i = 0; i < 7; i++) {
    tab(i % 2 === 0);
    expect(dialog.contains(document.activeElement)).toBe(true);
  }
  escape();
});

it('makes the page behind inert while open, and gives the focus back to its opener however it closes', () => {
  render(<Screen />);
  const opener = screen.getByRole('button', { name: 'Открыть' });
  const ways: [string, () => void][] = [
    ['Escape', escape],
    ['the close button', () => fireEvent.click(screen.getByRole('button', { name: 'Закрыть' }))],
    ['the backdrop', () => fireEvent.mouseDown(document.querySelector('.dialog-backdrop')!)],
  ];
  for (const [, close] of ways) {
    opener.focus();
    fireEvent.click(opener);
    expect(appRoot().hasAttribute('inert')).toBe(true);
    expect(document.querySelector('.dialog-backdrop')?.hasAttribute('inert')).toBe(false);
    close();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(appRoot().hasAttribute('inert')).toBe(false);
    expect(document.activeElement).toBe(opener);
  }
});

it('nested: only the innermost is live; Escape closes it alone and the focus goes back into the outer one', () => {
  render(<Screen nested />);
  fireEvent.click(screen.getByRole('button', { name: 'Открыть' }));
  const outer = document.querySelector('.dialog-backdrop')!;
  const nestedOpener = screen.getByRole('button', { name: 'Вложенный' });
  nestedOpener.focus();
  fireEvent.click(nestedOpener);
  const backdrops = document.querySelectorAll('.dialog-backdrop');
  expect(backdrops).toHaveLength(2);
  expect(outer.hasAttribute('inert')).toBe(true);
  expect(backdrops[1].hasAttribute('inert')).toBe(false);
  const yes = screen.getByRole('button', { name: 'Да' });
  expect(backdrops[1].contains(document.activeElement)).toBe(true);
  yes.focus();
  tab();
  expect(document.activeElement?.getAttribute('aria-label')).toBe('Закрыть');
  expect(backdrops[1].contains(document.activeElement)).toBe(true);
  tab(true);
  expect(document.activeElement).toBe(yes);
  escape();
  expect(document.querySelectorAll('.dialog-backdrop')).toHaveLength(1);
  expect(outer.hasAttribute('inert')).toBe(false);
  expect(appRoot().hasAttribute('inert')).toBe(true);
  expect(document.activeElement).toBe(nestedOpener);
  escape();
  expect(appRoot().hasAttribute('inert')).toBe(false);
});

it('opened from a menu item that goes with the menu: the focus goes back to the menu’s button', () => {
  function MenuScreen() {
    const [open, setOpen] = useState(false);
    return (
      <>
        <ActionMenu label="Действия" trigger="⋯">
          {(close) => (
            <MenuItem
              onClick={() => {
                close();
                setOpen(true);
              }}
            >
              История
            </MenuItem>
          )}
        </ActionMenu>
        {open && (
          <Dialog title="История" onClose={() => setOpen(false)}>
            <button type="button">Вернуть</button>
          </Dialog>
        )}
      </>
    );
  }
  render(<MenuScreen />);
  const menuButton = screen.getByRole('button', { name: 'Действия' });
  fireEvent.click(menuButton);
  const item = screen.getByRole('menuitem', { name: 'История' });
  item.focus();
  fireEvent.click(item);
  expect(screen.queryByRole('menu')).toBeNull();
  expect(screen.getByRole('dialog', { name: 'История' })).toBeTruthy();
  escape();
  expect(document.activeElement).toBe(menuButton);
});

it('a popover closed with Escape gives the focus back to its button', () => {
  render(
    <ActionMenu label="Действия" trigger="⋯">
      {() => <MenuItem onClick={() => undefined}>Копия</MenuItem>}
    </ActionMenu>,
  );
  const button = screen.getByRole('button', { name: 'Действия' });
  fireEvent.click(button);
  expect(document.activeElement?.textContent).toBe('Копия');
  escape();
  expect(screen.queryByRole('menu')).toBeNull();
  expect(document.activeElement).toBe(button);
});

describe('toasts', () => {
  afterEach(() => act(() => dismissAllToasts()));

  it('come in live regions that are there before them: errors assertive with role alert, the rest polite with role status', () => {
    render(<Toaster />);
    const regions = [...document.querySelectorAll('[aria-live]')];
    expect(regions.map((region) => [region.getAttribute('aria-live'), region.childElementCount])).toEqual([
      ['assertive', 0],
      ['polite', 0],
    ]);
    act(() => {
      showToast('Ссылка скопирована');
      showToast('Не удалось сохранить', 'error');
    });
    expect(screen.getByRole('alert').textContent).toBe('Не удалось сохранить');
    expect(regions[0].contains(screen.getByRole('alert'))).toBe(true);
    expect(screen.getByRole('status').textContent).toBe('Ссылка скопирована');
    expect(regions[1].contains(screen.getByRole('status'))).toBe(true);
  });

  it('are not silenced by a modal: the toaster stays outside what a dialog makes inert', () => {
    render(
      <>
        <Screen />
        <Toaster />
      </>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Открыть' }));
    act(() => showToast('Не удалось сохранить', 'error'));
    expect(appRoot().hasAttribute('inert')).toBe(true);
    expect(screen.getByRole('alert').closest('[inert]')).toBeNull();
    escape();
  });
});

it('a menu closed by choosing an item gives the focus back to its button, not to the body', () => {
  render(
    <ActionMenu label="Действия" trigger="⋯">
      {(close) => <MenuItem onClick={close}>Копия</MenuItem>}
    </ActionMenu>,
  );
  const button = screen.getByRole('button', { name: 'Действия' });
  fireEvent.click(button);
  const item = screen.getByRole('menuitem', { name: 'Копия' });
  expect(document.activeElement).toBe(item);
  fireEvent.click(item);
  expect(screen.queryByRole('menu')).toBeNull();
  expect(document.activeElement).toBe(button);
});

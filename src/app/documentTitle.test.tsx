import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { Provider } from 'react-redux';
import './i18n';
import { createStore } from './store';
import { useDocumentTitle } from './documentTitle';
import { Dialog } from '../ui/Dialog';
import { ErrorScreen } from '../ui/ErrorScreen';

function Named({ screen: name }: { screen: string | undefined }) {
  useDocumentTitle(name);
  return null;
}

it('names the screen, then the product («Поиск — Страницы»); the product alone where no screen is named', () => {
  const { rerender, unmount } = render(<Named screen="Поиск" />);
  expect(document.title).toBe('Поиск — Страницы');
  rerender(<Named screen={undefined} />);
  expect(document.title).toBe('Страницы');
  unmount();
});

it('a dialog that is a screen names itself over the page, which takes the title back — renamed meanwhile too', () => {
  const Page = ({ title, trash }: { title: string; trash: boolean }) => (
    <>
      <Named screen={title} />
      {trash && (
        <Dialog title="Корзина" onClose={() => undefined} namesScreen>
          <button type="button">Восстановить</button>
        </Dialog>
      )}
      {trash && (
        <Dialog title="Просто вопрос" onClose={() => undefined}>
          <button type="button">Да</button>
        </Dialog>
      )}
    </>
  );
  const { rerender, unmount } = render(<Page title="Планы" trash={false} />);
  expect(document.title).toBe('Планы — Страницы');
  rerender(<Page title="Планы" trash />);
  expect(document.title).toBe('Корзина — Страницы');
  rerender(<Page title="Планы на год" trash />);
  expect(document.title).toBe('Корзина — Страницы');
  rerender(<Page title="Планы на год" trash={false} />);
  expect(document.title).toBe('Планы на год — Страницы');
  unmount();
});

it('error screens name what went wrong', () => {
  render(
    <Provider store={createStore()}>
      <MemoryRouter>
        <ErrorScreen kind="notFound" />
      </MemoryRouter>
    </Provider>,
  );
  expect(screen.getByRole('heading', { name: 'Страница не найдена' })).toBeTruthy();
  expect(document.title).toBe('Страница не найдена — Страницы');
});

import { act, fireEvent, render, screen } from '@testing-library/react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes, useNavigate } from 'react-router-dom';
import '../app/i18n';
import { ApiRequestError } from '../app/api';
import { createStore } from '../app/store';
import { ErrorBoundary, ErrorBoundaryConfigError, RouteErrorBoundary, type Fallback } from './ErrorBoundary';
import { DefaultFallback } from './ErrorScreen';

/*
 * The error boundary (spec §8): a default fallback showing the error's text as plain text; a
 * boundary made without a fallback raises a configuration error; the app's wrapper around the
 * routes shows the error screen a failure calls for and resets when the route changes (spec §2).
 */

let errors: unknown[][];
beforeEach(() => {
  errors = [];
  // React logs every error a boundary catches; the boundary reports it (console.error) too.
  jest.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void errors.push(args));
  // An expected API failure (a 404, a 401) thrown by a screen is reported as info.
  jest.spyOn(console, 'info').mockImplementation(() => undefined);
});
afterEach(() => jest.restoreAllMocks());

function Throws({ error }: { error: unknown }): never {
  throw error;
}

const reports = (kind: string) => errors.filter((args) => typeof args[0] === 'string' && args[0].startsWith(`${kind}: `));

describe('ErrorBoundary', () => {
  it('shows the fallback with what a child threw, and reports it (render)', () => {
    const error = new Error('the table broke');
    render(
      <ErrorBoundary fallback={(e) => <p>caught: {(e as Error).message}</p>}>
        <Throws error={error} />
      </ErrorBoundary>,
    );
    expect(screen.getByText('caught: the table broke')).toBeTruthy();
    const [report] = reports('render');
    expect(report[0]).toBe('render: the table broke');
    expect(report[1]).toMatchObject({ error, componentStack: expect.stringContaining('at ErrorBoundary') });
  });

  it('the default fallback shows the error’s text as plain text: markup stays text, line breaks stay', () => {
    render(
      <ErrorBoundary fallback={(e) => <DefaultFallback error={e} />}>
        <Throws error={new Error('<b>bold</b> & <img src=x onerror=alert(1)>\nsecond line')} />
      </ErrorBoundary>,
    );
    const shown = document.querySelector('pre.error-text');
    expect(shown?.textContent).toBe('<b>bold</b> & <img src=x onerror=alert(1)>\nsecond line');
    expect(shown?.children).toHaveLength(0);
    expect(document.querySelector('b, img')).toBeNull();
  });

  it('the default fallback of something thrown that is no Error: the thing as text', () => {
    render(
      <ErrorBoundary fallback={(e) => <DefaultFallback error={e} />}>
        <Throws error="plain words" />
      </ErrorBoundary>,
    );
    expect(document.querySelector('pre.error-text')?.textContent).toBe('plain words');
  });

  it('a boundary without a fallback raises ErrorBoundaryConfigError at its first render, to the boundary above it', () => {
    let caught: unknown = null;
    const outer: Fallback = (e) => {
      caught = e;
      return <p>outer</p>;
    };
    const NoFallback = ErrorBoundary as unknown as (props: { children: React.ReactNode }) => React.ReactNode;
    render(
      <ErrorBoundary fallback={outer}>
        <NoFallback>
          <p>healthy child</p>
        </NoFallback>
      </ErrorBoundary>,
    );
    // Raised although nothing below it threw: the misconfiguration shows at once, not at the first failure.
    expect(caught).toBeInstanceOf(ErrorBoundaryConfigError);
    expect((caught as Error).message).toMatch(/needs a fallback/);
    expect(screen.queryByText('healthy child')).toBeNull();
    expect(screen.getByText('outer')).toBeTruthy();
  });

  it('with no boundary above it, the configuration error leaves the React root (thrown out of rendering): nothing is drawn', async () => {
    const container = document.createElement('div');
    const root = createRoot(container);
    const NoFallback = ErrorBoundary as unknown as (props: { children: React.ReactNode }) => React.ReactNode;
    let thrown: unknown = null;
    try {
      await act(async () =>
        root.render(
          <NoFallback>
            <p>healthy child</p>
          </NoFallback>,
        ),
      );
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ErrorBoundaryConfigError);
    expect(container.textContent).toBe('');
    root.unmount();
  });
});

describe('RouteErrorBoundary: the wrapper around the routes', () => {
  /** A path per failure; the link bar sits outside the wrapper, as the browser's address does. */
  function mount(path: string, failures: Record<string, unknown>) {
    function Nav() {
      const navigate = useNavigate();
      return (
        <nav>
          {['/fine', ...Object.keys(failures)].map((to) => (
            <button key={to} type="button" onClick={() => navigate(to)}>
              go {to}
            </button>
          ))}
        </nav>
      );
    }
    return render(
      <Provider store={createStore()}>
        <MemoryRouter initialEntries={[path]}>
          <Nav />
          <RouteErrorBoundary>
            <Routes>
              <Route path="/fine" element={<p>a fine screen</p>} />
              {Object.entries(failures).map(([to, error]) => (
                <Route key={to} path={to} element={<Throws error={error} />} />
              ))}
            </Routes>
          </RouteErrorBoundary>
        </MemoryRouter>
      </Provider>,
    );
  }

  it('a screen that throws shows «Что-то пошло не так» with the error’s text; another route clears it', () => {
    mount('/broken', { '/broken': new TypeError("Cannot read properties of undefined (reading 'title')"), '/other': new Error('other') });
    expect(screen.getByRole('heading', { name: 'Что-то пошло не так' })).toBeTruthy();
    expect(screen.getByText('Попробуйте обновить страницу')).toBeTruthy();
    expect(document.querySelector('pre.error-text')?.textContent).toBe("Cannot read properties of undefined (reading 'title')");
    fireEvent.click(screen.getByRole('button', { name: 'go /fine' }));
    expect(screen.getByText('a fine screen')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    // And a route that throws again shows its own error, not the last one.
    fireEvent.click(screen.getByRole('button', { name: 'go /other' }));
    expect(document.querySelector('pre.error-text')?.textContent).toBe('other');
  });

  it.each([
    ['a 404', new ApiRequestError(404, 'not_found', 'no page'), 'Страница не найдена'],
    ['a 400 (an address naming no page)', new ApiRequestError(400, 'bad_request', 'not an id'), 'Страница не найдена'],
    ['a 410', new ApiRequestError(410, undefined, 'gone'), 'Страница не найдена'],
    ['a 401', new ApiRequestError(401, 'unauthorized', 'signed out'), 'Нужно войти'],
    ['a 403 outside a page load', new ApiRequestError(403, 'forbidden', 'no'), 'Что-то пошло не так'],
    ['a 500', new ApiRequestError(500, 'internal_error', 'failed'), 'Что-то пошло не так'],
    ['a call that never reached the server', new ApiRequestError(undefined, undefined, 'Failed to fetch'), 'Нет связи с сервером'],
    ['a screen whose code did not load', new TypeError('Failed to fetch dynamically imported module: /assets/PageScreen-x1.js'), 'Нет связи с сервером'],
  ])('%s thrown by a screen shows «%s»', (_what, error, title) => {
    mount('/broken', { '/broken': error });
    expect(screen.getByRole('heading', { name: title })).toBeTruthy();
    // The error's text only on «something went wrong».
    expect(document.querySelector('pre.error-text') !== null).toBe(title === 'Что-то пошло не так');
  });
});

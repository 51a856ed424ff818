import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import '@fontsource/inter/400.css';
import '@fontsource/inter/500.css';
import '@fontsource/inter/600.css';
import '@fontsource/inter/700.css';
import './ui/theme.css';
import { App, PageScreen, SearchScreen } from './app/App';
import { createStore } from './app/store';
import { applyTheme } from './app/theme';
import { offerReloadOnNewWorker, registerServiceWorker } from './app/serviceWorker';
import { loadTranslations } from './app/translations';
import { prefetchPage } from './features/pages/pageLoad';
import { startGets } from './app/earlyStart';
import { prefetchGet } from './app/api';
import { loadCurrentUser } from './features/auth/authSlice';
import { loadWorkspaces } from './features/workspaces/workspacesSlice';
import { reportError } from './app/report';

// When the app's code has come and starts (test/e2e/pageOpen.e2e.test.ts compares the early requests with it).
performance.mark('app:start');
applyTheme();

// The words come first (fetched, not bundled; see src/app/translations.ts): nothing is drawn
// without them, so they are asked for before anything else (a browser opens six connections to
// a host at a time; what is asked for first goes first).
const words = loadTranslations();

// A page's address: its top and its screen's code are asked for now, alongside the words and
// the user, not after the shell has drawn (docs/web-app.md, «Opening a page»).
// In a build, index.html's early script has asked for all of these while the HTML was read
// (src/app/earlyStart.ts); the requests here take its answers.
const start = startGets(window.location.pathname);
const startPage = start.page;
if (startPage) prefetchPage(startPage);
// The shell's first questions (who is signed in, their workspaces and settings) too. Their
// answers go into the store as they come, so the first drawing is already the shell.
const store = createStore();
offerReloadOnNewWorker();
if (start.shellGets.length > 0) {
  for (const path of start.shellGets) prefetchGet(path);
  void store.dispatch(loadCurrentUser()).then(() => {
    const { auth, workspaces } = store.getState();
    if (auth.status === 'signedIn' && workspaces.status === 'idle') void store.dispatch(loadWorkspaces());
  });
}
// The page screen's code: the first drawing waits for it too (it comes with the words). Drawn
// before it is there, the screen would suspend, and React shows a suspended screen no sooner than
// 300 ms after its spinner.
const screenCode = startPage
  ? PageScreen.preload().catch(() => undefined)
  : /^\/search\/?$/.test(window.location.pathname)
    ? SearchScreen.preload().catch(() => undefined)
    : null;

const container = document.getElementById('root') as HTMLElement;

function render() {
  // A data router (for useBlocker: the editor's LeaveGuard); the app's own <Routes> sit under one splat route.
  const router = createBrowserRouter([{ path: '*', element: <App /> }]);
  createRoot(container).render(
    <StrictMode>
      <Provider store={store}>
        <RouterProvider router={router} />
      </Provider>
    </StrictMode>,
  );
}

// Without the words, and without a cached copy, there is nothing to show but this (the one
// string outside the files).
words.then(
  async () => {
    await screenCode;
    render();
    void registerServiceWorker().catch((error: unknown) => reportError('serviceWorker', { message: 'not registered', error }));
  },
  () => {
    container.innerHTML = '<p class="boot-failed">Нет связи с сервером. <a href="">Обновить страницу</a></p>';
  },
);

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import '@fontsource/inter/400.css';
import '@fontsource/inter/500.css';
import '@fontsource/inter/600.css';
import '@fontsource/inter/700.css';
import './ui/theme.css';
import { App } from './app/App';
import { createStore } from './app/store';
import { applyTheme } from './app/theme';
import { registerServiceWorker } from './app/serviceWorker';
import { loadTranslations } from './app/translations';

applyTheme();

const container = document.getElementById('root') as HTMLElement;

function render() {
  // A data router (for useBlocker: the editor's LeaveGuard); the app's own <Routes> sit under one splat route.
  const router = createBrowserRouter([{ path: '*', element: <App /> }]);
  createRoot(container).render(
    <StrictMode>
      <Provider store={createStore()}>
        <RouterProvider router={router} />
      </Provider>
    </StrictMode>,
  );
}

// The words come first (fetched, not bundled; see src/app/translations.ts). Without them, and
// without a cached copy, there is nothing to show but this (the one string outside the files).
loadTranslations().then(() => {
  render();
  void registerServiceWorker().catch((error: unknown) => console.warn('service worker not registered', error));
}, () => {
  container.innerHTML = '<p class="boot-failed">Нет связи с сервером. <a href="">Обновить страницу</a></p>';
});

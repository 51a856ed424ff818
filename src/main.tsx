import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import '@fontsource/inter/400.css';
import '@fontsource/inter/500.css';
import '@fontsource/inter/600.css';
import '@fontsource/inter/700.css';
import './ui/theme.css';
import './app/i18n';
import { App } from './app/App';
import { createStore } from './app/store';
import { applyTheme } from './app/theme';

applyTheme();

// A data router (for useBlocker: the editor's LeaveGuard); the app's own <Routes> sit under one splat route.
const router = createBrowserRouter([{ path: '*', element: <App /> }]);

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <Provider store={createStore()}>
      <RouterProvider router={router} />
    </Provider>
  </StrictMode>,
);

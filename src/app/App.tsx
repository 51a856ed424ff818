import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router-dom';
import { VERSION_LABEL } from '../../schema/constants';
import { LoginPage } from '../features/auth/LoginPage';
import { AppShell } from '../features/pages/AppShell';
import { HomeIndex } from '../features/pages/HomeIndex';
import { ErrorBoundary } from '../ui/ErrorBoundary';
import { Spinner } from '../ui/Spinner';

const PageScreen = lazy(() => import('../features/pages/PageScreen'));

/** Routes: home, a page by uid, /login, /version; anything else goes home. */
export function App() {
  const location = useLocation();
  return (
    <ErrorBoundary resetKey={location.pathname}>
      <Suspense fallback={<Spinner />}>
        <Routes>
          <Route path="/login" element={<LoginPage />} />
          <Route path="/version" element={<pre>{VERSION_LABEL}</pre>} />
          <Route element={<AppShell />}>
            <Route index element={<HomeIndex />} />
            <Route path=":pageUid" element={<PageScreen />} />
          </Route>
          <Route path="*" element={<Navigate to="/" replace />} />
        </Routes>
      </Suspense>
    </ErrorBoundary>
  );
}

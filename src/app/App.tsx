import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes, useLocation, useMatch, useParams } from 'react-router-dom';
import { VERSION_LABEL } from '../../schema/constants';
import { LoginPage } from '../features/auth/LoginPage';
import { OAuthCallback } from '../features/auth/OAuthCallback';
import { AppShell } from '../features/shell/AppShell';
import { HomeIndex } from '../features/shell/HomeIndex';
import { RouteErrorBoundary } from '../ui/ErrorBoundary';
import { Spinner } from '../ui/Spinner';
import { Toaster } from '../ui/Toast';
import { TrashHost } from '../features/trash/TrashDialog';
import { CloneScreen } from '../features/public/CloneScreen';
import { useAppSelector } from './store';
import { RealtimeProvider } from './RealtimeProvider';
import { preloadable } from './preloadable';
import { useServerTopLeft } from './serverTop';

/** Asked for at start when the address is a page's (src/main.tsx). */
export const PageScreen = preloadable(() => import('../features/shell/PageScreen'));
const WizardScreen = lazy(() => import('../features/wizard/WizardScreen'));
/** Asked for at start on the search screen's address (src/main.tsx). */
export const SearchScreen = preloadable(() => import('../features/search/SearchScreen'));
const PublicPageScreen = lazy(() => import('../features/public/PublicPageScreen').then((m) => ({ default: m.PublicPageScreen })));
/** /form/:databaseId/:viewId: a database's form to fill in, signed in or not (its own chunk: none of the database's views). */
const FormScreen = lazy(() => import('../features/database/form/FormScreen'));

/** /public/:pageId: a published page, for anyone. */
function PublicRoute() {
  const { pageId = '' } = useParams();
  return <PublicPageScreen key={pageId} pageId={pageId} />;
}

/** The signed-in frame; a signed-out visitor of a page link sees the page's public view instead of the login screen. */
function ShellOrPublic() {
  const status = useAppSelector((state) => state.auth.status);
  const match = useMatch('/:pageUid');
  if (status === 'signedOut' && match?.params.pageUid) return <PublicPageScreen key={match.params.pageUid} pageId={match.params.pageUid} loginIfPrivate />;
  return <AppShell />;
}

/** Routes: home, a page by uid, /login, /version, a published page, a form; anything else goes home. */
export function App() {
  const location = useLocation();
  useServerTopLeft(location.pathname);
  return (
    <RouteErrorBoundary>
      <RealtimeProvider>
        <Suspense fallback={<Spinner />}>
          <Routes>
            <Route path="/login" element={<LoginPage />} />
            <Route path="/oauth/callback" element={<OAuthCallback />} />
            <Route path="/version" element={<pre>{VERSION_LABEL}</pre>} />
            <Route path="/public/:pageId" element={<PublicRoute />} />
            <Route path="/form/:databaseId/:viewId" element={<FormScreen />} />
            <Route element={<ShellOrPublic />}>
              <Route index element={<HomeIndex />} />
              <Route path="clone/:uidToClone" element={<CloneScreen />} />
              <Route path="new-workspace" element={<WizardScreen />} />
              <Route path="search" element={<SearchScreen />} />
              <Route path=":pageUid" element={<PageScreen />} />
            </Route>
            <Route path="*" element={<Navigate to="/" replace />} />
          </Routes>
        </Suspense>
        <TrashHost />
        <Toaster />
      </RealtimeProvider>
    </RouteErrorBoundary>
  );
}

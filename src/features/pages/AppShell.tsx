import { useEffect } from 'react';
import { Navigate, Outlet } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../app/store';
import { ErrorScreen } from '../../ui/ErrorScreen';
import { Spinner } from '../../ui/Spinner';
import { loadCurrentUser } from '../auth/authSlice';
import { loadWorkspaces } from '../workspaces/workspacesSlice';
import { Sidebar } from './Sidebar';
import './shell.css';

/** The signed-in frame: sidebar on the left, the routed screen on the right. */
export function AppShell() {
  const dispatch = useAppDispatch();
  const authStatus = useAppSelector((state) => state.auth.status);
  const workspacesStatus = useAppSelector((state) => state.workspaces.status);

  useEffect(() => {
    if (authStatus === 'unknown') void dispatch(loadCurrentUser());
    if (authStatus === 'signedIn' && workspacesStatus === 'idle') void dispatch(loadWorkspaces());
  }, [authStatus, workspacesStatus, dispatch]);

  if (authStatus === 'signedOut') return <Navigate to="/login" replace />;
  if (workspacesStatus === 'failed') return <ErrorScreen kind="network" />;
  if (authStatus === 'unknown' || workspacesStatus !== 'ready') return <Spinner />;
  return (
    <div className="shell">
      <Sidebar />
      <main className="shell-main">
        <Outlet />
      </main>
    </div>
  );
}

import i18next from 'i18next';
import { showToast } from '../ui/Toast';
import { loadAppConfig } from './appConfig';

/**
 * Registers /sw.js (server/web/serviceWorker.js: the app shell for offline use) in production
 * builds, on the installation's own host only (spec: on other hosts it is off). When a deploy
 * brings a new worker while the app is open, it offers to reload (it never reloads by itself:
 * the editor may hold unsent edits; LeaveGuard asks before leaving).
 */
export async function registerServiceWorker(): Promise<void> {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const { defaultHost } = await loadAppConfig();
  if (!defaultHost || window.location.host !== defaultHost) return;
  const hadController = navigator.serviceWorker.controller !== null;
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (!hadController) return;
    showToast(i18next.t('app.updated'), 'info', Infinity, { label: i18next.t('app.reload'), run: () => window.location.reload() });
  });
  await navigator.serviceWorker.register('/sw.js', { scope: '/' });
}

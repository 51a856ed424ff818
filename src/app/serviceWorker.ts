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
  await navigator.serviceWorker.register('/sw.js', { scope: '/' });
}

/**
 * Offers the reload when a new worker takes over this tab. Called as the app boots, before
 * anything is awaited: the browser looks for a new worker as the page loads, and a deploy's
 * worker may take control while the app is still reading its config and drawing — a listener
 * added after that (as it once was) missed it, and no reload was offered. A tab no worker
 * controlled is not told (its first worker taking over changes nothing it runs).
 */
export function offerReloadOnNewWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const hadController = navigator.serviceWorker.controller !== null;
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (!hadController) return;
    showToast(i18next.t('app.updated'), 'info', Infinity, { label: i18next.t('app.reload'), run: () => window.location.reload() });
  });
}

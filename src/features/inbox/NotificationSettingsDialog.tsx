import { useEffect, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { wireNotificationSettingsSchema, type NotificationSettings } from '../../../schema/notification';
import { api } from '../../app/api';
import { errorMessage, type FeatureMessages } from '../../app/errors';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import './inbox.css';

/* Which page's settings dialog is open (the page menu opens it; the shell's inbox host shows it). */
let openFor: string | null = null;
const listeners = new Set<() => void>();
const set = (id: string | null) => {
  openFor = id;
  listeners.forEach((listener) => listener());
};

/** Opens «Уведомления» for a page. */
export function openNotificationSettings(pageId: string): void {
  set(pageId);
}

export function closeNotificationSettings(): void {
  set(null);
}

function useOpenFor(): string | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => openFor,
    () => openFor,
  );
}

export function NotificationSettingsHost() {
  const pageId = useOpenFor();
  return pageId ? <NotificationSettingsDialog key={pageId} pageId={pageId} onClose={closeNotificationSettings} /> : null;
}

const KINDS: (keyof NotificationSettings)[] = ['mentions', 'replies', 'comments', 'reactions'];

const SETTINGS_MESSAGES: FeatureMessages = {
  network: 'inbox.errors.network',
  forbidden: 'inbox.settings.errors.forbidden',
  not_found: 'inbox.settings.errors.notFound',
  generic: 'inbox.settings.errors.generic',
};

function settingsError(t: (key: string) => string, error: unknown): string {
  return errorMessage(t, error, SETTINGS_MESSAGES);
}

type Load = { status: 'loading' } | { status: 'ready'; settings: NotificationSettings } | { status: 'failed'; message: string };

/** «Уведомления»: which notifications about this page the user gets (GET/POST …/notifications/{pageId}/settings). */
export function NotificationSettingsDialog({ pageId, onClose }: { pageId: string; onClose(): void }) {
  const { t } = useTranslation();
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const [saving, setSaving] = useState<keyof NotificationSettings | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const path = `/api/v3/spaces/notifications/${encodeURIComponent(pageId)}/settings`;

  useEffect(() => {
    const controller = new AbortController();
    api<unknown>(path, { signal: controller.signal })
      .then(({ data }) => setLoad({ status: 'ready', settings: wireNotificationSettingsSchema.parse(data).settings }))
      .catch((e: unknown) => !controller.signal.aborted && setLoad({ status: 'failed', message: settingsError(t, e) }));
    return () => controller.abort();
  }, [path, t, attempt]);

  // Each switch is saved at once; a refusal puts it back and says why.
  const toggle = async (kind: keyof NotificationSettings) => {
    if (load.status !== 'ready' || saving) return;
    const before = load.settings;
    const value = !before[kind];
    setError(null);
    setSaving(kind);
    setLoad({ status: 'ready', settings: { ...before, [kind]: value } });
    try {
      const { data } = await api<unknown>(path, { method: 'POST', body: { contentType: 'ElementNotificationSettings', settings: { [kind]: value } } });
      setLoad({ status: 'ready', settings: wireNotificationSettingsSchema.parse(data).settings });
    } catch (e) {
      setLoad({ status: 'ready', settings: before });
      setError(settingsError(t, e));
    } finally {
      setSaving(null);
    }
  };

  return (
    <Dialog
      title={t('inbox.settings.title')}
      onClose={onClose}
      className="dialog-small notification-settings"
      footer={
        <Button kind="solid" size="s" onClick={onClose}>
          {t('inbox.settings.done')}
        </Button>
      }
    >
      <p className="notification-settings-intro">{t('inbox.settings.intro')}</p>
      {load.status === 'loading' && <p className="notification-settings-note">{t('inbox.loading')}</p>}
      {load.status === 'failed' && (
        <div className="notification-settings-note" role="alert">
          <p>{load.message}</p>
          <Button kind="outline" size="s" onClick={() => (setLoad({ status: 'loading' }), setAttempt((n) => n + 1))}>
            {t('inbox.retry')}
          </Button>
        </div>
      )}
      {load.status === 'ready' && (
        <ul className="notification-settings-list">
          {KINDS.map((kind) => (
            <li key={kind} className="notification-settings-row">
              <label className="notification-settings-label" htmlFor={`notify-${kind}`}>
                <span className="notification-settings-name">{t(`inbox.settings.${kind}`)}</span>
                <span className="notification-settings-hint">{t(`inbox.settings.${kind}Hint`)}</span>
              </label>
              <button
                id={`notify-${kind}`}
                type="button"
                role="switch"
                aria-checked={load.settings[kind]}
                className="inbox-switch"
                disabled={saving !== null}
                onClick={() => void toggle(kind)}
              >
                <span className="inbox-switch-knob" />
              </button>
            </li>
          ))}
        </ul>
      )}
      {error && (
        <p className="notification-settings-error" role="alert">
          {error}
        </p>
      )}
    </Dialog>
  );
}

import { useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import type { NotificationSettings } from '../../../schema/notification';
import { errorMessage, type FeatureMessages } from '../../app/errors';
import { useNotificationSettingsQuery, useSetNotificationSettingMutation } from '../../app/serverApi';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import './inbox.css';
import { Switch } from '../../ui/Switch';

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

/** «Уведомления»: which notifications about this page the user gets (GET/POST …/notifications/{pageId}/settings). */
export function NotificationSettingsDialog({ pageId, onClose }: { pageId: string; onClose(): void }) {
  const { t } = useTranslation();
  const load = useNotificationSettingsQuery(pageId, { refetchOnMountOrArgChange: true });
  const [save, saving] = useSetNotificationSettingMutation();
  const [error, setError] = useState<string | null>(null);
  const settings = load.data;

  // Each switch is saved at once (and shown at once: the cache is changed ahead); a refusal puts it back and says why.
  const toggle = async (kind: keyof NotificationSettings) => {
    if (!settings || saving.isLoading) return;
    setError(null);
    try {
      await save({ pageId, kind, value: !settings[kind] }).unwrap();
    } catch (e) {
      setError(settingsError(t, e));
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
      {load.isFetching && !settings && <p className="notification-settings-note">{t('inbox.loading')}</p>}
      {load.isError && !load.isFetching && (
        <div className="notification-settings-note" role="alert">
          <p>{settingsError(t, load.error)}</p>
          <Button kind="outline" size="s" onClick={() => void load.refetch()}>
            {t('inbox.retry')}
          </Button>
        </div>
      )}
      {settings && !load.isError && (
        <ul className="notification-settings-list">
          {KINDS.map((kind) => (
            <li key={kind} className="notification-settings-row">
              <label className="notification-settings-label" htmlFor={`notify-${kind}`}>
                <span className="notification-settings-name">{t(`inbox.settings.${kind}`)}</span>
                <span className="notification-settings-hint">{t(`inbox.settings.${kind}Hint`)}</span>
              </label>
              <Switch id={`notify-${kind}`} checked={settings[kind]} disabled={saving.isLoading} onChange={() => void toggle(kind)} />
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

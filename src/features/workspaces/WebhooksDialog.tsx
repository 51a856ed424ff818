import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { WEBHOOK_EVENTS, type WebhookEventGroup, type WireWebhook, type WireWebhookDelivery } from '../../../schema/webhook';
import { api } from '../../app/api';
import { errorMessage, type FeatureMessages } from '../../app/errors';

/** A refused webhook call in Russian: an address it may not send to says so; the rest as the workspace's settings say them. */
const WEBHOOK_MESSAGES: FeatureMessages = {
  'webhook.target_refused': 'errors.codes.webhookTargetRefused',
  network: 'workspaceSettings.errors.network',
  forbidden: 'workspaceSettings.errors.forbidden',
  not_found: 'workspaceSettings.errors.notFound',
  validation_failed: 'workspaceSettings.errors.invalid',
  generic: 'workspaceSettings.errors.generic',
};
const webhookError = (t: (key: string) => string, error: unknown) => errorMessage(t, error, WEBHOOK_MESSAGES);
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { Switch } from '../../ui/Switch';
import { showToast } from '../../ui/Toast';

/*
 * A workspace's outgoing webhooks, for its admins (docs/api/webhooks.md): the list (each turned
 * off and on, deleted, its delivery log opened), and a new one — a URL and the events it hears —
 * whose signing secret is shown once, right after it is made.
 */

const base = (workspaceId: string) => `/api/v3/spaces/workspace/${encodeURIComponent(workspaceId)}/webhooks`;

export function WebhooksDialog({ workspaceId, onClose }: { workspaceId: string; onClose(): void }) {
  const { t } = useTranslation();
  const [hooks, setHooks] = useState<WireWebhook[] | null>(null);
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEventGroup[]>(['page', 'row', 'comment']);
  const [problem, setProblem] = useState<string | null>(null);
  const [made, setMade] = useState<WireWebhook | null>(null);
  const [log, setLog] = useState<{ hook: WireWebhook; deliveries: WireWebhookDelivery[] } | null>(null);

  const load = useCallback(async () => {
    try {
      setHooks((await api<WireWebhook[]>(base(workspaceId))).data);
    } catch (error) {
      setHooks([]);
      setProblem(webhookError(t, error));
    }
  }, [workspaceId, t]);
  useEffect(() => void load(), [load]);

  const add = async (event: React.FormEvent) => {
    event.preventDefault();
    setProblem(null);
    try {
      const hook = (await api<WireWebhook>(base(workspaceId), { method: 'POST', body: { url: url.trim(), events } })).data;
      setMade(hook);
      setUrl('');
      await load();
    } catch (error) {
      setProblem(webhookError(t, error));
    }
  };
  const toggle = async (hook: WireWebhook) => {
    try {
      await api(`${base(workspaceId)}/${hook.id}`, { method: 'POST', body: { active: !hook.active } });
      await load();
    } catch (error) {
      showToast(webhookError(t, error), 'error');
    }
  };
  const remove = async (hook: WireWebhook) => {
    try {
      await api(`${base(workspaceId)}/${hook.id}`, { method: 'DELETE' });
      await load();
    } catch (error) {
      showToast(webhookError(t, error), 'error');
    }
  };
  const openLog = async (hook: WireWebhook) => {
    try {
      setLog({ hook, deliveries: (await api<WireWebhookDelivery[]>(`${base(workspaceId)}/${hook.id}/deliveries`)).data });
    } catch (error) {
      showToast(webhookError(t, error), 'error');
    }
  };

  return (
    <Dialog title={t('webhooks.title')} onClose={onClose} className="webhooks-dialog">
      <p className="ws-note">{t('webhooks.hint')}</p>
      {hooks === null && <p className="share-muted">{t('webhooks.loading')}</p>}
      {hooks && hooks.length === 0 && <p className="share-muted">{t('webhooks.none')}</p>}
      {hooks && hooks.length > 0 && (
        <ul className="webhooks-list" aria-label={t('webhooks.list')}>
          {hooks.map((hook) => (
            <li key={hook.id} className="webhooks-item">
              <span className="webhooks-url" title={hook.url}>
                {hook.url}
              </span>
              <span className="webhooks-events">{hook.events.map((group) => t(`webhooks.events.${group}`)).join(', ')}</span>
              <Switch checked={hook.active} onChange={() => void toggle(hook)} aria-label={t('webhooks.activeOf', { url: hook.url })} />
              <Button kind="outline" size="xs" onClick={() => void openLog(hook)}>
                {t('webhooks.log')}
              </Button>
              <Button kind="outline" size="xs" aria-label={t('webhooks.deleteOf', { url: hook.url })} onClick={() => void remove(hook)}>
                {t('webhooks.delete')}
              </Button>
            </li>
          ))}
        </ul>
      )}
      {made?.secret && (
        <div className="webhooks-secret" role="status">
          <p>{t('webhooks.secretOnce')}</p>
          <code aria-label={t('webhooks.secret')}>{made.secret}</code>
        </div>
      )}
      <form className="webhooks-form" onSubmit={(event) => void add(event)}>
        <h3 className="share-section-title">{t('webhooks.addTitle')}</h3>
        <input
          className="ws-input"
          type="url"
          required
          value={url}
          placeholder="https://"
          aria-label={t('webhooks.url')}
          onChange={(e) => setUrl(e.target.value)}
        />
        <fieldset className="webhooks-groups">
          <legend>{t('webhooks.eventsLabel')}</legend>
          {WEBHOOK_EVENTS.map((group) => (
            <label key={group}>
              <input
                type="checkbox"
                checked={events.includes(group)}
                onChange={(e) => setEvents((now) => (e.target.checked ? [...now, group] : now.filter((g) => g !== group)))}
              />
              {t(`webhooks.events.${group}`)}
            </label>
          ))}
        </fieldset>
        {problem && (
          <p className="share-error" role="alert">
            {problem}
          </p>
        )}
        <Button type="submit" size="s" disabled={events.length === 0 || url.trim() === ''}>
          {t('webhooks.add')}
        </Button>
      </form>
      {log && (
        <Dialog title={t('webhooks.logTitle', { url: log.hook.url })} onClose={() => setLog(null)} className="dialog-small">
          {log.deliveries.length === 0 ? (
            <p className="share-muted">{t('webhooks.logEmpty')}</p>
          ) : (
            <table className="webhooks-log">
              <thead>
                <tr>
                  <th>{t('webhooks.when')}</th>
                  <th>{t('webhooks.event')}</th>
                  <th>{t('webhooks.status')}</th>
                  <th>{t('webhooks.tries')}</th>
                </tr>
              </thead>
              <tbody>
                {log.deliveries.map((d) => (
                  <tr key={d.id}>
                    <td>{new Date(d.createdAt).toLocaleString('ru-RU')}</td>
                    <td>{d.event}</td>
                    <td title={d.lastError ?? undefined}>
                      {t(`webhooks.statuses.${d.status}`)}
                      {d.lastStatus !== null ? ` (${d.lastStatus})` : ''}
                    </td>
                    <td>{d.attempts}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </Dialog>
      )}
    </Dialog>
  );
}

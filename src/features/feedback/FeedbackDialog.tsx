import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api';
import { errorKey, type FeatureMessages } from '../../app/errors';
import { useAppSelector } from '../../app/store';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { isEmail } from '../../../schema/user';
import './feedback.css';

const FIELD_LIMITS = { username: 200, text: 10_000 } as const;

const FEEDBACK_MESSAGES: FeatureMessages = {
  network: 'feedback.errors.network',
  rate_limited: 'feedback.errors.rateLimited',
  validation_failed: 'feedback.errors.invalid',
  generic: 'feedback.errors.sendFailed',
};

/** Why a feedback message was not sent, by the server's answer. */
function failureKey(error: unknown): string {
  return errorKey(error, FEEDBACK_MESSAGES);
}

/**
 * "Write to us": name, e-mail and message, posted to /api/email/hello (the installation's
 * feedback address). Signed-in users get their name and e-mail filled in. What was typed stays
 * when sending fails.
 */
export function FeedbackDialog({ onClose }: { onClose(): void }) {
  const { t } = useTranslation();
  const user = useAppSelector((state) => state.auth.user);
  const [username, setUsername] = useState(user?.name || '');
  const [email, setEmail] = useState(user && !user.anonymous ? user.email : '');
  const [text, setText] = useState('');
  const [state, setState] = useState<'editing' | 'sending' | 'sent'>('editing');
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (username.trim() === '' || text.trim() === '') return setError('feedback.errors.required');
    if (!isEmail(email.trim())) return setError('feedback.errors.email');
    setState('sending');
    setError(null);
    try {
      await api('/api/email/hello', { method: 'POST', body: { username: username.trim(), text: text.trim(), email: email.trim() } });
      setState('sent');
    } catch (e) {
      setError(failureKey(e));
      setState('editing');
    }
  };

  if (state === 'sent') {
    return (
      <Dialog title={t('feedback.title')} onClose={onClose} footer={<Button onClick={onClose}>{t('feedback.done')}</Button>}>
        <p className="feedback-sent" role="status">
          {t('feedback.sent')}
        </p>
      </Dialog>
    );
  }
  return (
    <Dialog title={t('feedback.title')} onClose={onClose}>
      <form className="feedback-form" onSubmit={submit} noValidate>
        <p className="feedback-intro">{t('feedback.intro')}</p>
        <label htmlFor="feedback-name">{t('feedback.name')}</label>
        <input
          id="feedback-name"
          className="input"
          value={username}
          maxLength={FIELD_LIMITS.username}
          onChange={(e) => setUsername(e.target.value)}
          autoComplete="name"
        />
        <label htmlFor="feedback-email">{t('feedback.email')}</label>
        <input id="feedback-email" className="input" type="email" value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="email" />
        <label htmlFor="feedback-text">{t('feedback.text')}</label>
        <textarea
          id="feedback-text"
          className="input feedback-text"
          rows={6}
          value={text}
          maxLength={FIELD_LIMITS.text}
          onChange={(e) => setText(e.target.value)}
          autoFocus
        />
        {error && (
          <p className="feedback-error" role="alert">
            {t(error)}
          </p>
        )}
        <div className="feedback-actions">
          <Button kind="flat" onClick={onClose}>
            {t('feedback.cancel')}
          </Button>
          <Button type="submit" disabled={state === 'sending'}>
            {t('feedback.send')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

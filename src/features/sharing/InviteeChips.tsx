import { useTranslation } from 'react-i18next';
import type { Invitees } from './invitees';

/**
 * The addresses typed so far, as chips — those that are not addresses struck out, with how many
 * will be skipped — under an invitation field (the share dialog's, the workspace settings'). Nothing
 * while nothing is typed.
 */
export function InviteeChips({ invitees, label }: { invitees: Invitees; label: string }) {
  const { t } = useTranslation();
  if (invitees.valid.length === 0 && invitees.invalid.length === 0) return null;
  return (
    <div className="share-candidates" aria-label={label}>
      {invitees.valid.map((email) => (
        <span key={email} className="share-chip">
          {email}
        </span>
      ))}
      {invitees.invalid.map((text) => (
        <span key={text} className="share-chip is-invalid" title={t('share.notEmail')}>
          {text}
        </span>
      ))}
      {invitees.invalid.length > 0 && <span className="share-hint is-error">{t('share.invalidHint', { count: invitees.invalid.length })}</span>}
    </div>
  );
}

import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppLinks } from '../app/appConfig';
import { useServerTopTakeover } from '../app/serverTop';
import { FeedbackDialog } from '../features/feedback/FeedbackDialog';
import { Button } from './Button';
import { FooterLinks } from './FooterLinks';
import { CloudOffIcon, LockIcon, SearchIcon } from './icons';
import './errorScreen.css';

export type ErrorKind = 'unauthorized' | 'notFound' | 'noAccess' | 'network' | 'generic';

/**
 * The spec's error screens: a title, what to do next, and help — the installation's help chat
 * in a new tab (HELP_URL), or else the feedback form — with the footer links under them.
 */
export function ErrorScreen({ kind, email }: { kind: ErrorKind; email?: string }) {
  const { t } = useTranslation();
  const links = useAppLinks();
  // Whatever went wrong, the app says it: the page's top the server drew (if any) is not left over it.
  useServerTopTakeover(true);
  const [feedback, setFeedback] = useState(false);
  const help = () => (links.help ? window.open(links.help, '_blank', 'noopener') : setFeedback(true));
  const title = {
    unauthorized: t('errors.unauthorized'),
    notFound: t('errors.notFound'),
    noAccess: t('errors.noAccess'),
    network: t('errors.network'),
    generic: t('errors.somethingWrong'),
  }[kind];
  return (
    <div className="screen-frame error-screen" role="alert">
      <div className="error-screen-content">
        <div className="error-screen-image">
          {kind === 'network' ? <CloudOffIcon size={36} /> : kind === 'noAccess' || kind === 'unauthorized' ? <LockIcon size={36} /> : <SearchIcon size={36} />}
        </div>
        <h1>{title}</h1>
        {kind === 'generic' && <p>{t('errors.somethingWrongText')}</p>}
        {kind === 'noAccess' && email && <p>{t('errors.noAccessNote', { email })}</p>}
        <div className="error-screen-buttons">
          {kind === 'network' ? (
            <Button size="m" onClick={() => window.location.reload()}>
              {t('errors.retry')}
            </Button>
          ) : (
            <Button size="m" onClick={() => window.location.assign('/')}>
              {t('errors.backHome')}
            </Button>
          )}
          <Button size="m" kind="outline" onClick={help}>
            {t('errors.help')}
          </Button>
        </div>
      </div>
      <FooterLinks links={links} />
      {feedback && <FeedbackDialog onClose={() => setFeedback(false)} />}
    </div>
  );
}

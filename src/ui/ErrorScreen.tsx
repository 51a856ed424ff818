import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppLinks } from '../app/appConfig';
import { useServerTopTakeover } from '../app/serverTop';
import { FeedbackDialog } from '../features/feedback/FeedbackDialog';
import { Button } from './Button';
import { FooterLinks } from './FooterLinks';
import { CloudOffIcon, LockIcon, SearchIcon } from './icons';
import { goHomeFresh, reloadPage } from './leavePage';
import './errorScreen.css';
import { useDocumentTitle } from '../app/documentTitle';

export type ErrorKind = 'unauthorized' | 'notFound' | 'noAccess' | 'network' | 'generic';

/** The not-found family: no such page (404), gone (410), or an address that names none (400: not an id). */
const NOT_FOUND_STATUSES = new Set([400, 404, 410]);

/** A lazily loaded screen's code that did not come (Chromium, Firefox, Safari say it so). */
const CHUNK_FAILED = /dynamically imported module|Importing a module script failed/i;

/**
 * Which error screen a failure shows (spec §8 «Error display by status»): the not-found family →
 * page not found; 401 → unauthorized; a call that never reached the server, or a screen's code
 * that did not load → network error (with a reload); a 403 → no access when a page is being
 * loaded (`pageLoad`), else, with anything else (a screen that threw), something went wrong.
 */
export function errorKindOf(error: unknown, { pageLoad = false }: { pageLoad?: boolean } = {}): ErrorKind {
  if (error instanceof Error && CHUNK_FAILED.test(error.message)) return 'network';
  if (typeof error !== 'object' || error === null || !('status' in error)) return 'generic';
  const { status } = error as { status?: unknown };
  if (typeof status !== 'number') return 'network';
  if (status === 401) return 'unauthorized';
  if (status === 403 && pageLoad) return 'noAccess';
  if (NOT_FOUND_STATUSES.has(status)) return 'notFound';
  return 'generic';
}

/** The words of anything thrown: an error's message, else the thing itself as text. */
export const errorText = (error: unknown): string => (error instanceof Error ? error.message || error.name : String(error));

/**
 * The default fallback (spec §8): the error's text as plain text — never read as markup, its line
 * breaks kept. The «something went wrong» screen shows it under its description, so what the
 * person can tell «Помощь» is on the screen.
 */
export function DefaultFallback({ error }: { error: unknown }) {
  return <pre className="error-text">{errorText(error)}</pre>;
}

/**
 * The spec's error screens: a title, what to do next, and help — the installation's help chat
 * in a new tab (HELP_URL), or else the feedback form — with the footer links under them.
 */
export function ErrorScreen({ kind, email, error }: { kind: ErrorKind; email?: string; error?: unknown }) {
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
  useDocumentTitle(title);
  return (
    <div className="screen-frame error-screen" role="alert">
      <div className="error-screen-content">
        <div className="error-screen-image">
          {kind === 'network' ? <CloudOffIcon size={36} /> : kind === 'noAccess' || kind === 'unauthorized' ? <LockIcon size={36} /> : <SearchIcon size={36} />}
        </div>
        <h1>{title}</h1>
        {kind === 'generic' && <p>{t('errors.somethingWrongText')}</p>}
        {kind === 'generic' && error !== undefined && <DefaultFallback error={error} />}
        {kind === 'noAccess' && email && <p>{t('errors.noAccessNote', { email })}</p>}
        <div className="error-screen-buttons">
          {kind === 'network' ? (
            <Button size="m" onClick={reloadPage}>
              {t('errors.retry')}
            </Button>
          ) : (
            <Button size="m" onClick={goHomeFresh}>
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

import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { wireElementSchema, type WireElement } from '../../../schema/element';
import { api } from '../../app/api';
import { useAppDispatch, useAppSelector } from '../../app/store';
import { saveUserSetting } from '../settings/serverSettings';
import { startOfferDone } from '../workspaces/workspacesSlice';
import { Button } from '../../ui/Button';
import { PageIcon, PenIcon } from '../../ui/icons';
import { useCreatePage } from '../sidebar/useCreatePage';
import { useIsPhone } from '../../ui/useIsPhone';
import { HomeIntents } from './HomeIntents';
import { MessengerBanner } from '../profile/MessengerBanner';
import { reportError } from '../../app/report';
import { useDocumentTitle } from '../../app/documentTitle';

/** How many recent pages home lists. */
export const HOME_RECENTS = 8;

type Recents = { status: 'loading' } | { status: 'ready'; pages: WireElement[] } | { status: 'failed' };

/**
 * The pages the user opened lately in the active workspace (`GET recents`, newest visit first;
 * the X-Workspace-Id header narrows it), read again when the workspace changes.
 */
function useRecentPages(workspaceId: string | undefined): Recents {
  const [recents, setRecents] = useState<Recents>({ status: 'loading' });
  useEffect(() => {
    if (!workspaceId) return;
    let cancelled = false;
    setRecents({ status: 'loading' });
    api<unknown[]>(`/api/v3/spaces/recents?limit=${HOME_RECENTS}`)
      .then(({ data }) => {
        const pages = (Array.isArray(data) ? data : []).flatMap((raw) => {
          const parsed = wireElementSchema.safeParse(raw);
          return parsed.success ? [parsed.data] : [];
        });
        if (!cancelled) setRecents({ status: 'ready', pages });
      })
      .catch(() => !cancelled && setRecents({ status: 'failed' }));
    return () => {
      cancelled = true;
    };
  }, [workspaceId]);
  return recents;
}

/**
 * The first visit's offer of the start-workspace wizard (`/new-workspace`), with «Пропустить».
 * It is offered once: shown, it is remembered on the server (`wizardOffered`), so it does not come
 * back on another visit or device, whether it was answered or not. The personal workspace stays.
 */
function StartOffer() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const told = useRef(false);
  useEffect(() => {
    if (told.current) return;
    told.current = true;
    saveUserSetting('wizardOffered', true).catch((error: unknown) => reportError('settings', { message: 'the wizard offer was not remembered', error }));
  }, []);
  return (
    <section className="home-offer" aria-label={t('home.offer.title')}>
      <h2>{t('home.offer.title')}</h2>
      <p>{t('home.offer.text')}</p>
      <div className="home-offer-actions">
        <Button
          size="s"
          onClick={() => {
            dispatch(startOfferDone());
            navigate('/new-workspace');
          }}
        >
          {t('home.offer.start')}
        </Button>
        <Button kind="flat" size="s" onClick={() => dispatch(startOfferDone())}>
          {t('home.offer.skip')}
        </Button>
      </div>
    </section>
  );
}

/** Home with no page open: a greeting, a way to start writing, and the pages opened lately. */
export function HomeIndex() {
  const { t } = useTranslation();
  useDocumentTitle(t('screens.home'));
  const { create, busy } = useCreatePage();
  const isPhone = useIsPhone();
  const workspaceId = useAppSelector((state) => state.workspaces.activeId ?? undefined);
  const recents = useRecentPages(workspaceId);
  const pages = recents.status === 'ready' ? recents.pages : [];
  // Live titles (renamed since) from the store when it holds the page.
  const entities = useAppSelector((state) => state.pages.entities);
  const offer = useAppSelector((state) => state.workspaces.startOffer === 'offer');
  return (
    <div className="home">
      <HomeIntents />
      {offer && <StartOffer />}
      <div className="home-card">
        <div className="home-emoji">
          <PenIcon size={32} />
        </div>
        <h1>{t('home.title')}</h1>
        {/* On a phone the sidebar is a hidden drawer: no "on the left" there. */}
        <p>{t(isPhone ? 'home.textPhone' : 'home.text')}</p>
        <Button size="m" disabled={busy} onClick={() => void create('private')}>
          {t('home.create')}
        </Button>
      </div>
      {pages.length > 0 && (
        <section className="home-recents" aria-label={t('home.recents')}>
          <h2>{t('home.recents')}</h2>
          <ul>
            {pages.map((page) => {
              const live = entities[page.id] ?? page;
              return (
                <li key={page.id}>
                  <Link to={`/${page.id}`} className="home-recent">
                    <span className="home-recent-icon" aria-hidden>
                      {live.icon ?? <PageIcon size={16} />}
                    </span>
                    <span className={live.title ? 'home-recent-title' : 'home-recent-title is-untitled'}>{live.title || t('untitled')}</span>
                  </Link>
                </li>
              );
            })}
          </ul>
        </section>
      )}
      {recents.status === 'failed' && <p className="home-recents-failed">{t('home.recentsFailed')}</p>}
      <MessengerBanner />
    </div>
  );
}

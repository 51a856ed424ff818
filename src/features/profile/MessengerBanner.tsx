import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMessengerBot } from '../../app/appConfig';
import { useAppDispatch, useAppSelector } from '../../app/store';
import { Button } from '../../ui/Button';
import { CloseIcon, PaperPlaneIcon } from '../../ui/icons';
import { messengerBannerSet } from '../settings/uiSettings';
import { ProfileDialog } from './ProfileDialog';
import './profile.css';

/**
 * The messenger banner (spec: «messenger banner shown», a UI setting): home's hint that the
 * account can be linked to this server's Telegram bot. Shown while the setting is on, the server
 * has a bot and the account is not linked yet; «Привязать» opens the profile's messenger part with
 * the code (and the bot's deep link) asked for at once; ✕ turns the setting off — saved with the
 * user's settings, so it stays hidden on every device.
 */
export function MessengerBanner() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const shown = useAppSelector((state) => state.uiSettings.messengerBanner);
  const user = useAppSelector((state) => state.auth.user);
  const bot = useMessengerBot();
  const [linking, setLinking] = useState(false);
  if (!shown || !bot || !user || user.anonymous || user.telegramId) return null;
  return (
    <section className="messenger-banner" aria-label={t('messengerBanner.title')}>
      <span className="messenger-banner-icon" aria-hidden>
        <PaperPlaneIcon size={17} />
      </span>
      <div className="messenger-banner-text">
        <h2>{t('messengerBanner.title')}</h2>
        <p>{t('messengerBanner.text')}</p>
        <Button size="s" onClick={() => setLinking(true)}>
          {t('messengerBanner.link')}
        </Button>
      </div>
      <Button
        kind="flat"
        size="xxs"
        className="messenger-banner-close"
        aria-label={t('messengerBanner.dismiss')}
        title={t('messengerBanner.dismiss')}
        onClick={() => dispatch(messengerBannerSet(false))}
      >
        <CloseIcon size={16} />
      </Button>
      {linking && <ProfileDialog linkMessenger onClose={() => setLinking(false)} />}
    </section>
  );
}

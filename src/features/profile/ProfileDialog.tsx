import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { WireUser } from '../../../schema/user';
import { ApiRequestError, api } from '../../app/api';
import { errorKey, type FeatureMessages } from '../../app/errors';
import { useAppDispatch, useAppSelector } from '../../app/store';
import { PUBLIC_IMAGE_TYPES, uploadPublicImage } from '../../editor/upload';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { signedIn } from '../auth/authSlice';
import { themeSet, type UiSettings } from '../settings/uiSettings';
import './profile.css';
import { FilePicker } from '../../ui/FilePicker';

const NAME_MAX = 200;
const THEMES: UiSettings['theme'][] = ['auto', 'light', 'dark'];

const PROFILE_MESSAGES: FeatureMessages = {
  network: 'profile.errors.network',
  payload_too_large: 'profile.errors.tooLarge',
  'file.not_an_image': 'profile.errors.notAnImage',
  rate_limited: 'profile.errors.rateLimited',
  generic: 'profile.errors.generic',
};

const profileErrorKey = (error: unknown): string => errorKey(error, PROFILE_MESSAGES);

/** POST /api/user: your own name and/or avatar; answers the updated user. */
async function updateSelf(id: string, changes: { name?: string; avatar_url?: string | null }): Promise<WireUser> {
  return (await api<WireUser>('/api/user', { method: 'POST', body: { id, ...changes } })).data;
}

/**
 * The messenger link: a one-time code to send to the bot (GET /api/user/telegram/code), and the
 * bot's deep link carrying it (`https://t.me/<bot>?start=<token>`: one tap sends the code).
 */
function MessengerSection({ linked, linkAtStart }: { linked: boolean; linkAtStart: boolean }) {
  const { t } = useTranslation();
  const [state, setState] = useState<
    { kind: 'idle' | 'loading' } | { kind: 'code'; token: string; expiresAt: string; link: string | null } | { kind: 'error'; key: string }
  >({
    kind: 'idle',
  });
  const section = useRef<HTMLElement>(null);
  // A link's `?action=messenger&step=link` (docs/intents.md): the code is asked for at once.
  const asked = useRef(false);
  useEffect(() => {
    if (!linkAtStart || asked.current) return;
    asked.current = true;
    section.current?.scrollIntoView({ block: 'nearest' });
    void ask();
  });
  const ask = async () => {
    setState({ kind: 'loading' });
    try {
      const { data } = await api<{ token: string; expiresAt: string; link?: string | null }>('/api/user/telegram/code');
      // Only a link to the platform's own address is followed (the server builds it; an older one sends none).
      const link = typeof data.link === 'string' && data.link.startsWith('https://t.me/') ? data.link : null;
      setState({ kind: 'code', token: data.token, expiresAt: data.expiresAt, link });
    } catch (error) {
      const disabled = error instanceof ApiRequestError && error.code === 'messenger.disabled';
      setState({ kind: 'error', key: disabled ? 'profile.messenger.disabled' : profileErrorKey(error) });
    }
  };
  return (
    <section className="profile-section" aria-label={t('profile.messenger.title')} ref={section}>
      <h3>{t('profile.messenger.title')}</h3>
      {linked && <p className="profile-note">{t('profile.messenger.linked')}</p>}
      {state.kind === 'code' ? (
        <div className="profile-code">
          {state.link && (
            <>
              <a className="button button-s button-solid profile-bot-link" href={state.link} target="_blank" rel="noopener noreferrer">
                {t('profile.messenger.open')}
              </a>
              <p>{t('profile.messenger.orSend')}</p>
            </>
          )}
          {!state.link && <p>{t('profile.messenger.send')}</p>}
          <code data-testid="messenger-code">/start {state.token}</code>
          <p className="profile-note">
            {t('profile.messenger.expires', { time: new Date(state.expiresAt).toLocaleTimeString('ru', { hour: '2-digit', minute: '2-digit' }) })}
          </p>
        </div>
      ) : (
        <Button kind="outline" size="s" disabled={state.kind === 'loading'} onClick={() => void ask()}>
          {linked ? t('profile.messenger.relink') : t('profile.messenger.link')}
        </Button>
      )}
      {state.kind === 'error' && (
        <p className="profile-error" role="alert">
          {t(state.key)}
        </p>
      )}
    </section>
  );
}

/** Profile and settings: your name and avatar, the theme, and linking the messenger bot. */
export function ProfileDialog({ onClose, linkMessenger = false }: { onClose(): void; /** Asks for the messenger code at once. */ linkMessenger?: boolean }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const user = useAppSelector((state) => state.auth.user);
  const theme = useAppSelector((state) => state.uiSettings.theme);
  const [name, setName] = useState(user?.name ?? '');
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState(false);
  const [upload, setUpload] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (!user) return null;

  const saveName = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (trimmed === '') return setError('profile.errors.nameRequired');
    setSaving(true);
    setError(null);
    try {
      dispatch(signedIn(await updateSelf(user.id, { name: trimmed })));
      setSaved(true);
    } catch (e) {
      setError(profileErrorKey(e));
    } finally {
      setSaving(false);
    }
  };

  const uploadAvatar = async (file: File | undefined) => {
    if (!file) return;
    if (!(PUBLIC_IMAGE_TYPES as readonly string[]).includes(file.type)) return setError('profile.errors.notAnImage');
    setError(null);
    setUpload(0);
    try {
      const url = await uploadPublicImage(file, { onProgress: (share) => setUpload(share) });
      dispatch(signedIn(await updateSelf(user.id, { avatar_url: url })));
    } catch (e) {
      setError(profileErrorKey(e));
    } finally {
      setUpload(null);
    }
  };

  const removeAvatar = async () => {
    setError(null);
    try {
      dispatch(signedIn(await updateSelf(user.id, { avatar_url: null })));
    } catch (e) {
      setError(profileErrorKey(e));
    }
  };

  const initial = (user.name || user.email || '?').slice(0, 1).toUpperCase();
  return (
    <Dialog title={t('profile.title')} onClose={onClose} namesScreen className="profile-dialog">
      <section className="profile-section profile-avatar-row">
        <div className="profile-avatar" aria-hidden>
          {user.avatar_url ? <img src={user.avatar_url} alt="" /> : <span>{initial}</span>}
        </div>
        <div className="profile-avatar-actions">
          <div className="profile-email">{user.email}</div>
          <div className="profile-buttons">
            <FilePicker accept={PUBLIC_IMAGE_TYPES.join(',')} label={t('profile.avatar.upload')} onFiles={([file]) => void uploadAvatar(file)}>
              {(open) => (
                <Button kind="outline" size="s" disabled={upload !== null} onClick={open}>
                  {user.avatar_url ? t('profile.avatar.change') : t('profile.avatar.upload')}
                </Button>
              )}
            </FilePicker>
            {user.avatar_url && (
              <Button kind="flat" size="s" disabled={upload !== null} onClick={() => void removeAvatar()}>
                {t('profile.avatar.remove')}
              </Button>
            )}
          </div>
          {upload !== null && <progress className="profile-progress" max={1} value={upload} aria-label={t('profile.avatar.uploading')} />}
        </div>
      </section>

      <form className="profile-section" onSubmit={saveName} noValidate>
        <label htmlFor="profile-name">{t('profile.name')}</label>
        <div className="profile-name-row">
          <input
            id="profile-name"
            className="input"
            value={name}
            maxLength={NAME_MAX}
            autoComplete="name"
            onChange={(e) => {
              setName(e.target.value);
              setSaved(false);
            }}
          />
          <Button type="submit" size="m" disabled={saving || name.trim() === (user.name ?? '')}>
            {t('profile.save')}
          </Button>
        </div>
        {saved && (
          <p className="profile-note" role="status">
            {t('profile.saved')}
          </p>
        )}
      </form>

      <section className="profile-section" aria-label={t('profile.theme.title')}>
        <h3>{t('profile.theme.title')}</h3>
        <div className="profile-themes" role="radiogroup" aria-label={t('profile.theme.title')}>
          {THEMES.map((value) => (
            <button
              key={value}
              type="button"
              role="radio"
              aria-checked={theme === value}
              className={theme === value ? 'profile-theme is-active' : 'profile-theme'}
              onClick={() => dispatch(themeSet(value))}
            >
              {t(`profile.theme.${value}`)}
            </button>
          ))}
        </div>
      </section>

      <MessengerSection linked={!!user.telegramId} linkAtStart={linkMessenger} />

      {error && (
        <p className="profile-error" role="alert">
          {t(error)}
        </p>
      )}
    </Dialog>
  );
}

import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { LOGIN_CODE_LENGTH } from '../../../schema/constants';
import { ApiRequestError } from '../../app/api';
import { errorKey, type FeatureMessages } from '../../app/errors';
import { useAppDispatch, useAppSelector } from '../../app/store';
import { serverApi } from '../../app/serverApi';
import { useAppLinks } from '../../app/appConfig';
import { Button } from '../../ui/Button';
import { FooterLinks } from '../../ui/FooterLinks';
import { loadCurrentUser, login, oauthProvider, safeNext, sendCode, signedIn, startOAuth, type OAuthProviderInfo } from './authSlice';
import { emailSuggestions } from './emailSuggestions';
import { isEmail } from '../../../schema/user';
import './login.css';
import { useDocumentTitle } from '../../app/documentTitle';

const SIGN_IN_MESSAGES: FeatureMessages = {
  validation_failed: 'auth.errors.invalidEmail',
  'auth.invalid_pin': 'auth.errors.invalidPin',
  'auth.code_expired': 'auth.errors.codeExpired',
  'auth.too_many_attempts': 'auth.errors.tooManyAttempts',
  rate_limited: 'auth.errors.rateLimited',
  'auth.oauth_state_invalid': 'auth.errors.oauthState',
  'auth.oauth_email_unverified': 'auth.errors.oauthEmailUnverified',
  'auth.oauth_provider_unavailable': 'auth.errors.oauthUnavailable',
  'auth.oauth_failed': 'auth.errors.oauthFailed',
  'auth.oauth_disabled': 'auth.errors.oauthFailed',
  'auth.oauth_unknown_service': 'auth.errors.oauthFailed',
  generic: 'auth.errors.generic',
};

/** The message for a failed sign-in step, by the server's stable error code. */
export function signInError(error: unknown): { key: string; count?: number } {
  const key = errorKey(error, SIGN_IN_MESSAGES);
  if (key !== SIGN_IN_MESSAGES['auth.invalid_pin']) return { key };
  return { key, count: ((error as ApiRequestError).details as { attemptsLeft?: number } | undefined)?.attemptsLeft ?? 0 };
}

/**
 * Sign in with an e-mail code (ask for the address, with domain suggestions, then for the six
 * digits), or with the server's external provider when it has one. `?next=` says where to go after.
 */
export function LoginPage() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const status = useAppSelector((state) => state.auth.status);
  const [provider, setProvider] = useState<OAuthProviderInfo | null>(null);
  const [suggesting, setSuggesting] = useState(true);
  const links = useAppLinks();
  const [step, setStep] = useState<'email' | 'code'>('email');
  // Nothing read for the last person (members, settings, the trash: serverApi) is kept for the
  // next: dropped here, once the screens that showed it are gone (a reset under them would ask again, unsigned).
  useEffect(() => {
    dispatch(serverApi.util.resetApiState());
  }, [dispatch]);
  // A link's `?type=email&email=` fills the address in; `?type=oauth&provider=` goes to the
  // provider at once (docs/intents.md).
  const [email, setEmail] = useState(() => (params.get('type') === 'email' ? (params.get('email') ?? '') : ''));
  const [pin, setPin] = useState('');
  const [busy, setBusy] = useState(false);
  /** A sign-in with a code is under way (the sixth digit and Enter do not send it twice). */
  const signingIn = useRef(false);
  const codeField = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<{ key: string; count?: number } | null>(null);

  useDocumentTitle(t('screens.signIn'));
  useEffect(() => {
    if (status === 'unknown') void dispatch(loadCurrentUser());
  }, [dispatch, status, t]);

  useEffect(() => {
    let cancelled = false;
    oauthProvider().then(
      (info) => !cancelled && setProvider(info),
      // Not known: no provider button (and a link asking for one says so).
      () => !cancelled && setProvider({ enabled: false, service: null, name: null }),
    );
    return () => {
      cancelled = true;
    };
  }, []);

  const wantedProvider = params.get('type') === 'oauth' ? (params.get('provider') ?? '') : null;
  const providerStarted = useRef(false);
  useEffect(() => {
    if (wantedProvider === null || status !== 'signedOut' || providerStarted.current) return;
    if (provider === null) return;
    providerStarted.current = true;
    if (!provider.enabled || !provider.service || (wantedProvider !== '' && wantedProvider !== provider.service)) {
      setError({ key: 'auth.errors.providerMissing' });
      return;
    }
    setBusy(true);
    startOAuth(provider.service, next).catch((e: unknown) => {
      setError(signInError(e));
      setBusy(false);
    });
  }, [wantedProvider, provider, status, next]);

  if (status === 'signedIn') return <Navigate to={next} replace />;

  const suggestions = suggesting ? emailSuggestions(email, window.location.hostname) : [];

  const signInWithProvider = async () => {
    if (!provider?.service) return;
    setBusy(true);
    setError(null);
    try {
      await startOAuth(provider.service, next);
    } catch (e) {
      setError(signInError(e));
      setBusy(false);
    }
  };

  const requestCode = async (event?: FormEvent) => {
    event?.preventDefault();
    if (!isEmail(email.trim())) {
      setError({ key: 'auth.errors.invalidEmail' });
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await sendCode(email.trim());
      setStep('code');
      setPin('');
    } catch (e) {
      setError(signInError(e));
    } finally {
      setBusy(false);
    }
  };

  /**
   * Signs in with a code: on the sixth digit typed or pasted, or «Войти». A wrong code stays in
   * the field, focused and selected, so the next digits typed replace it.
   */
  const signInWithCode = async (code: string) => {
    if (signingIn.current) return;
    signingIn.current = true;
    setBusy(true);
    setError(null);
    try {
      dispatch(signedIn(await login(email.trim(), code)));
      navigate(next, { replace: true });
    } catch (e) {
      setError(signInError(e));
      requestAnimationFrame(() => {
        codeField.current?.focus();
        codeField.current?.select();
      });
    } finally {
      signingIn.current = false;
      setBusy(false);
    }
  };
  const submitCode = (event: FormEvent) => {
    event.preventDefault();
    if (pin.length === LOGIN_CODE_LENGTH) void signInWithCode(pin);
  };

  /**
   * Where a failed step says why: a live region there before the message (one made together
   * with its words is often not read), which the field names in `aria-describedby`.
   */
  const alertRegion = (id: string) => (
    <div id={id} className="login-alert" role="alert">
      {error && <p className="login-error">{t(error.key, { count: error.count })}</p>}
    </div>
  );

  return (
    <main className="screen-frame login">
      <div className="login-card">
        <div className="login-logo" aria-hidden>
          С
        </div>
        <h1>{t('auth.title')}</h1>
        {step === 'email' ? (
          <form onSubmit={requestCode} noValidate>
            <p className="login-subtitle">{t('auth.subtitle')}</p>
            <label className="login-label" htmlFor="login-email">
              {t('auth.emailLabel')}
            </label>
            <input
              id="login-email"
              className="input"
              type="email"
              autoComplete="email"
              autoFocus
              placeholder={t('auth.emailPlaceholder')}
              value={email}
              aria-invalid={error ? true : undefined}
              aria-describedby={[error ? 'login-email-error' : '', suggestions.length > 0 ? 'login-suggestions' : ''].filter(Boolean).join(' ') || undefined}
              onChange={(e) => {
                setEmail(e.target.value);
                setSuggesting(true);
              }}
              onKeyDown={(e) => e.key === 'Escape' && setSuggesting(false)}
            />
            {suggestions.length > 0 && (
              <div className="login-suggestions" id="login-suggestions" aria-label={t('auth.suggestions')}>
                {suggestions.map((address) => (
                  <button
                    key={address}
                    type="button"
                    className="login-suggestion"
                    onClick={() => {
                      setEmail(address);
                      setSuggesting(false);
                      setError(null);
                    }}
                  >
                    {address}
                  </button>
                ))}
              </div>
            )}
            {alertRegion('login-email-error')}
            <Button type="submit" size="l" className="login-submit" disabled={busy || email.trim() === ''}>
              {t('auth.sendCode')}
            </Button>
            {provider?.enabled && (
              <>
                <div className="login-or">
                  <span>{t('auth.or')}</span>
                </div>
                <Button kind="outline" size="l" className="login-provider" disabled={busy} onClick={() => void signInWithProvider()}>
                  {provider.name ? t('auth.withProvider', { name: provider.name }) : t('auth.withSso')}
                </Button>
              </>
            )}
          </form>
        ) : (
          <form onSubmit={submitCode} noValidate>
            <p className="login-subtitle">{t('auth.codeHint', { email: email.trim() })}</p>
            <label className="login-label" htmlFor="login-code">
              {t('auth.codeLabel')}
            </label>
            <input
              id="login-code"
              className="input login-code"
              inputMode="numeric"
              autoComplete="one-time-code"
              autoFocus
              ref={codeField}
              placeholder="000000"
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'login-code-error' : undefined}
              value={pin}
              onChange={(e) => {
                // Digits only, six at most: a pasted «123 456» or «Код: 123456» is the code.
                const digits = e.target.value.replace(/\D/g, '').slice(0, LOGIN_CODE_LENGTH);
                setPin(digits);
                if (digits.length === LOGIN_CODE_LENGTH && digits !== pin) void signInWithCode(digits);
              }}
            />
            {alertRegion('login-code-error')}
            <Button type="submit" size="l" className="login-submit" disabled={busy || pin.length !== LOGIN_CODE_LENGTH}>
              {t('auth.signIn')}
            </Button>
            <div className="login-links">
              <Button kind="flat" size="s" onClick={() => setStep('email')}>
                {t('auth.changeEmail')}
              </Button>
              <Button kind="flat" size="s" disabled={busy} onClick={() => void requestCode()}>
                {t('auth.resend')}
              </Button>
            </div>
          </form>
        )}
      </div>
      <FooterLinks links={links} />
    </main>
  );
}

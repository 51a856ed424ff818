import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router-dom';
import { LOGIN_CODE_LENGTH } from '../../../schema/constants';
import { ERROR_CODES } from '../../../schema/errors';
import { EMAIL_PATTERN } from '../../../schema/user';
import { ApiRequestError } from '../../app/api';
import { useAppDispatch, useAppSelector } from '../../app/store';
import { Button } from '../../ui/Button';
import { loadCurrentUser, login, sendCode, signedIn } from './authSlice';
import './login.css';

/** The message for a failed sign-in step, by the server's stable error code. */
function errorKey(error: unknown): { key: string; count?: number } {
  if (!(error instanceof ApiRequestError)) return { key: 'auth.errors.generic' };
  switch (error.code) {
    case ERROR_CODES.validationFailed:
      return { key: 'auth.errors.invalidEmail' };
    case ERROR_CODES.invalidPin:
      return { key: 'auth.errors.invalidPin', count: (error.details as { attemptsLeft?: number } | undefined)?.attemptsLeft ?? 0 };
    case ERROR_CODES.codeExpired:
      return { key: 'auth.errors.codeExpired' };
    case ERROR_CODES.tooManyAttempts:
      return { key: 'auth.errors.tooManyAttempts' };
    case ERROR_CODES.rateLimited:
      return { key: 'auth.errors.rateLimited' };
    default:
      return { key: 'auth.errors.generic' };
  }
}

/** Sign in with an e-mail code: ask for the address, then for the six digits. */
export function LoginPage() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const status = useAppSelector((state) => state.auth.status);
  const [step, setStep] = useState<'email' | 'code'>('email');
  const [email, setEmail] = useState('');
  const [pin, setPin] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ key: string; count?: number } | null>(null);

  useEffect(() => {
    document.title = t('auth.title');
    if (status === 'unknown') void dispatch(loadCurrentUser());
  }, [dispatch, status, t]);

  if (status === 'signedIn') return <Navigate to="/" replace />;

  const requestCode = async (event?: FormEvent) => {
    event?.preventDefault();
    if (!EMAIL_PATTERN.test(email.trim())) {
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
      setError(errorKey(e));
    } finally {
      setBusy(false);
    }
  };

  const submitCode = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      dispatch(signedIn(await login(email.trim(), pin.trim())));
      navigate('/', { replace: true });
    } catch (e) {
      setError(errorKey(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="login">
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
              onChange={(e) => setEmail(e.target.value)}
            />
            {error && <p className="login-error">{t(error.key, { count: error.count })}</p>}
            <Button type="submit" size="l" className="login-submit" disabled={busy || email.trim() === ''}>
              {t('auth.sendCode')}
            </Button>
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
              maxLength={LOGIN_CODE_LENGTH}
              placeholder="000000"
              value={pin}
              onChange={(e) => setPin(e.target.value.replace(/\D/g, ''))}
            />
            {error && <p className="login-error">{t(error.key, { count: error.count })}</p>}
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
    </main>
  );
}

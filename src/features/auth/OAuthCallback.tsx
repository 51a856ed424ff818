import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useAppDispatch } from '../../app/store';
import { Spinner } from '../../ui/Spinner';
import { finishOAuth, signedIn } from './authSlice';
import { signInError } from './LoginPage';
import './login.css';
import { useDocumentTitle } from '../../app/documentTitle';

/**
 * /oauth/callback: the provider sends the browser back here with `code` and `state`; the server
 * checks them (once) and sets the session, then the app goes where the sign-in started from.
 * A refusal is explained, with a way back to the sign-in screen.
 */
export function OAuthCallback() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [error, setError] = useState<string | null>(null);
  // The state works once: StrictMode's second effect run must not post it again.
  const started = useRef(false);

  useDocumentTitle(t('screens.signIn'));
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const code = params.get('code');
    const state = params.get('state');
    if (!code || !state) {
      setError(params.get('error') === 'access_denied' ? 'auth.errors.oauthDenied' : 'auth.errors.oauthFailed');
      return;
    }
    finishOAuth(state, code).then(
      ({ user, next }) => {
        dispatch(signedIn(user));
        navigate(next, { replace: true });
      },
      (e: unknown) => setError(signInError(e).key),
    );
  }, [dispatch, navigate, params]);

  if (!error) return <Spinner />;
  return (
    <main className="screen-frame login">
      <div className="login-card login-callback" role="alert">
        <h1>{t('auth.oauthFailedTitle')}</h1>
        <p className="login-subtitle">{t(error)}</p>
        <Link className="button button-solid button-l login-submit" to="/login" replace>
          {t('auth.backToLogin')}
        </Link>
      </div>
    </main>
  );
}

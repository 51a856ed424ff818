import type { Kysely } from 'kysely';
import * as oidc from 'openid-client';
import { ERROR_CODES } from '../../schema/errors';
import { EMAIL_PATTERN } from '../../schema/user';
import { httpIssuerAllowed, type Config } from '../config';
import type { Database } from '../db/types';
import { AppError } from '../errors';
import { isoIn, nowIso } from '../time';
import { hashSecret } from './tokens';

/** How long a sign-in at the provider may take, from /api/auth/oauth to /api/auth/oauth/code. */
export const OAUTH_STATE_TTL_MS = 10 * 60 * 1000;
/** Provider metadata (and with it the cached signing keys) is fetched again after this long. */
const DISCOVERY_TTL_MS = 60 * 60 * 1000;
/** Clock difference tolerated between us and the provider (seconds). */
const CLOCK_SKEW_S = 60;
/** Each call to the provider gives up after this long (seconds). */
const PROVIDER_TIMEOUT_S = 10;

export type OAuthSettings = NonNullable<Config['oauth']>;

/** Who signed in at the provider, as far as its verified id_token says. */
export interface OAuthIdentity {
  subject: string;
  email: string;
  name: string | null;
}

const failed = (message: string) => new AppError(401, ERROR_CODES.oauthFailed, message);
const unavailable = (message: string) => new AppError(502, ERROR_CODES.oauthProviderUnavailable, message);

const trimSlash = (url: string) => url.replace(/\/+$/, '');

/** The provider's own words about a failure: the innermost message openid-client keeps. */
function detail(error: unknown): string {
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof Error && cause.message) return cause.message;
  return error instanceof Error ? error.message : String(error);
}

/** A fetch that did not get an answer (refused, reset, timed out), as opposed to an answer we refuse. */
function unreachable(error: unknown): boolean {
  if (error instanceof oidc.ClientError) return error.code === 'OAUTH_TIMEOUT' || error.code === 'OAUTH_ABORT';
  return error instanceof TypeError && !String((error as { code?: unknown }).code ?? '').startsWith('ERR_INVALID_ARG');
}

/** What a JWT or JSON comparison that failed was about (`nonce`, `aud`, `sub`…). */
function comparedField(error: unknown): string | undefined {
  const inner = (error as { cause?: { cause?: { claim?: unknown; attribute?: unknown } } }).cause?.cause;
  const field = inner?.claim ?? inner?.attribute;
  return typeof field === 'string' ? field : undefined;
}

/** An HTTP error answer of the provider: its status (a ResponseBodyError, or an answer openid-client found not conform). */
function answerStatus(error: unknown): number | undefined {
  if (error instanceof oidc.ResponseBodyError) return error.status;
  const cause = (error as { cause?: unknown }).cause;
  if (error instanceof oidc.ClientError && error.code === 'OAUTH_RESPONSE_IS_NOT_CONFORM' && cause instanceof Response) return cause.status;
  if (error instanceof oidc.WWWAuthenticateChallengeError) return error.status;
  return undefined;
}

/** A failed discovery as the 502 the routes answer. */
function discoveryFailure(error: unknown): AppError {
  if (unreachable(error)) return unavailable('the sign-in provider cannot be reached');
  const code = (error as { code?: unknown }).code;
  if (code === 'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED') {
    const named = (error as { cause?: { body?: { issuer?: unknown } } }).cause?.body?.issuer;
    return unavailable(`the provider names a different issuer (${String(named)}; OAUTH_ISSUER_URL must be that)`);
  }
  if (code === 'OAUTH_HTTP_REQUEST_FORBIDDEN') return unavailable('the sign-in provider is not at an https:// address (OAUTH_ALLOW_HTTP allows http)');
  return unavailable(`the sign-in provider sent no usable OpenID configuration (${detail(error)})`);
}

/** A failed code exchange or id_token check as the 401 (or 502) the routes answer. */
function exchangeFailure(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (unreachable(error)) return unavailable('the sign-in provider cannot be reached');
  const status = answerStatus(error);
  if (status !== undefined)
    return status >= 500 ? unavailable('the sign-in provider failed to answer') : failed('the provider did not accept the sign-in code');
  const code = (error as { code?: unknown }).code;
  const field = comparedField(error);
  if (code === 'OAUTH_JWT_CLAIM_COMPARISON_FAILED') {
    if (field === 'nonce') return failed('the id_token belongs to another sign-in (nonce)');
    if (field === 'iss') return failed('the id_token was issued by someone else');
    if (field === 'aud' || field === 'azp') return failed('the id_token is meant for another client');
  }
  if (code === 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED' && field === 'exp') return failed('the id_token has expired');
  // A bad signature, a claim missing, no id_token…: openid-client's words.
  return failed(`the provider's tokens were refused: ${detail(error)}`);
}

/** The userinfo call failed. */
function userInfoFailure(error: unknown): AppError {
  if (unreachable(error)) return unavailable('the sign-in provider cannot be reached');
  if (comparedField(error) === 'sub') return failed('the user info belongs to another subject');
  return failed(`the provider refused the user info (${detail(error)})`);
}

/**
 * Client authentication at the token endpoint: HTTP Basic unless the provider lists methods
 * without it, then the secret in the form (client_secret_post).
 */
function clientAuthentication(secret: string): oidc.ClientAuth {
  const basic = oidc.ClientSecretBasic(secret);
  const post = oidc.ClientSecretPost(secret);
  return (as, client, body, headers) => {
    const methods = as.token_endpoint_auth_methods_supported;
    (!methods || methods.includes('client_secret_basic') ? basic : post)(as, client, body, headers);
  };
}

/**
 * The provider's metadata from `${issuer}/.well-known/openid-configuration` (openid-client's
 * `discovery`, which also checks that the metadata names the issuer asked for). The
 * configuration verifies id_token signatures by the provider's JWKS too
 * (`enableNonRepudiationChecks`), not only trusting the channel, and speaks http only to an
 * issuer `httpIssuerAllowed` lets it (on this machine, or OAUTH_ALLOW_HTTP).
 */
async function discover(settings: OAuthSettings, issuer: URL): Promise<oidc.Configuration> {
  const options: oidc.DiscoveryRequestOptions = {
    timeout: PROVIDER_TIMEOUT_S,
    execute: [oidc.enableNonRepudiationChecks, ...(httpIssuerAllowed(issuer, settings.allowHttp) ? [oidc.allowInsecureRequests] : [])],
  };
  const metadata: Partial<oidc.ClientMetadata> = { client_secret: settings.clientSecret, [oidc.clockTolerance]: CLOCK_SKEW_S };
  const config = await oidc.discovery(issuer, settings.clientId, metadata, clientAuthentication(settings.clientSecret), options);
  const server = config.serverMetadata();
  for (const field of ['authorization_endpoint', 'token_endpoint', 'jwks_uri'] as const) {
    if (typeof server[field] !== 'string') throw unavailable(`the provider's OpenID configuration has no ${field}`);
  }
  return config;
}

/** Discovery of the configured issuer, which may differ from the one the provider names by a final slash (then that one is used). */
async function discoverIssuer(settings: OAuthSettings): Promise<oidc.Configuration> {
  const configured = new URL(settings.issuerUrl);
  try {
    return await discover(settings, configured);
  } catch (error) {
    const named = (error as { cause?: { attribute?: unknown; body?: { issuer?: unknown } } }).cause;
    const issuer = named?.attribute === 'issuer' && typeof named.body?.issuer === 'string' ? named.body.issuer : undefined;
    if (issuer === undefined || trimSlash(issuer) !== trimSlash(configured.href)) throw error;
    return discover(settings, new URL(issuer));
  }
}

/**
 * An OpenID Connect client for one provider, on openid-client: the authorization-code flow with
 * PKCE (S256), state and nonce. The id_token is checked by the library (signature by the
 * provider's JWKS, issuer, audience and authorized party, expiry, nonce); the e-mail comes from
 * it or from the userinfo endpoint.
 */
export function createOidcClient(settings: OAuthSettings, redirectUri: string) {
  let discovered: { config: Promise<oidc.Configuration>; at: number } | undefined;

  /** The provider's configuration, fetched once an hour; a failure is not kept. */
  function configuration(): Promise<oidc.Configuration> {
    if (discovered && Date.now() - discovered.at < DISCOVERY_TTL_MS) return discovered.config;
    const config = discoverIssuer(settings).catch((error: unknown) => {
      throw error instanceof AppError ? error : discoveryFailure(error);
    });
    discovered = { config, at: Date.now() };
    config.catch(() => {
      if (discovered?.config === config) discovered = undefined;
    });
    return config;
  }

  /** E-mail and name: from the id_token, else from the userinfo endpoint (same subject). */
  async function identityOf(config: oidc.Configuration, claims: oidc.IDToken, accessToken: string | undefined): Promise<OAuthIdentity> {
    if (typeof claims.sub !== 'string' || claims.sub === '') throw failed('the id_token names no subject');
    let source: Record<string, unknown> = claims;
    if (typeof claims.email !== 'string') {
      if (!config.serverMetadata().userinfo_endpoint || !accessToken) throw failed('the provider did not tell the e-mail (ask for the email scope)');
      source = await oidc.fetchUserInfo(config, accessToken, claims.sub).catch((error: unknown) => {
        throw userInfoFailure(error);
      });
    }
    const email = typeof source.email === 'string' ? source.email.trim().toLowerCase() : '';
    if (!EMAIL_PATTERN.test(email)) throw failed('the provider did not tell a valid e-mail');
    // Some providers send the flag as a string.
    if (source.email_verified !== true && source.email_verified !== 'true') {
      throw new AppError(401, ERROR_CODES.oauthEmailUnverified, 'the provider has not verified this e-mail');
    }
    const name = typeof source.name === 'string' && source.name.trim() !== '' ? source.name.trim().slice(0, 200) : null;
    return { subject: claims.sub, email, name };
  }

  return {
    /** Starts a sign-in: stores state, PKCE verifier and nonce; returns the provider URL and the state. */
    async start(db: Kysely<Database>): Promise<{ url: string; state: string }> {
      const config = await configuration();
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      const codeVerifier = oidc.randomPKCECodeVerifier();
      const now = nowIso();
      // Abandoned sign-ins are swept as new ones start.
      await db.deleteFrom('oauth_states').where('expires_at', '<', now).execute();
      await db
        .insertInto('oauth_states')
        .values({ id: hashSecret(state), code_verifier: codeVerifier, nonce, expires_at: isoIn(OAUTH_STATE_TTL_MS), created_at: now })
        .execute();
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: settings.scopes,
        state,
        nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
      });
      return { url: url.toString(), state };
    },

    /**
     * Finishes a sign-in: takes the state (once: a replay finds nothing), exchanges the code at
     * the token endpoint with the PKCE verifier (openid-client checks the id_token) and returns
     * who it is.
     */
    async finish(db: Kysely<Database>, state: string, code: string): Promise<OAuthIdentity> {
      const taken = await db.deleteFrom('oauth_states').where('id', '=', hashSecret(state)).returningAll().executeTakeFirst();
      if (!taken || taken.expires_at <= nowIso()) {
        throw new AppError(401, ERROR_CODES.oauthStateInvalid, 'this sign-in has expired or was already used; start again');
      }
      const config = await configuration();
      // The callback as the provider sent it to the browser, which posts us its code and state.
      // A provider that adds `iss` to its callbacks (RFC 9207) is the one configured: there is one.
      const callback = new URL(redirectUri);
      callback.searchParams.set('code', code);
      callback.searchParams.set('state', state);
      const server = config.serverMetadata();
      if (server.authorization_response_iss_parameter_supported) callback.searchParams.set('iss', server.issuer);
      try {
        const tokens = await oidc.authorizationCodeGrant(config, callback, {
          pkceCodeVerifier: taken.code_verifier,
          expectedState: state,
          expectedNonce: taken.nonce,
          idTokenExpected: true,
        });
        const claims = tokens.claims();
        if (!claims) throw failed('the provider sent no id_token');
        return await identityOf(config, claims, tokens.access_token);
      } catch (error) {
        throw exchangeFailure(error);
      }
    },
  };
}

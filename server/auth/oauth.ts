import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import { ERROR_CODES } from '../../schema/errors';
import { EMAIL_PATTERN } from '../../schema/user';
import type { Config } from '../config';
import type { Database } from '../db/types';
import { AppError } from '../errors';
import { isoIn, nowIso } from '../time';
import { hashSecret, newSecret } from './tokens';

/** How long a sign-in at the provider may take, from /api/auth/oauth to /api/auth/oauth/code. */
export const OAUTH_STATE_TTL_MS = 10 * 60 * 1000;
/** Provider metadata is refetched after this long. */
const DISCOVERY_TTL_MS = 60 * 60 * 1000;
/** An unknown key id refetches the key set, at most this often (keys rotate; ids can be forged). */
const JWKS_REFETCH_MS = 60 * 1000;
/** Clock difference tolerated between us and the provider. */
const CLOCK_SKEW_S = 60;
const PROVIDER_TIMEOUT_MS = 10_000;

export type OAuthSettings = NonNullable<Config['oauth']>;

interface ProviderMetadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
  userinfo_endpoint?: string;
  token_endpoint_auth_methods_supported?: string[];
}

interface Jwk extends crypto.JsonWebKey {
  kid?: string;
  use?: string;
  alg?: string;
}

/** Who signed in at the provider, as far as its verified id_token says. */
export interface OAuthIdentity {
  subject: string;
  email: string;
  name: string | null;
}

const failed = (message: string) => new AppError(401, ERROR_CODES.oauthFailed, message);
const unavailable = (message: string) => new AppError(502, ERROR_CODES.oauthProviderUnavailable, message);

const base64url = (bytes: Buffer) => bytes.toString('base64url');
const trimSlash = (url: string) => url.replace(/\/+$/, '');

/** Signature algorithms we verify, with how node:crypto checks each. No "none", no shared-secret HS*. */
const ALGORITHMS: Record<string, { hash: string | null; kty: string; options?: Partial<crypto.VerifyKeyObjectInput> }> = {
  RS256: { hash: 'sha256', kty: 'RSA' },
  RS384: { hash: 'sha384', kty: 'RSA' },
  RS512: { hash: 'sha512', kty: 'RSA' },
  PS256: { hash: 'sha256', kty: 'RSA', options: { padding: crypto.constants.RSA_PKCS1_PSS_PADDING, saltLength: crypto.constants.RSA_PSS_SALTLEN_DIGEST } },
  PS384: { hash: 'sha384', kty: 'RSA', options: { padding: crypto.constants.RSA_PKCS1_PSS_PADDING, saltLength: crypto.constants.RSA_PSS_SALTLEN_DIGEST } },
  PS512: { hash: 'sha512', kty: 'RSA', options: { padding: crypto.constants.RSA_PKCS1_PSS_PADDING, saltLength: crypto.constants.RSA_PSS_SALTLEN_DIGEST } },
  ES256: { hash: 'sha256', kty: 'EC', options: { dsaEncoding: 'ieee-p1363' } },
  ES384: { hash: 'sha384', kty: 'EC', options: { dsaEncoding: 'ieee-p1363' } },
  ES512: { hash: 'sha512', kty: 'EC', options: { dsaEncoding: 'ieee-p1363' } },
  EdDSA: { hash: null, kty: 'OKP' },
};

function decodeSegment(segment: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw failed('the id_token is not a well-formed JWT');
}

async function fetchJson(url: string, init: RequestInit = {}): Promise<{ status: number; body: unknown }> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS) });
  } catch {
    throw unavailable('the sign-in provider cannot be reached');
  }
  const text = await response.text().catch(() => '');
  try {
    return { status: response.status, body: text === '' ? null : (JSON.parse(text) as unknown) };
  } catch {
    return { status: response.status, body: null };
  }
}

/**
 * An OpenID Connect client for one provider: the authorization-code flow with PKCE (S256),
 * state and nonce; the id_token is verified here (signature by the provider's JWKS, issuer,
 * audience, expiry, nonce). Metadata comes from the issuer's /.well-known/openid-configuration.
 */
export function createOidcClient(settings: OAuthSettings, redirectUri: string) {
  let metadata: { value: ProviderMetadata; fetchedAt: number } | undefined;
  let jwks: { keys: Jwk[]; fetchedAt: number } | undefined;

  async function providerMetadata(): Promise<ProviderMetadata> {
    if (metadata && Date.now() - metadata.fetchedAt < DISCOVERY_TTL_MS) return metadata.value;
    const { status, body } = await fetchJson(`${trimSlash(settings.issuerUrl)}/.well-known/openid-configuration`);
    const value = body as Partial<ProviderMetadata> | null;
    if (status !== 200 || !value || typeof value !== 'object') throw unavailable('the sign-in provider sent no OpenID configuration');
    for (const field of ['issuer', 'authorization_endpoint', 'token_endpoint', 'jwks_uri'] as const) {
      if (typeof value[field] !== 'string') throw unavailable(`the provider's OpenID configuration has no ${field}`);
    }
    // OpenID Connect Discovery §4.3: the issuer must be the one we asked.
    if (trimSlash(value.issuer as string) !== trimSlash(settings.issuerUrl)) throw unavailable('the provider names a different issuer');
    metadata = { value: value as ProviderMetadata, fetchedAt: Date.now() };
    return metadata.value;
  }

  async function signingKeys(refresh: boolean): Promise<Jwk[]> {
    const fresh = jwks && Date.now() - jwks.fetchedAt < (refresh ? JWKS_REFETCH_MS : DISCOVERY_TTL_MS);
    if (jwks && fresh) return jwks.keys;
    const { jwks_uri } = await providerMetadata();
    const { status, body } = await fetchJson(jwks_uri);
    const keys = (body as { keys?: unknown } | null)?.keys;
    if (status !== 200 || !Array.isArray(keys)) throw unavailable('the provider sent no signing keys');
    jwks = { keys: keys.filter((k): k is Jwk => !!k && typeof k === 'object'), fetchedAt: Date.now() };
    return jwks.keys;
  }

  function candidates(keys: Jwk[], kid: unknown, alg: string, kty: string): Jwk[] {
    return keys.filter(
      (k) => k.kty === kty && (k.use === undefined || k.use === 'sig') && (k.alg === undefined || k.alg === alg) && (kid === undefined || k.kid === kid),
    );
  }

  async function verifyIdToken(idToken: string, expected: { nonce: string }): Promise<Record<string, unknown>> {
    const parts = idToken.split('.');
    if (parts.length !== 3) throw failed('the id_token is not a well-formed JWT');
    const header = decodeSegment(parts[0]);
    const payload = decodeSegment(parts[1]);
    const alg = typeof header.alg === 'string' ? header.alg : '';
    const algorithm = Object.hasOwn(ALGORITHMS, alg) ? ALGORITHMS[alg] : undefined;
    if (!algorithm) throw failed(`the id_token is signed with an algorithm we do not accept (${alg || 'none'})`);

    let keys = candidates(await signingKeys(false), header.kid, alg, algorithm.kty);
    if (keys.length === 0) keys = candidates(await signingKeys(true), header.kid, alg, algorithm.kty);
    const signed = Buffer.from(`${parts[0]}.${parts[1]}`);
    const signature = Buffer.from(parts[2], 'base64url');
    const valid = keys.some((jwk) => {
      try {
        const key = crypto.createPublicKey({ key: jwk, format: 'jwk' });
        return crypto.verify(algorithm.hash, signed, { key, ...algorithm.options }, signature);
      } catch {
        return false;
      }
    });
    if (!valid) throw failed('the id_token signature does not verify');

    const { issuer } = await providerMetadata();
    if (payload.iss !== issuer) throw failed('the id_token was issued by someone else');
    const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
    if (!audiences.includes(settings.clientId)) throw failed('the id_token is meant for another client');
    if (audiences.length > 1 && payload.azp !== undefined && payload.azp !== settings.clientId) throw failed('the id_token was requested by another client');
    const now = Math.floor(Date.now() / 1000);
    if (typeof payload.exp !== 'number' || payload.exp + CLOCK_SKEW_S < now) throw failed('the id_token has expired');
    if (payload.iat !== undefined && (typeof payload.iat !== 'number' || payload.iat - CLOCK_SKEW_S > now)) throw failed('the id_token is issued in the future');
    if (typeof payload.nonce !== 'string' || !sameText(payload.nonce, expected.nonce)) throw failed('the id_token belongs to another sign-in (nonce)');
    if (typeof payload.sub !== 'string' || payload.sub === '') throw failed('the id_token names no subject');
    return payload;
  }

  /** E-mail and name: from the id_token, else from the userinfo endpoint (same subject). */
  async function identityOf(claims: Record<string, unknown>, accessToken: unknown): Promise<OAuthIdentity> {
    let source = claims;
    if (typeof claims.email !== 'string') {
      const { userinfo_endpoint } = await providerMetadata();
      if (!userinfo_endpoint || typeof accessToken !== 'string') throw failed('the provider did not tell the e-mail (ask for the email scope)');
      const { status, body } = await fetchJson(userinfo_endpoint, { headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' } });
      const info = body as Record<string, unknown> | null;
      if (status !== 200 || !info || typeof info !== 'object') throw failed('the provider refused the user info');
      if (info.sub !== claims.sub) throw failed('the user info belongs to another subject');
      source = info;
    }
    const email = typeof source.email === 'string' ? source.email.trim().toLowerCase() : '';
    if (!EMAIL_PATTERN.test(email)) throw failed('the provider did not tell a valid e-mail');
    // Some providers send the flag as a string.
    if (source.email_verified !== true && source.email_verified !== 'true') {
      throw new AppError(401, ERROR_CODES.oauthEmailUnverified, 'the provider has not verified this e-mail');
    }
    const name = typeof source.name === 'string' && source.name.trim() !== '' ? source.name.trim().slice(0, 200) : null;
    return { subject: claims.sub as string, email, name };
  }

  return {
    /** Starts a sign-in: stores state, PKCE verifier and nonce; returns the provider URL and the state. */
    async start(db: Kysely<Database>): Promise<{ url: string; state: string }> {
      const provider = await providerMetadata();
      const state = newSecret();
      const nonce = newSecret();
      const codeVerifier = base64url(crypto.randomBytes(32));
      const now = nowIso();
      // Abandoned sign-ins are swept as new ones start.
      await db.deleteFrom('oauth_states').where('expires_at', '<', now).execute();
      await db
        .insertInto('oauth_states')
        .values({ id: hashSecret(state), code_verifier: codeVerifier, nonce, expires_at: isoIn(OAUTH_STATE_TTL_MS), created_at: now })
        .execute();
      const url = new URL(provider.authorization_endpoint);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('client_id', settings.clientId);
      url.searchParams.set('redirect_uri', redirectUri);
      url.searchParams.set('scope', settings.scopes);
      url.searchParams.set('state', state);
      url.searchParams.set('nonce', nonce);
      url.searchParams.set('code_challenge', base64url(crypto.createHash('sha256').update(codeVerifier).digest()));
      url.searchParams.set('code_challenge_method', 'S256');
      return { url: url.toString(), state };
    },

    /**
     * Finishes a sign-in: takes the state (once: a replay finds nothing), exchanges the code at
     * the token endpoint with the PKCE verifier, verifies the id_token and returns who it is.
     */
    async finish(db: Kysely<Database>, state: string, code: string): Promise<OAuthIdentity> {
      const taken = await db.deleteFrom('oauth_states').where('id', '=', hashSecret(state)).returningAll().executeTakeFirst();
      if (!taken || taken.expires_at <= nowIso()) {
        throw new AppError(401, ERROR_CODES.oauthStateInvalid, 'this sign-in has expired or was already used; start again');
      }
      const provider = await providerMetadata();
      const form = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: taken.code_verifier, client_id: settings.clientId });
      const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
      const methods = provider.token_endpoint_auth_methods_supported;
      if (!methods || methods.includes('client_secret_basic')) {
        const credentials = `${encodeURIComponent(settings.clientId)}:${encodeURIComponent(settings.clientSecret)}`;
        headers.authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
      } else {
        form.set('client_secret', settings.clientSecret);
      }
      const { status, body } = await fetchJson(provider.token_endpoint, { method: 'POST', headers, body: form.toString() });
      if (status >= 500) throw unavailable('the sign-in provider failed to answer');
      const tokens = body as { id_token?: unknown; access_token?: unknown } | null;
      if (status !== 200 || !tokens || typeof tokens.id_token !== 'string') throw failed('the provider did not accept the sign-in code');
      const claims = await verifyIdToken(tokens.id_token, { nonce: taken.nonce });
      return identityOf(claims, tokens.access_token);
    },
  };
}

export type OidcClient = ReturnType<typeof createOidcClient>;

function sameText(a: string, b: string): boolean {
  const left = crypto.createHash('sha256').update(a).digest();
  const right = crypto.createHash('sha256').update(b).digest();
  return crypto.timingSafeEqual(left, right);
}

import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export interface NextTokenResponse {
  /** Claims set (null: removed) on the next tokens. */
  claims?: Record<string, unknown>;
  /** Claims changed in the next id_token after it was signed (breaks the signature). */
  tamperIdToken?: Record<string, unknown>;
  /** The token endpoint refuses the next code. */
  tokenError?: boolean;
  /** The userinfo call after these tokens: other claims (`sub` too), or an error status. */
  userinfo?: { claims?: Record<string, unknown>; status?: number };
}

export interface OAuthProvider {
  /** The issuer URL (OAUTH_ISSUER_URL). */
  issuerUrl: string;
  /** The person who signs in from now on (claims added to every token). */
  setProfile(claims: Record<string, unknown>): Promise<void>;
  /** One-shot changes to the next token response. */
  setNext(value: NextTokenResponse): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts oauth2-mock-server (a real OIDC provider: discovery, JWKS, authorize, token and userinfo
 * endpoints over HTTP on loopback) in a child process; see oauthProvider.mjs.
 */
export async function startOAuthProvider(): Promise<OAuthProvider> {
  const child: ChildProcess = fork(path.join(__dirname, 'oauthProvider.mjs'), [], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let nextId = 0;
  const waiting = new Map<number, () => void>();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const issuerUrl = await new Promise<string>((resolve, reject) => {
    child.once('error', reject);
    void exited.then(() => reject(new Error('the OAuth provider exited before it was ready')));
    child.on('message', (message: { type: string; url?: string; id?: number }) => {
      if (message.type === 'ready' && message.url) resolve(message.url);
      if (message.type === 'ack' && message.id !== undefined) waiting.get(message.id)?.();
    });
  });
  const request = (message: Record<string, unknown>) =>
    new Promise<void>((resolve) => {
      const id = nextId++;
      waiting.set(id, () => {
        waiting.delete(id);
        resolve();
      });
      child.send({ ...message, id });
    });
  return {
    issuerUrl,
    setProfile: (claims) => request({ type: 'profile', claims }),
    setNext: (value) => request({ type: 'next', value }),
    async stop() {
      if (child.exitCode === null) child.send({ type: 'stop', id: -1 });
      await exited;
    },
  };
}

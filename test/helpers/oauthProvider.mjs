// A real OpenID Connect provider (oauth2-mock-server) on a loopback port, run as a child
// process: the package is ES-module-only, which Jest's CommonJS runtime cannot load. The parent
// steers it over the IPC channel (see oauthProvider.ts).
import { OAuth2Server } from 'oauth2-mock-server';

const server = new OAuth2Server();
await server.issuer.keys.generate('RS256');
await server.start(0, '127.0.0.1');

/** Claims added to every token (the signed-in person). */
let profile = {};
/** One-shot changes to the next token response: { claims, tamperIdToken, tokenError, userinfo }. */
let next = null;
/** What the userinfo call after that token response answers differently (one-shot). */
let nextUserinfo = null;

server.service.on('beforeTokenSigning', (token) => {
  Object.assign(token.payload, profile, next?.claims ?? {});
  for (const [key, value] of Object.entries(token.payload)) if (value === null) delete token.payload[key];
});

server.service.on('beforeResponse', (response) => {
  const once = next;
  next = null;
  if (!once) return;
  nextUserinfo = once.userinfo ?? null;
  if (once.tokenError) {
    response.statusCode = 400;
    response.body = { error: 'invalid_grant' };
    return;
  }
  if (once.tamperIdToken && typeof response.body.id_token === 'string') {
    // Same header and signature, another payload: the signature no longer matches.
    const [header, payload, signature] = response.body.id_token.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    Object.assign(claims, once.tamperIdToken);
    response.body.id_token = [header, Buffer.from(JSON.stringify(claims)).toString('base64url'), signature].join('.');
  }
});

// The userinfo endpoint answers the signed-in person (the token's subject, johndoe, and the profile).
server.service.on('beforeUserinfo', (response) => {
  const once = nextUserinfo;
  nextUserinfo = null;
  if (once?.status) {
    response.statusCode = once.status;
    response.body = { error: 'invalid_token' };
    return;
  }
  Object.assign(response.body, profile, once?.claims ?? {});
});

process.on('message', async (message) => {
  if (message.type === 'profile') profile = message.claims;
  if (message.type === 'next') next = message.value;
  if (message.type === 'stop') {
    await server.stop();
    process.send({ type: 'ack', id: message.id }, () => process.exit(0));
    return;
  }
  process.send({ type: 'ack', id: message.id });
});

process.send({ type: 'ready', url: server.issuer.url });

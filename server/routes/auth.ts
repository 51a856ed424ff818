import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import { loginBodySchema, sendCodeBodySchema } from '../../schema/user';
import { consumeLoginCode, issueLoginCode } from '../auth/loginCodes';
import { SESSION_COOKIE, createSession, deleteSession } from '../auth/sessions';
import type { Config } from '../config';
import type { Mailer } from '../mail';
import { envelope, presentUser } from '../presenters';
import { createUserWithWorkspace, findUserByEmail } from '../repositories/users';

/** Sign-in by e-mail code: send_code, login (sets the session cookie), logout. Bodies are form-data. */
export async function authRoutes(server: FastifyInstance, { config, mailer }: { config: Config; mailer: Mailer }) {
  const app = server.withTypeProvider<ZodTypeProvider>();
  await app.register(formbody, { bodyLimit: 4096 });
  await app.register(multipart, {
    attachFieldsToBody: 'keyValues',
    limits: { fields: 10, fieldSize: 1024, files: 0, parts: 10 },
  });

  const cookieOptions = {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: config.publicUrl.startsWith('https://'),
  };

  app.post('/api/auth/send_code', { schema: { tags: ['auth'], summary: 'E-mail a sign-in code (form-data)', body: sendCodeBodySchema } }, async (request) => {
    const { email } = request.body;
    const code = await issueLoginCode(app.db, email, request.ip, {
      perEmail: config.sendCodeLimitPerEmail,
      perIp: config.sendCodeLimitPerIp,
    });
    await mailer.sendLoginCode(email, code);
    return envelope({ status: 'success' });
  });

  app.post('/api/auth/login', { schema: { tags: ['auth'], summary: 'Sign in with the code; sets the session cookie (form-data)', body: loginBodySchema } }, async (request, reply) => {
    const { email, pin } = request.body;
    await consumeLoginCode(app.db, email, pin);
    const user = (await findUserByEmail(app.db, email)) ?? (await createUserWithWorkspace(app.db, email));
    const token = await createSession(app.db, user.id, config.sessionTtlDays);
    reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions, maxAge: config.sessionTtlDays * 86_400 });
    return envelope(presentUser(user));
  });

  app.get('/api/auth/logout', { schema: { tags: ['auth'], summary: 'End the session' } }, async (request, reply) => {
    const token = request.cookies[SESSION_COOKIE];
    if (token) await deleteSession(app.db, token);
    reply.clearCookie(SESSION_COOKIE, cookieOptions);
    return envelope({ status: 'success' });
  });
}

import { sql, type Kysely } from 'kysely';
import { LOGIN_CODE_MAX_ATTEMPTS, LOGIN_CODE_TTL_MS } from '../../schema/constants';
import { ERROR_CODES } from '../../schema/errors';
import { newId } from '../../schema/ids';
import { isPostgres } from '../db/connect';
import type { Database } from '../db/types';
import { AppError, rateLimited } from '../errors';
import { isoIn, nowIso } from '../time';
import { hashSecret, newLoginCode, sameDigest } from './tokens';

const hashCode = (id: string, code: string) => hashSecret(`${id}:${code}`);

async function countCodesSince(db: Kysely<Database>, where: { email?: string; ip?: string }, since: string): Promise<number> {
  let query = db
    .selectFrom('login_codes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('created_at', '>', since);
  if (where.email !== undefined) query = query.where('email', '=', where.email);
  if (where.ip !== undefined) query = query.where('ip', '=', where.ip);
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.n);
}

/** send_code's limits within a code's lifetime (docs/security.md «Request limits»). */
export interface LoginCodeLimits {
  /** Codes for one e-mail, from anywhere: what bounds guessing one account's pin. */
  perEmail: number;
  /** Codes for one e-mail from one address: one address cannot use up the e-mail's allowance. */
  perIpEmail: number;
  /** Codes from one address, for any e-mails: an office behind one NAT signs in here. */
  perIp: number;
}

/**
 * Issues a new sign-in code for an e-mail, after the per-e-mail, per-(address, e-mail) and
 * per-address limits (counted over the code lifetime). Earlier unused codes for the e-mail stop
 * working.
 */
export async function issueLoginCode(db: Kysely<Database>, email: string, ip: string, limits: LoginCodeLimits): Promise<string> {
  const since = new Date(Date.now() - LOGIN_CODE_TTL_MS).toISOString();
  const code = newLoginCode();
  const id = newId();
  const now = nowIso();
  await db.transaction().execute(async (trx) => {
    // The limits are checked and the code stored in one step per e-mail and per address, or parallel
    // requests would all pass the check. SQLite runs one transaction at a time; on PostgreSQL the
    // transaction takes advisory locks (e-mail first, then address, so two never wait on each other).
    if (isPostgres(trx)) {
      await sql`SELECT pg_advisory_xact_lock(1, hashtext(${email}))`.execute(trx);
      await sql`SELECT pg_advisory_xact_lock(2, hashtext(${ip}))`.execute(trx);
    }
    if ((await countCodesSince(trx, { email }, since)) >= limits.perEmail) {
      throw rateLimited('too many codes for this e-mail, try again in a few minutes');
    }
    if ((await countCodesSince(trx, { email, ip }, since)) >= limits.perIpEmail) {
      throw rateLimited('too many codes for this e-mail from this address, try again in a few minutes');
    }
    if ((await countCodesSince(trx, { ip }, since)) >= limits.perIp) {
      throw rateLimited('too many codes from this address, try again in a few minutes');
    }
    await trx.updateTable('login_codes').set({ used_at: now }).where('email', '=', email).where('used_at', 'is', null).execute();
    await trx
      .insertInto('login_codes')
      .values({ id, email, code_hash: hashCode(id, code), attempts: 0, expires_at: isoIn(LOGIN_CODE_TTL_MS), used_at: null, ip, created_at: now })
      .execute();
  });
  return code;
}

const tooManyAttempts = () => new AppError(429, ERROR_CODES.tooManyAttempts, 'too many wrong codes; request a new one');

/**
 * Checks a pin against the e-mail's current code. A right pin uses the code up; a wrong one
 * counts an attempt, and after LOGIN_CODE_MAX_ATTEMPTS the code is dead and a new one is needed.
 */
export async function consumeLoginCode(db: Kysely<Database>, email: string, pin: string): Promise<void> {
  const now = nowIso();
  const current = await db
    .selectFrom('login_codes')
    .selectAll()
    .where('email', '=', email)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!current) throw new AppError(401, ERROR_CODES.codeExpired, 'the code has expired or was used; request a new one');
  // Take one of the code's attempts in the database before looking at the pin, in one conditional
  // update: parallel guesses can then never check more pins than the limit allows.
  const claimed = await db
    .updateTable('login_codes')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', current.id)
    .where('used_at', 'is', null)
    .where('attempts', '<', LOGIN_CODE_MAX_ATTEMPTS)
    .returning('attempts')
    .executeTakeFirst();
  if (!claimed) {
    const row = await db.selectFrom('login_codes').select('used_at').where('id', '=', current.id).executeTakeFirst();
    if (row?.used_at) throw new AppError(401, ERROR_CODES.codeExpired, 'the code was already used');
    throw tooManyAttempts();
  }
  if (sameDigest(current.code_hash, hashCode(current.id, pin))) {
    const used = await db.updateTable('login_codes').set({ used_at: now }).where('id', '=', current.id).where('used_at', 'is', null).executeTakeFirst();
    if (Number(used.numUpdatedRows) !== 1) throw new AppError(401, ERROR_CODES.codeExpired, 'the code was already used');
    return;
  }
  if (claimed.attempts >= LOGIN_CODE_MAX_ATTEMPTS) throw tooManyAttempts();
  throw new AppError(401, ERROR_CODES.invalidPin, 'wrong code', { attemptsLeft: LOGIN_CODE_MAX_ATTEMPTS - claimed.attempts });
}

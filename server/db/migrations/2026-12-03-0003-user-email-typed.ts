import { sql, type Kysely } from 'kysely';

/**
 * A person's e-mail as they typed it (issue 36 §3, api-contract: «the original e-mail
 * preferred»): `users.email` stays the lower-case form every lookup matches; `email_typed` is what
 * is shown, set by the person's own sign-in when it differs. Frozen once shipped.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a frozen migration reads tables as they were, not as db/types.ts says today
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table users add column email_typed text`.execute(db);
}

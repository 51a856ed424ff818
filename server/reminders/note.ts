import type { Kysely } from 'kysely';
import { newId } from '../../schema/ids';
import { dateMentionSchema, type Token } from '../../schema/token';
import type { Database } from '../db/types';

/*
 * Reminders (issue 39 §2; docs/api/blocks.md «Date mentions and reminders»): a date mention in a
 * block's text with `remindAt` notifies the person who set it — in the inbox and by e-mail — at
 * that instant, also after a restart (they are rows, `reminders`, not timers).
 *
 * - Noted where blocks are written (server/repositories/blocks.ts and the copies): a block whose
 *   data holds a mention with a reminder ahead gets a row per instant, its author the writer of
 *   the version that first held it (a row already there is kept: whoever edits the block later
 *   does not take it over). Nothing is read back on a write: a block without reminders costs a
 *   text search of its data.
 * - Sent by the reminder worker when due (send.ts): the row is taken (sent_at set; one process takes it),
 *   then checked — the block still live and still holding that reminder, its page not deleted,
 *   its author still able to read the page — and only then told. A mention deleted, moved to
 *   another time, or a page no longer readable: nothing is sent.
 */

/** A reminder noted no earlier than this before its time still goes off (a block saved a moment after the minute it named). */
const LATE_MS = 60_000;

export interface ReminderMention {
  remindAt: string;
  start: string;
  label: string;
}

/** The reminders a block's data holds (its tokens' date mentions with `remindAt`), one per instant. */
export function remindersIn(data: unknown): ReminderMention[] {
  const tokens = (data as { tokens?: unknown } | null)?.tokens;
  if (!Array.isArray(tokens)) return [];
  const out = new Map<string, ReminderMention>();
  for (const token of tokens as Token[]) {
    if (!token?.date?.remindAt) continue;
    const date = dateMentionSchema.safeParse(token.date);
    if (!date.success || !date.data.remindAt) continue;
    const remindAt = new Date(date.data.remindAt).toISOString();
    if (!out.has(remindAt)) out.set(remindAt, { remindAt, start: date.data.start, label: token.text });
  }
  return [...out.values()];
}

/** Whether a block's data holds a reminder at all (a look at its tokens, nothing parsed). */
export function holdsReminder(data: unknown): boolean {
  const tokens = (data as { tokens?: unknown } | null)?.tokens;
  return Array.isArray(tokens) && tokens.some((token) => !!(token as Token | null)?.date?.remindAt);
}

/** A written block: its data as stored (JSON text) or as an object. */
export interface WrittenBlock {
  id: string;
  pageId: string;
  data: string | unknown;
  userId: string;
}

/** A stored block row as the reminders see it: its writer is the one reminded. */
export const writtenBlock = (row: { id: string; page_id: string; data: string; updated_by: string }): WrittenBlock => ({
  id: row.id,
  pageId: row.page_id,
  data: row.data,
  userId: row.updated_by,
});

/** This process's reminder workers (send.ts): told when a reminder is noted here. */
export const reminderWakers = new Set<() => void>();

/**
 * Notes the reminders of written blocks (see the file's comment). Cheap for the blocks that hold
 * none: their JSON is searched for `remindAt` and that is all.
 */
export async function noteReminders(db: Kysely<Database>, blocks: readonly WrittenBlock[], now = Date.now()): Promise<void> {
  const rows = [];
  for (const block of blocks) {
    const text = typeof block.data === 'string' ? block.data : null;
    if (text !== null && !text.includes('"remindAt"')) continue;
    for (const reminder of remindersIn(text !== null ? JSON.parse(text) : block.data)) {
      if (Date.parse(reminder.remindAt) < now - LATE_MS) continue;
      rows.push({
        id: newId(),
        user_id: block.userId,
        page_id: block.pageId,
        block_id: block.id,
        remind_at: reminder.remindAt,
        start: reminder.start,
        label: reminder.label.slice(0, 200),
        created_at: new Date(now).toISOString(),
        sent_at: null,
      });
    }
  }
  if (rows.length === 0) return;
  await db
    .insertInto('reminders')
    .values(rows)
    .onConflict((oc) => oc.columns(['block_id', 'remind_at']).doNothing())
    .execute();
  // This process's worker looks again now (the new one may be due before its next look).
  for (const wake of reminderWakers) wake();
}

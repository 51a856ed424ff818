import type { Kysely } from 'kysely';
import { WakeableLoop, type BackgroundLoop, type LoopLog } from '../background';
import type { Database } from '../db/types';
import type { DomainEvent } from '../events/events';
import type { Mailer } from '../mail';
import { isWritable, pageAccessLevel } from '../policies/page';
import { createNotification } from '../repositories/notifications';
import { shownPageOf } from '../repositories/syncedContent';
import { nowIso } from '../time';
import { reminderWakers, remindersIn } from './note';

/* The reminder worker (issue 39 §2): sends the reminders noted by note.ts when they are due. */

/** How long the worker sleeps at most between looks (a reminder noted in another process is seen within this). */
export const REMINDER_TICK_MS = 15_000;
/** Sent reminders are forgotten this long after their time. */
const KEEP_SENT_MS = 7 * 24 * 60 * 60 * 1000;

/** The e-mail of a reminder. */
function reminderMail(label: string, pageTitle: string, link: string): { subject: string; text: string } {
  const title = pageTitle.trim() || 'Без названия';
  return {
    subject: `Напоминание: ${label}`,
    text: `Напоминание на странице «${title}»: ${label}.\n\nОткрыть: ${link}\n`,
  };
}

export interface ReminderDelivery {
  mailer: Mailer;
  /** The app's address, for the e-mail's link. */
  publicUrl: string;
  /** Tells the world of the notifications made (the inbox's realtime update). */
  dispatch(events: DomainEvent[]): void;
  log: LoopLog;
}

/**
 * Sends the reminders due at `now` (see the file's comment); how many were told. Each is taken
 * before anything is sent, so two processes never send one twice; a failed e-mail is logged, the
 * inbox notification stays.
 */
export async function sendDueReminders(db: Kysely<Database>, delivery: ReminderDelivery, now = new Date()): Promise<number> {
  const due = await db
    .selectFrom('reminders')
    .selectAll()
    .where('sent_at', 'is', null)
    .where('remind_at', '<=', now.toISOString())
    .orderBy('remind_at')
    .limit(100)
    .execute();
  let told = 0;
  for (const reminder of due) {
    const taken = await db.updateTable('reminders').set({ sent_at: nowIso() }).where('id', '=', reminder.id).where('sent_at', 'is', null).executeTakeFirst();
    if (Number(taken.numUpdatedRows) !== 1) continue;
    const block = await db.selectFrom('blocks').select(['data', 'deleted_at', 'page_id']).where('id', '=', reminder.block_id).executeTakeFirst();
    if (!block || block.deleted_at !== null || block.page_id !== reminder.page_id) continue;
    if (!remindersIn(JSON.parse(block.data)).some((r) => r.remindAt === reminder.remind_at)) continue;
    const found = await db.selectFrom('pages').selectAll().where('id', '=', reminder.page_id).executeTakeFirst();
    // Not in the trash, nor synced content whose holder is (isWritable: live as far as writes go).
    if (!found || !(await isWritable(db, found))) continue;
    if ((await pageAccessLevel(db, reminder.user_id, found)) === 'none') continue;
    // A synced block's content is shown on the page it was made on: the reminder leads there.
    const page = shownPageOf(found) === found.id ? found : await db.selectFrom('pages').selectAll().where('id', '=', shownPageOf(found)).executeTakeFirst();
    if (!page) continue;
    const user = await db.selectFrom('users').select(['email']).where('id', '=', reminder.user_id).executeTakeFirst();
    if (!user) continue;
    const notificationId = await createNotification(db, {
      userId: reminder.user_id,
      workspaceId: page.workspace_id,
      pageId: page.id,
      name: 'reminders.due',
      context: {
        elementId: page.id,
        blockId: reminder.block_id,
        senderId: reminder.user_id,
        label: reminder.label,
        start: reminder.start,
        remindAt: reminder.remind_at,
      },
    });
    told += 1;
    delivery.dispatch([{ kind: 'notified', userId: reminder.user_id, workspaceId: page.workspace_id, notificationId }]);
    const link = `${delivery.publicUrl.replace(/\/+$/, '')}/${page.id}?block=${encodeURIComponent(reminder.block_id)}`;
    await delivery.mailer.send({ to: user.email, ...reminderMail(reminder.label, page.title, link) }).catch((error: unknown) => {
      delivery.log.error({ err: error, reminder: reminder.id }, 'sending a reminder e-mail failed');
    });
  }
  await db
    .deleteFrom('reminders')
    .where('sent_at', 'is not', null)
    .where('remind_at', '<', new Date(now.getTime() - KEEP_SENT_MS).toISOString())
    .execute();
  return told;
}

/** How long until the next reminder is due (at most REMINDER_TICK_MS; 0 when one is due). */
async function untilNext(db: Kysely<Database>): Promise<number> {
  const next = await db.selectFrom('reminders').select('remind_at').where('sent_at', 'is', null).orderBy('remind_at').limit(1).executeTakeFirst();
  if (!next) return REMINDER_TICK_MS;
  return Math.max(0, Math.min(REMINDER_TICK_MS, Date.parse(next.remind_at) - Date.now()));
}

/** The reminder worker: sends what is due, then sleeps until the next one (or a tick, or a new one noted here). */
export function reminderWorker(db: Kysely<Database>, delivery: ReminderDelivery): BackgroundLoop {
  return new WakeableLoop(
    reminderWakers,
    async () => {
      await sendDueReminders(db, delivery);
      return untilNext(db);
    },
    delivery.log,
    'sending reminders failed; trying again',
    REMINDER_TICK_MS,
  );
}

import { setTimeout as sleep } from 'node:timers/promises';
import type { WireBlock } from '../../schema/block';
import type { WireNotification } from '../../schema/notification';
import type { WireReminder } from '../../schema/reminder';
import { actor, createPage, share, type Actor } from '../../test/helpers/pages';
import { api, body, CapturingMailer, createTestApp, errorCode, expectOk, type TestApp } from '../../test/helpers/testApp';
import { buildApp } from '../app';
import { sendDueReminders, type ReminderDelivery } from './send';

/*
 * Reminders of date mentions (issue 39 §2) on a real server and the project's database: written
 * in a block's text, noted for the person who wrote them, told when due — an inbox notification
 * and an e-mail — once; not told when the mention went, the block was deleted or its author may
 * no longer read the page; and after a restart the new process tells what the old one left.
 */

let t: TestApp;
let ann: Actor;
let bob: Actor;
const S = '/api/v3/spaces';

beforeAll(async () => {
  t = await createTestApp({ sendCodeLimitPerIp: 10_000 });
  ann = await actor(t, 'ann.reminders@example.com');
  bob = await actor(t, 'bob.reminders@example.com');
});
afterAll(async () => {
  await t.close();
});

const inHours = (hours: number) => new Date(Date.now() + hours * 3_600_000);
const mention = (at: Date, label = '11 декабря 2026, 15:00') => ({ text: label, date: { start: '2026-12-11T15:00', remindAt: at.toISOString() } });
const delivery = (mailer = t.mailer): ReminderDelivery & { told: string[] } => {
  const told: string[] = [];
  return {
    mailer,
    publicUrl: 'https://wiki.example.com/',
    dispatch: (events) => told.push(...events.map((e) => e.kind)),
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
    told,
  };
};
const remindersOf = async (who: Actor) => expectOk<WireReminder[]>(await api(t, who.cookie, 'GET', `${S}/reminders`));
const notificationsOf = async (who: Actor) => body<WireNotification[]>(await api(t, who.cookie, 'GET', '/api/notifications')).data;
const makeBlock = async (who: Actor, pageId: string, tokens: unknown[]) =>
  expectOk<WireBlock>(await api(t, who.cookie, 'POST', `${S}/block`, { pageId, type: 'text', data: { tokens } }), 201);

test('a reminder written in a block is told its writer when due: the inbox, an e-mail, once; a co-editor does not take it over', async () => {
  const page = await createPage(t, ann, { title: 'Планёрка' });
  await share(t, ann, page.id, [{ userId: bob.id, accessLevel: 'edit' }]);
  const at = inHours(2);
  const block = await makeBlock(ann, page.id, [{ text: 'Созвон ' }, mention(at)]);
  expect(await remindersOf(ann)).toEqual([
    { id: expect.any(String), pageId: page.id, blockId: block.id, remindAt: at.toISOString(), start: '2026-12-11T15:00', label: '11 декабря 2026, 15:00' },
  ]);
  // Bob edits the text around it: still Ann's.
  const edited = expectOk<WireBlock>(
    await api(t, bob.cookie, 'POST', `${S}/block/${block.id}`, {
      version: block.version,
      type: 'text',
      data: { tokens: [{ text: 'Созвон с заказчиком ' }, mention(at)] },
    }),
  );
  expect(edited.version).toBe(block.version + 1);
  expect(await remindersOf(bob)).toEqual([]);
  expect((await remindersOf(ann)).map((r) => r.blockId)).toEqual([block.id]);

  // Not due yet: nothing.
  const early = delivery();
  expect(await sendDueReminders(t.app.db, early, new Date(at.getTime() - 1_000))).toBe(0);
  const mails = t.mailer.messages.length;
  const due = delivery();
  expect(await sendDueReminders(t.app.db, due, new Date(at.getTime() + 1_000))).toBe(1);
  expect(due.told).toEqual(['notified']);
  const [notification] = (await notificationsOf(ann)).filter((n) => n.name === 'reminders.due');
  expect(notification).toMatchObject({
    name: 'reminders.due',
    is_read: false,
    context: {
      elementId: page.id,
      blockId: block.id,
      senderId: ann.id,
      label: '11 декабря 2026, 15:00',
      start: '2026-12-11T15:00',
      remindAt: at.toISOString(),
    },
  });
  expect((await notificationsOf(bob)).some((n) => n.name === 'reminders.due')).toBe(false);
  expect(t.mailer.messages.slice(mails)).toEqual([
    {
      to: 'ann.reminders@example.com',
      subject: 'Напоминание: 11 декабря 2026, 15:00',
      text: `Напоминание на странице «Планёрка»: 11 декабря 2026, 15:00.\n\nОткрыть: https://wiki.example.com/${page.id}?block=${block.id}\n`,
    },
  ]);
  // Once: a second round (another process) tells nothing.
  expect(await sendDueReminders(t.app.db, delivery(), new Date(at.getTime() + 5_000))).toBe(0);
  expect(await remindersOf(ann)).toEqual([]);
});

test('not told: the mention deleted or moved to another time, the block deleted, the page no longer readable', async () => {
  const page = await createPage(t, ann, { title: 'Отменено' });
  const at = inHours(3);
  const removed = await makeBlock(ann, page.id, [mention(at, 'первое')]);
  expectOk(await api(t, ann.cookie, 'POST', `${S}/block/${removed.id}`, { version: removed.version, type: 'text', data: { tokens: [{ text: 'без даты' }] } }));
  const moved = await makeBlock(ann, page.id, [mention(at, 'второе')]);
  const later = new Date(at.getTime() + 3_600_000);
  expectOk(await api(t, ann.cookie, 'POST', `${S}/block/${moved.id}`, { version: moved.version, type: 'text', data: { tokens: [mention(later, 'второе')] } }));
  const deleted = await makeBlock(ann, page.id, [mention(at, 'третье')]);
  expect((await api(t, ann.cookie, 'DELETE', `${S}/block/${deleted.id}`)).statusCode).toBeLessThan(300);

  // Bob's reminder on a page shared with him, then unshared.
  const shared = await createPage(t, ann, { title: 'Общая' });
  await share(t, ann, shared.id, [{ userId: bob.id, accessLevel: 'edit' }]);
  await makeBlock(bob, shared.id, [mention(at, 'бобу')]);
  expect((await remindersOf(bob)).map((r) => r.label)).toEqual(['бобу']);
  const members = await api(t, ann.cookie, 'POST', `${S}/element/${shared.id}/member/remove`, { userId: bob.id });
  expect(members.statusCode).toBeLessThan(300);
  expect(await remindersOf(bob)).toEqual([]);

  const before = { ann: (await notificationsOf(ann)).length, bob: (await notificationsOf(bob)).length };
  expect(await sendDueReminders(t.app.db, delivery(), new Date(at.getTime() + 1_000))).toBe(0);
  expect((await notificationsOf(ann)).length).toBe(before.ann);
  expect((await notificationsOf(bob)).length).toBe(before.bob);
  // The moved one goes off at its new time.
  expect(await sendDueReminders(t.app.db, delivery(), new Date(later.getTime() + 1_000))).toBe(1);
  expect((await notificationsOf(ann))[0]).toMatchObject({ name: 'reminders.due', context: { blockId: moved.id, label: 'второе' } });
});

test('a date mention is checked: a day that does not exist or a reminder that is no instant is refused', async () => {
  const page = await createPage(t, ann, { title: 'Проверка дат' });
  for (const date of [
    { start: '2026-02-31' },
    { start: '2026-12-11T24:00' },
    { start: 'завтра' },
    { start: '2026-12-11', remindAt: 'скоро' },
    { start: '2026-12-11', extra: 1 },
  ]) {
    const res = await api(t, ann.cookie, 'POST', `${S}/block`, { pageId: page.id, type: 'text', data: { tokens: [{ text: 'дата', date }] } });
    expect([JSON.stringify(date), res.statusCode, errorCode(res)]).toEqual([JSON.stringify(date), 422, 'validation_failed']);
  }
  // A date without a reminder notes nothing.
  await makeBlock(ann, page.id, [{ text: '11 декабря 2026', date: { start: '2026-12-11' } }]);
  expect((await remindersOf(ann)).filter((r) => r.pageId === page.id)).toEqual([]);
});

test('after a restart the new process tells what was due', async () => {
  const page = await createPage(t, ann, { title: 'Перезапуск' });
  const at = new Date(Date.now() + 1_500);
  const block = await makeBlock(ann, page.id, [mention(at, 'после перезапуска')]);
  // The server stops before it is due; another starts on the same database.
  await t.app.close();
  const mailer = new CapturingMailer();
  const again = await buildApp(t.config, { logger: false, mailer });
  await again.ready();
  try {
    const started = Date.now();
    while (!mailer.messages.some((m) => m.subject === 'Напоминание: после перезапуска')) {
      if (Date.now() - started > 20_000) throw new Error('the reminder was not sent after the restart');
      await sleep(100);
    }
    expect(Date.now()).toBeGreaterThanOrEqual(at.getTime());
    const row = await again.db.selectFrom('notifications').selectAll().where('name', '=', 'reminders.due').where('page_id', '=', page.id).execute();
    expect(row.map((r) => JSON.parse(r.context).blockId)).toEqual([block.id]);
  } finally {
    // The test app's close drops the database: the second server is what runs now.
    t.app = again;
  }
}, 30_000);

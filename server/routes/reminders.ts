import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { WireReminder } from '../../schema/reminder';
import { requireUser } from '../plugins/auth';
import { envelope } from '../presenters';
import { pageAccessLevels } from '../policies/page';
import { SYNCED_CONTENT } from '../db/types';
import { shownPageOf } from '../repositories/syncedContent';

/** At most this many upcoming reminders are listed. */
const LISTED = 100;

/**
 * The caller's reminders still to go off (issue 39 §2, docs/api/blocks.md «Date mentions and
 * reminders»): soonest first, on pages they may still read. A reminder is made and removed by
 * writing its date mention in a block's text; nothing here changes one. One in a synced block's
 * content names the page the synced block was made on (docs/api/blocks.md «Synced blocks»).
 */
export async function reminderRoutes(server: FastifyInstance) {
  const app = server.withTypeProvider<ZodTypeProvider>();
  app.get('/api/v3/spaces/reminders', { schema: { tags: ['blocks'], summary: "The caller's reminders still to go off, soonest first" } }, async (request) => {
    const user = requireUser(request);
    const rows = await app.db
      .selectFrom('reminders')
      .innerJoin('pages', 'pages.id', 'reminders.page_id')
      .leftJoin('pages as holder', 'holder.id', 'pages.parent_id')
      .selectAll('reminders')
      .where('reminders.user_id', '=', user.id)
      .where('reminders.sent_at', 'is', null)
      // Live pages, and synced content whose holder is not in the trash.
      .where((eb) => eb.or([eb('pages.in_trash', '=', 0), eb.and([eb('pages.in_trash', '=', SYNCED_CONTENT), eb('holder.in_trash', '=', 0)])]))
      .orderBy('reminders.remind_at')
      .limit(LISTED)
      .execute();
    const pages = await app.db
      .selectFrom('pages')
      .selectAll()
      .where('id', 'in', rows.length > 0 ? [...new Set(rows.map((row) => row.page_id))] : [''])
      .execute();
    const levels = await pageAccessLevels(app.db, user.id, pages);
    const shown = new Map(pages.map((page) => [page.id, shownPageOf(page)]));
    const reminders: WireReminder[] = rows
      .filter((row) => (levels.get(row.page_id) ?? 'none') !== 'none')
      .map((row) => ({
        id: row.id,
        pageId: shown.get(row.page_id) ?? row.page_id,
        blockId: row.block_id,
        remindAt: row.remind_at,
        start: row.start,
        label: row.label,
      }));
    return envelope(reminders);
  });
}

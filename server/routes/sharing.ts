import { shownEmail } from '../repositories/users';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../config';
import type { Mailer } from '../mail';
import { idParams } from '../../schema/params';
import { canEdit, canShare } from '../../schema/policies/page';
import {
  addPageMembersBodySchema,
  memberAccessBodySchema,
  removePageMemberBodySchema,
  type GrantableLevel,
  type WireElementMember,
} from '../../schema/sharing';
import { changePageMember, sharePage } from '../commands/sharing/members';
import type { Database, PageRow, UserRow } from '../db/types';
import { requireUser } from '../plugins/auth';
import { authorizePage } from '../policies/page';
import { envelope, presentUser } from '../presenters';
import { listEffectiveMembers } from '../repositories/pageMembers';
import { loadPage } from '../repositories/pages';

/**
 * The members of a page on the wire: explicit grants on it or inherited from an ancestor. People
 * in `invited` (just brought into the workspace by this call) show only their id and e-mail.
 */
async function presentMembers(db: Kysely<Database>, page: PageRow, invited: ReadonlySet<string> = new Set()): Promise<WireElementMember[]> {
  return (await listEffectiveMembers(db, page)).map((m) => ({
    contentType: 'ElementMember',
    page: page.id,
    member: m.user.id,
    level: m.level as GrantableLevel,
    canEdit: canEdit(m.level),
    canShare: canShare(m.level),
    inherited: m.grantedOn !== page.id,
    grantedOn: m.grantedOn,
    user: invited.has(m.user.id) ? { id: m.user.id, email: shownEmail(m.user) } : presentUser(m.user),
  }));
}

function invitationText(sender: UserRow, page: PageRow, link: string): { subject: string; text: string } {
  const title = page.title.trim() || 'Без названия';
  return {
    subject: `${sender.name} открыл(а) вам доступ к странице «${title}»`,
    text:
      `${sender.name} (${shownEmail(sender)}) приглашает вас к странице «${title}».\n\n` +
      `Открыть: ${link}\n\n` +
      'Чтобы войти, укажите этот адрес почты: мы пришлём код для входа.\n',
  };
}

export async function sharingRoutes(server: FastifyInstance, { config, mailer }: { config: Config; mailer: Mailer }) {
  const app = server.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/v3/spaces/element/:id/members',
    { schema: { tags: ['sharing'], summary: 'People with access to a page through a grant, with their levels', params: idParams } },
    async (request) => {
      const user = requireUser(request);
      const page = await loadPage(app.db, request.params.id);
      await authorizePage(app.db, user.id, page, 'read');
      const members = await presentMembers(app.db, page);
      return envelope(members, { count: members.length, hasMoreNext: false });
    },
  );

  app.post(
    '/api/v3/spaces/element/:id/member/add',
    {
      schema: {
        tags: ['sharing'],
        summary: 'Share a page with people (by user id or e-mail); people from outside the workspace by its admins only',
        params: idParams,
        body: addPageMembersBodySchema,
      },
    },
    async (request) => {
      const user = requireUser(request);
      const outcome = await sharePage(app.db, user.id, request.params.id, request.body, config.inviteLimitPeople);
      const { page } = outcome;
      await app.events.dispatch(outcome.events, null);

      // Everyone new to the workspace hears about it by e-mail (people already in it see the
      // notification); a mail failure does not undo the share.
      const link = `${config.publicUrl.replace(/\/+$/, '')}/${page.id}`;
      const notMailed: string[] = [];
      for (const invitee of outcome.admitted) {
        await mailer.send({ to: invitee.email, ...invitationText(user, page, link) }).catch((error: unknown) => {
          request.log.warn({ err: error, to: invitee.email }, 'could not send a page invitation');
          notMailed.push(invitee.email);
        });
      }

      const list = await presentMembers(app.db, page, new Set(outcome.admitted.map((u) => u.id)));
      return envelope(list, { count: list.length, hasMoreNext: false, added: outcome.added, skipped: outcome.skipped, notMailed });
    },
  );

  app.post(
    '/api/v3/spaces/element/:id/member/remove',
    { schema: { tags: ['sharing'], summary: "Remove a person's grant on a page", params: idParams, body: removePageMemberBodySchema } },
    async (request) => {
      const user = requireUser(request);
      const { page, events } = await changePageMember(app.db, user.id, request.params.id, request.body.userId, 'inherit');
      // Once this answers, nothing of the page reaches them any more (docs/realtime.md).
      await app.events.dispatch(events, null);
      const list = await presentMembers(app.db, page);
      return envelope(list, { count: list.length, hasMoreNext: false });
    },
  );

  app.post(
    '/api/v3/spaces/element/:id/member/access',
    { schema: { tags: ['sharing'], summary: "Change a member's level on a page", params: idParams, body: memberAccessBodySchema } },
    async (request) => {
      const user = requireUser(request);
      const { page } = await changePageMember(app.db, user.id, request.params.id, request.body.userId, request.body.accessLevel);
      const list = await presentMembers(app.db, page);
      return envelope(list, { count: list.length, hasMoreNext: false });
    },
  );
}

import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../config';
import type { Mailer } from '../mail';
import type { AccessLevel, WorkspaceRole } from '../../schema/constants';
import { ERROR_CODES } from '../../schema/errors';
import { idParams } from '../../schema/params';
import {
  addPageMembersBodySchema,
  memberAccessBodySchema,
  removePageMemberBodySchema,
  type GrantableLevel,
  type MemberEntry,
  type SkippedMember,
  type WireElementMember,
} from '../../schema/sharing';
import type { Database, PageRow, UserRow } from '../db/types';
import { AppError, notFound } from '../errors';
import { requireUser } from '../plugins/auth';
import { canEdit, canShare, roleDefault } from '../../schema/policies/page';
import { needsHeldAbove, protectedMemberRefusal, type HeldAbove, type MemberLevelAfter, type MemberLevelChange, type ProtectedMemberReason } from '../../schema/policies/sharing';
import { INVITE_LIMIT, canBringInOutsiders } from '../../schema/policies/workspace';
import { authorizePage, pageAccessLevel } from '../policies/page';
import { envelope, presentUser } from '../presenters';
import { createNotification } from '../repositories/notifications';
import { findGrant, listEffectiveMembers, removeGrant, setGrantLevel, upsertGrant } from '../repositories/pageMembers';
import { findPage, pagePath } from '../repositories/pages';
import {
  admitPeople,
  checkInviteQuota,
  findMembership,
  inMembershipTransaction,
  resolvePeople,
  type NamedPerson,
  type PersonRef,
} from '../repositories/workspaces';

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
    user: invited.has(m.user.id) ? { id: m.user.id, email: m.user.email } : presentUser(m.user),
  }));
}

function invitationText(sender: UserRow, page: PageRow, link: string): { subject: string; text: string } {
  const title = page.title.trim() || 'Без названия';
  return {
    subject: `${sender.name} открыл(а) вам доступ к странице «${title}»`,
    text:
      `${sender.name} (${sender.email}) приглашает вас к странице «${title}».\n\n` +
      `Открыть: ${link}\n\n` +
      'Чтобы войти, укажите этот адрес почты: мы пришлём код для входа.\n',
  };
}

const protectedMember = (message: string) => new AppError(403, ERROR_CODES.sharingProtectedMember, message);

/** The root of the page's tree: the page itself at a section root. */
async function rootOf(db: Kysely<Database>, page: PageRow): Promise<PageRow> {
  const rootId = pagePath(page)[0];
  if (rootId === undefined) return page;
  return (await findPage(db, rootId)) ?? page;
}

async function roleIn(db: Kysely<Database>, workspaceId: string, userId: string): Promise<WorkspaceRole | undefined> {
  return (await findMembership(db, workspaceId, userId))?.role;
}

/** The refusals of `protectedMemberRefusal` as the API words them. */
const PROTECTED_MESSAGES: Record<ProtectedMemberReason, string> = {
  ownerRoot: "the grant of the page tree's owner on its root page cannot be changed",
  ownerBelowFull: "the page tree's owner keeps full access on every page of it",
  fullThroughGrant: 'this person holds full access through a page above; only someone with full access there may lower it',
  fullThroughRole: 'an admin holds full access here through their role; only an admin may lower it',
};

/**
 * What `targetId` holds on `page` apart from a grant there (the facts `protectedMemberRefusal`
 * judges): the nearest ancestor grant of theirs, else their role in the tree's section; and, when
 * that is full, whether the caller holds full there too.
 */
async function heldAbove(db: Kysely<Database>, callerId: string, page: PageRow, root: PageRow, targetId: string): Promise<HeldAbove> {
  const ancestors = pagePath(page).reverse();
  const grants = ancestors.length === 0
    ? []
    : await db.selectFrom('page_members').select(['page_id', 'level']).where('user_id', '=', targetId).where('page_id', 'in', ancestors).execute();
  const levelOn = new Map(grants.map((g) => [g.page_id, g.level as AccessLevel]));
  const sourceId = ancestors.find((id) => levelOn.has(id));
  if (sourceId !== undefined) {
    const level = levelOn.get(sourceId) as AccessLevel;
    if (level !== 'full') return { level, from: 'grant' };
    const source = await findPage(db, sourceId);
    return { level, from: 'grant', callerFullThere: !!source && (await pageAccessLevel(db, callerId, source)) === 'full' };
  }
  const targetRole = await roleIn(db, page.workspace_id, targetId);
  const level = targetRole ? roleDefault(targetRole, root.section) : 'none';
  if (level !== 'full') return { level, from: 'role' };
  const callerRole = await roleIn(db, page.workspace_id, callerId);
  return { level, from: 'role', callerFullThere: !!callerRole && roleDefault(callerRole, root.section) === 'full' };
}

/**
 * Refuses (403 sharing.protected_member) a change that would leave `targetId` with less than full
 * access on `page` when they are protected there (`protectedMemberRefusal`,
 * docs/adr/0002-sharing-and-membership.md). `after` is the target's level on the page after the
 * change: a level, or `inherit` when the grant on the page is removed.
 */
async function checkMayLower(
  db: Kysely<Database>,
  callerId: string,
  page: PageRow,
  root: PageRow,
  targetId: string,
  after: MemberLevelAfter,
): Promise<void> {
  const change: MemberLevelChange = { after, onRoot: page.id === root.id, targetOwnsTree: targetId === root.created_by };
  const above = needsHeldAbove(change) ? await heldAbove(db, callerId, page, root, targetId) : undefined;
  const refusal = protectedMemberRefusal(change, above);
  if (refusal) throw protectedMember(PROTECTED_MESSAGES[refusal]);
}

const refOf = (entry: MemberEntry): PersonRef => (entry.userId !== undefined ? { userId: entry.userId } : { email: entry.email as string });

export async function sharingRoutes(server: FastifyInstance, { config, mailer }: { config: Config; mailer: Mailer }) {
  const app = server.withTypeProvider<ZodTypeProvider>();

  async function loadPage(id: string): Promise<PageRow> {
    const page = await findPage(app.db, id);
    if (!page) throw notFound('page');
    return page;
  }

  /** The page to change the members of: only full access shares, and not while it is in the trash. */
  async function pageToShare(user: UserRow, id: string): Promise<{ page: PageRow }> {
    const page = await loadPage(id);
    await authorizePage(app.db, user.id, page, 'share');
    if (page.in_trash === 1) throw new AppError(409, ERROR_CODES.pageInTrash, 'the page is in the trash; restore it first');
    return { page };
  }

  app.get('/api/v3/spaces/element/:id/members', { schema: { tags: ['sharing'], summary: 'People with access to a page through a grant, with their levels', params: idParams } }, async (request) => {
    const user = requireUser(request);
    const page = await loadPage(request.params.id);
    await authorizePage(app.db, user.id, page, 'read');
    const members = await presentMembers(app.db, page);
    return envelope(members, { count: members.length, hasMoreNext: false });
  });

  app.post('/api/v3/spaces/element/:id/member/add', { schema: { tags: ['sharing'], summary: 'Share a page with people (by user id or e-mail); people from outside the workspace by its admins only', params: idParams, body: addPageMembersBodySchema } }, async (request) => {
    const user = requireUser(request);
    const { page } = await pageToShare(user, request.params.id);
    const entries = request.body;

    // Everything is checked before anything is written: a refused call creates no account,
    // membership or grant, and sends no mail.
    const notes: Array<{ userId: string; id: string }> = [];
    const outcome = await inMembershipTransaction(app.db, page.workspace_id, async (trx) => {
      const people = await resolvePeople(trx, page.workspace_id, entries.map(refOf), 'body');
      const root = await rootOf(trx, page);
      const skipped: SkippedMember[] = [];
      const targets: NamedPerson[] = [];
      for (const person of people) {
        const reported = 'userId' in person.ref ? { userId: person.ref.userId } : { email: person.ref.email };
        if (person.user?.id === user.id) skipped.push({ ...reported, reason: 'self' });
        else if (person.user?.id === root.created_by) skipped.push({ ...reported, reason: 'owner' });
        else targets.push(person);
      }
      const newcomers = targets.filter((p) => !p.member);
      if (newcomers.length > 0) {
        const role = await roleIn(trx, page.workspace_id, user.id);
        if (!role || !canBringInOutsiders(role)) {
          throw new AppError(403, ERROR_CODES.sharingOutsiderNeedsAdmin, 'only admins of the workspace may share with people who are not members of it');
        }
      }
      for (const person of targets) {
        if (person.member && person.user) await checkMayLower(trx, user.id, page, root, person.user.id, entries[person.index].accessLevel);
      }
      await checkInviteQuota(trx, user.id, newcomers.length, INVITE_LIMIT);
      const admitted = await admitPeople(trx, page.workspace_id, user.id, newcomers.map((person) => ({ person, role: 'guest' as const })));
      const userOf = new Map(newcomers.map((p, i) => [p.index, admitted[i]]));

      const added: string[] = [];
      for (const person of targets) {
        const userId = (person.user ?? (userOf.get(person.index) as UserRow)).id;
        if (await upsertGrant(trx, page.id, userId, entries[person.index].accessLevel)) added.push(userId);
      }
      for (const userId of added) {
        notes.push({ userId, id: await createNotification(trx, {
          userId,
          workspaceId: page.workspace_id,
          pageId: page.id,
          name: 'element_members.invite.member',
          context: { elementId: page.id, senderId: user.id },
        }) });
      }
      return { skipped, added, admitted };
    });
    for (const note of notes) app.realtime.notified(note.userId, page.workspace_id, note.id);

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
  });

  app.post('/api/v3/spaces/element/:id/member/remove', { schema: { tags: ['sharing'], summary: "Remove a person's grant on a page", params: idParams, body: removePageMemberBodySchema } }, async (request) => {
    const user = requireUser(request);
    const { page } = await pageToShare(user, request.params.id);
    const { userId } = request.body;
    if (!(await findGrant(app.db, page.id, userId))) throw notFound('member of this page');
    await checkMayLower(app.db, user.id, page, await rootOf(app.db, page), userId, 'inherit');
    await removeGrant(app.db, page.id, userId);
    const list = await presentMembers(app.db, page);
    return envelope(list, { count: list.length, hasMoreNext: false });
  });

  app.post('/api/v3/spaces/element/:id/member/access', { schema: { tags: ['sharing'], summary: "Change a member's level on a page", params: idParams, body: memberAccessBodySchema } }, async (request) => {
    const user = requireUser(request);
    const { page } = await pageToShare(user, request.params.id);
    const { userId, accessLevel } = request.body;
    if (!(await findGrant(app.db, page.id, userId))) throw notFound('member of this page');
    await checkMayLower(app.db, user.id, page, await rootOf(app.db, page), userId, accessLevel);
    await setGrantLevel(app.db, page.id, userId, accessLevel);
    const list = await presentMembers(app.db, page);
    return envelope(list, { count: list.length, hasMoreNext: false });
  });
}

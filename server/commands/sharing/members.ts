import type { Kysely } from 'kysely';
import { ERROR_CODES } from '../../../schema/errors';
import { INVITE_LIMIT, canBringInOutsiders } from '../../../schema/policies/workspace';
import type { GrantableLevel, MemberEntry, SkippedMember } from '../../../schema/sharing';
import type { Database, PageRow, UserRow } from '../../db/types';
import { AppError, notFound } from '../../errors';
import { assertNotSyncedContent, authorizePage } from '../../policies/page';
import { createNotification } from '../../repositories/notifications';
import { findGrant, removeGrant, setGrantLevel, upsertGrant } from '../../repositories/pageMembers';
import { loadPage } from '../../repositories/pages';
import { admitPeople, inMembershipTransaction, resolvePeople, type NamedPerson, type PersonRef } from '../../repositories/workspaces';
import { checkInviteQuota } from '../workspaces/members';
import { checkMayLower, roleIn, rootOf } from './mayLower';
import type { DomainEvent } from '../../events/events';

/** The page whose members change: only full access shares, and not while it is in the trash; never a synced block's content (its access is its holder's). */
async function pageToShare(db: Kysely<Database>, userId: string, id: string): Promise<PageRow> {
  const page = await loadPage(db, id);
  await authorizePage(db, userId, page, 'share');
  assertNotSyncedContent(page);
  if (page.in_trash === 1) throw new AppError(409, ERROR_CODES.pageInTrash, 'the page is in the trash; restore it first');
  return page;
}

const refOf = (entry: MemberEntry): PersonRef => (entry.userId !== undefined ? { userId: entry.userId } : { email: entry.email as string });

/** What a share did: the grants made or changed, the people skipped, the people brought into the workspace (to be mailed) and the notifications made (to be told). */
export interface ShareOutcome {
  page: PageRow;
  added: string[];
  skipped: SkippedMember[];
  admitted: UserRow[];
  /** The notifications made (`notified`). */
  events: DomainEvent[];
}

/**
 * Shares a page with people, by user id or e-mail, at a level each. The caller needs full access;
 * the caller and the tree's owner are skipped; people from outside the workspace only by its
 * admins (403 sharing.outsider_needs_admin), within the caller's invitation quota, and they join as
 * guests; nobody protected on the page is lowered (403 sharing.protected_member). Everything is
 * checked before anything is written: a refused call creates no account, membership, grant or
 * notification.
 */
export async function sharePage(
  db: Kysely<Database>,
  userId: string,
  pageId: string,
  entries: readonly MemberEntry[],
  invitePeople: number = INVITE_LIMIT.people,
): Promise<ShareOutcome> {
  const page = await pageToShare(db, userId, pageId);
  const events: DomainEvent[] = [];
  const outcome = await inMembershipTransaction(db, page.workspace_id, async (trx) => {
    const people = await resolvePeople(trx, page.workspace_id, entries.map(refOf), 'body');
    const root = await rootOf(trx, page);
    const skipped: SkippedMember[] = [];
    const targets: NamedPerson[] = [];
    for (const person of people) {
      const reported = 'userId' in person.ref ? { userId: person.ref.userId } : { email: person.ref.email };
      if (person.user?.id === userId) skipped.push({ ...reported, reason: 'self' });
      else if (person.user?.id === root.created_by) skipped.push({ ...reported, reason: 'owner' });
      else targets.push(person);
    }
    const newcomers = targets.filter((p) => !p.member);
    if (newcomers.length > 0) {
      const role = await roleIn(trx, page.workspace_id, userId);
      if (!role || !canBringInOutsiders(role)) {
        throw new AppError(403, ERROR_CODES.sharingOutsiderNeedsAdmin, 'only admins of the workspace may share with people who are not members of it');
      }
    }
    for (const person of targets) {
      if (person.member && person.user) await checkMayLower(trx, userId, page, root, person.user.id, entries[person.index].accessLevel);
    }
    await checkInviteQuota(trx, userId, newcomers.length, invitePeople);
    const admitted = await admitPeople(
      trx,
      page.workspace_id,
      userId,
      newcomers.map((person) => ({ person, role: 'guest' as const })),
    );
    const userOf = new Map(newcomers.map((p, i) => [p.index, admitted[i]]));

    const added: string[] = [];
    for (const person of targets) {
      const memberId = (person.user ?? (userOf.get(person.index) as UserRow)).id;
      if (await upsertGrant(trx, page.id, memberId, entries[person.index].accessLevel)) added.push(memberId);
    }
    for (const memberId of added) {
      events.push({
        kind: 'notified',
        userId: memberId,
        workspaceId: page.workspace_id,
        notificationId: await createNotification(trx, {
          userId: memberId,
          workspaceId: page.workspace_id,
          pageId: page.id,
          name: 'element_members.invite.member',
          context: { elementId: page.id, senderId: userId },
        }),
      });
    }
    return { skipped, added, admitted };
  });
  return { page, events, ...outcome };
}

/**
 * Changes a person's grant on a page (a level, or `inherit`: the grant removed). The caller needs
 * full access; 404 when the person has no grant on the page; nobody protected there is lowered
 * (403 sharing.protected_member). Answers the page, and `accessLost` when the grant was removed.
 */
export async function changePageMember(
  db: Kysely<Database>,
  callerId: string,
  pageId: string,
  userId: string,
  level: GrantableLevel | 'inherit',
): Promise<{ page: PageRow; events: DomainEvent[] }> {
  const page = await pageToShare(db, callerId, pageId);
  if (!(await findGrant(db, page.id, userId))) throw notFound('member of this page');
  await checkMayLower(db, callerId, page, await rootOf(db, page), userId, level);
  if (level === 'inherit') await removeGrant(db, page.id, userId);
  else await setGrantLevel(db, page.id, userId, level);
  return { page, events: level === 'inherit' ? [{ kind: 'accessLost', userId }] : [] };
}

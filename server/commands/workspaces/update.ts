import type { Kysely } from 'kysely';
import { mayBePrivate } from '../../../schema/policies/workspace';
import type { Database } from '../../db/types';
import { invalid } from '../../errors';
import { countMembers, inMembershipTransaction, updateWorkspaceRow, type WorkspacePatch, type WorkspaceWithRole } from '../../repositories/workspaces';
import { authorizeWorkspace } from './members';

/**
 * Changes a workspace's name, avatar or private flag (admins). It is made private only while it
 * has no other member (422; counted under the membership lock, so a member added at once cannot
 * slip in). Answers the caller's membership as it was read.
 */
export async function updateWorkspaceSettings(db: Kysely<Database>, userId: string, workspaceId: string, patch: WorkspacePatch): Promise<WorkspaceWithRole> {
  const membership = await authorizeWorkspace(db, workspaceId, userId, 'update');
  await inMembershipTransaction(db, membership.id, async (trx) => {
    if (patch.private === true && !mayBePrivate(await countMembers(trx, membership.id))) {
      throw invalid('a workspace with other members cannot be private; remove them first');
    }
    await updateWorkspaceRow(trx, membership.id, patch);
  });
  return membership;
}

import type { Kysely } from 'kysely';
import { fieldOf, type DatabaseConfig, type RowValue } from '../../../schema/blocks/database';
import { ERROR_CODES } from '../../../schema/errors';
import { inChunks } from '../../db/inChunks';
import type { Database, PageRow } from '../../db/types';
import { AppError } from '../../errors';
import { findVisibleUsers } from '../../repositories/users';
import { membersAmong } from '../../repositories/workspaces';

/*
 * People in a database's cells (docs/api/databases.md «People»; docs/security.md «What a public
 * reader can see»).
 *
 * Who a person cell may name: the members of the workspace holding the database's page, whatever
 * their role. «The people the page is shared with» are among them: a grant on a page (or an
 * ancestor, inherited) counts only for a member of its workspace (server/policies/page.ts), and
 * sharing a page with an outsider makes them a guest first. Anyone else → 422
 * database.person_unknown. Values already stored that name someone who is no member (any more)
 * stay as they are: they are read as ids, and never turned into a name for a caller who could not
 * see that person otherwise (`peopleNamesFor`: the placeholder instead).
 */

/** What a person shows as to a caller who may not see their name: the published page's «Участник». */
export const PERSON_PLACEHOLDER = 'Участник';

/** The ids among `ids` that are no member of the workspace. */
async function strangersIn(db: Kysely<Database>, workspaceId: string, ids: readonly string[]): Promise<Set<string>> {
  const members = await membersAmong(db, workspaceId, [...new Set(ids)]);
  return new Set(ids.filter((id) => !members.has(id)));
}

/** A person cell's value about to be written, where it is in the request. */
export interface PersonWrite {
  path: string;
  fieldId: string;
  value: RowValue;
}

/**
 * The person values of a write name members of the holder's workspace only, else 422
 * database.person_unknown with the paths of the values naming someone else (nothing written).
 * Cells of other fields are passed over.
 */
export async function assertPeopleNameable(db: Kysely<Database>, holder: PageRow, config: DatabaseConfig, writes: readonly PersonWrite[]): Promise<void> {
  const people = writes.filter((w) => fieldOf(config, w.fieldId)?.type === 'person' && Array.isArray(w.value));
  if (people.length === 0) return;
  const strangers = await strangersIn(
    db,
    holder.workspace_id,
    people.flatMap((w) => w.value as string[]),
  );
  if (strangers.size === 0) return;
  const details = people
    .filter((w) => (w.value as string[]).some((id) => strangers.has(id)))
    .map((w) => ({ path: w.path, message: 'names someone who is no member of this workspace' }));
  throw new AppError(422, ERROR_CODES.databasePersonUnknown, 'a person cell names only members of the workspace', details);
}

/**
 * People's names as a caller may see them (a chart's labels, a board's columns' order, CSV and
 * export): a published page's reader (`viewerId` null) sees none; a signed-in caller the people
 * `POST /api/user/list` would name to them (`findVisibleUsers`: themselves and whoever shares a
 * workspace with them). Anyone else — a stranger named by an old value — is the placeholder: no
 * answer turns an id into a name the caller could not read otherwise.
 */
export function peopleNamesFor(db: Kysely<Database>, viewerId: string | null): (ids: readonly string[]) => Promise<Map<string, string>> {
  // Names already read by this function (one answer, one export): a 50,000-row export asks about each person once, not per row.
  const known = new Map<string, string>();
  return async (ids) => {
    if (viewerId !== null) {
      const unknown = [...new Set(ids)].filter((id) => !known.has(id));
      for (const chunk of inChunks(unknown)) {
        for (const id of chunk) known.set(id, PERSON_PLACEHOLDER);
        for (const user of await findVisibleUsers(db, viewerId, chunk)) known.set(user.id, user.name || user.email);
      }
    }
    return new Map(ids.map((id) => [id, known.get(id) ?? PERSON_PLACEHOLDER]));
  };
}

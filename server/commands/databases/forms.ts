import type { Kysely } from 'kysely';
import { checkRowValues, type DatabaseData, type DatabaseLayout } from '../../../schema/blocks/database';
import { formAnswerProblems, formQuestions, type SubmitFormBody, type WireForm } from '../../../schema/databaseForm';
import { allows } from '../../../schema/policies/page';
import type { Database, PageRow, UserRow } from '../../db/types';
import { forbidden, invalid, notFound, unauthorized } from '../../errors';
import { isPubliclyReadable, pageAccessLevel } from '../../policies/page';
import { databaseData, findDatabaseBlock } from '../../repositories/databases';
import { findPage } from '../../repositories/pages';
import { findMemberRole } from '../../repositories/workspaces';
import type { AuthorizedDatabase } from './database';
import { makeRows, type RowsOutcome } from './rows';

/*
 * Forms (docs/api/databases.md «Forms»): a view of type `form` read and answered by the people
 * its access lets in — readers of the page holding the database (`page`), also the workspace's
 * members and admins (`workspace`), also anyone with the link while the page is published
 * (`public`). An answer makes a row; one let in by the public link alone is recorded without its
 * sender (`ANONYMOUS_SUBMITTER`) and counted against the public limits (the route).
 */

/** Who made a row answered through a public form: nobody's id (the users API answers it as an anonymous placeholder). */
export const ANONYMOUS_SUBMITTER = 'anonymous';

/** A form found for a caller: its database, its view, and how the caller was let in. */
export interface OpenForm extends AuthorizedDatabase {
  layout: DatabaseLayout;
  /** Let in by the public link alone: the answer is anonymous and limited. */
  anonymous: boolean;
  /** The caller may read the database's page (and so the row they make). */
  reader: boolean;
  /** The caller may change the database (and so the form). */
  editor: boolean;
}

/**
 * The form view `viewId` of the database `databaseId`, for `user` (null: not signed in): 404 no
 * such form, 401/403 not let in, 404 in the trash (said after the access check). Named by its
 * database too: view uids are the clients' and need not be unique across databases, so a form
 * found by its uid alone could be another database's.
 */
export async function openForm(db: Kysely<Database>, user: UserRow | null, databaseId: string, viewId: string): Promise<OpenForm> {
  const block = await findDatabaseBlock(db, databaseId);
  const holder = block ? await findPage(db, block.page_id) : undefined;
  const data = block ? databaseData(block) : undefined;
  const layout = data?.view.layouts.find((l) => l.uid === viewId);
  if (!block || !holder || !data || !layout || layout.type !== 'form') throw notFound('form');
  const access = layout.form?.access ?? 'page';
  const level = user ? await pageAccessLevel(db, user.id, holder) : 'none';
  const reader = allows(level, 'read');
  const member = user !== null && access !== 'page' && (await memberOf(db, holder, user.id));
  const publicly = access === 'public' && isPubliclyReadable(holder);
  if (!reader && !member && !publicly) throw user ? forbidden('this form') : unauthorized();
  if (holder.in_trash === 1) throw notFound('form');
  return { block, holder, data, layout, anonymous: !reader && !member, reader, editor: allows(level, 'edit') };
}

/** A member or admin of the page's workspace (a guest comes in by the page's grants only). */
async function memberOf(db: Kysely<Database>, holder: PageRow, userId: string): Promise<boolean> {
  const role = await findMemberRole(db, holder.workspace_id, userId);
  return role === 'participant' || role === 'admin';
}

/** The form as its submitter reads it: the questions (field names, types, options), never a row. */
export function presentForm(form: OpenForm): WireForm {
  const { block, holder, data, layout } = form;
  return {
    viewId: layout.uid,
    databaseId: block.id,
    pageId: form.reader ? holder.id : null,
    title: data.title?.trim() || holder.title,
    name: layout.name ?? null,
    description: layout.form?.description ?? '',
    access: layout.form?.access ?? 'page',
    questions: formQuestions(data, layout),
    canEdit: form.editor,
    anonymous: form.anonymous,
  };
}

/** What in an answer the form as stored refuses (422, paths `values.…`): fields it does not ask, required ones blank, values that do not fit. */
function checkAnswer(data: DatabaseData, viewId: string, values: SubmitFormBody['values']): void {
  const layout = data.view.layouts.find((l) => l.uid === viewId);
  // Made into another view or deleted since it was read.
  if (!layout || layout.type !== 'form') throw notFound('form');
  const problems = [
    ...formAnswerProblems(formQuestions(data, layout), values),
    ...checkRowValues(data.config, values).map((p) => ({ ...p, path: p.path.replace('data.values', 'values') })),
  ];
  if (problems.length > 0) throw invalid('the answer does not fit the form', problems);
}

/**
 * An answer to an open form: a row made at the end of the database, by the submitter (anonymous:
 * by nobody), with the answered cells; checked against the form and the fields as stored in the
 * transaction that makes it. `admit` runs once the answer is checked, before the row is made (the
 * route's limits: a refused answer counts against none). Answers the row's id to a submitter who
 * may read it, else null.
 */
export async function submitForm(
  db: Kysely<Database>,
  user: UserRow | null,
  form: OpenForm,
  body: SubmitFormBody,
  admit: () => Promise<void> = async () => {},
): Promise<{ outcome: RowsOutcome; rowId: string | null }> {
  checkAnswer(form.data, form.layout.uid, body.values);
  await admit();
  const makerId = form.anonymous || !user ? ANONYMOUS_SUBMITTER : user.id;
  const outcome = await makeRows(db, makerId, form, { rows: [{ values: body.values }] }, (now) => checkAnswer(now, form.layout.uid, body.values));
  return { outcome, rowId: form.reader ? outcome.ids[0] : null };
}

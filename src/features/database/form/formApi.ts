import type { RowValue } from '../../../../schema/blocks/database';
import type { WireForm } from '../../../../schema/databaseForm';
import { api } from '../../../app/api';

/*
 * A form's calls (docs/api/databases.md «Forms»): its questions, and an answer that makes a row.
 * Apart from the database's calls (api.ts): the fill page (/form/{databaseId}/{viewId}) loads this and the
 * form's parts alone, none of the database's views.
 */

const path = (databaseId: string, viewId: string) => `/api/v3/spaces/database/${encodeURIComponent(databaseId)}/form/${encodeURIComponent(viewId)}`;

export const formApi = {
  /** The form as its submitter reads it: 401 not signed in (and not open publicly), 403 not let in, 404 no such form. */
  async read(databaseId: string, viewId: string): Promise<WireForm> {
    return (await api<WireForm>(path(databaseId, viewId))).data;
  },
  /** An answer: a new row; its id when the submitter may read the database. 422 (details by `values.<fieldId>`), 429 (`details.retryAfter`, s). */
  async submit(databaseId: string, viewId: string, values: Record<string, RowValue>): Promise<{ rowId: string | null }> {
    return (await api<{ rowId: string | null }>(path(databaseId, viewId), { method: 'POST', body: { values }, expected: [429] })).data;
  },
};

export type FormApi = typeof formApi;

/** A form's address in the app (the fill page), absolute when `origin` is given. */
export const formAddress = (databaseId: string, viewId: string, origin = ''): string =>
  `${origin}/form/${encodeURIComponent(databaseId)}/${encodeURIComponent(viewId)}`;

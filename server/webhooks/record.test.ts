import type { PageRow } from '../db/types';
import { ROW_TEMPLATE } from '../db/types';
import type { DomainEvent } from '../events/events';
import { webhookEventsOf } from './record';

/* What webhooks hear of the domain events (docs/api/webhooks.md): a database's row template is no row (docs/api/databases.md «Row templates»). */

const page = (id: string, inTrash: number): PageRow =>
  ({ id, workspace_id: 'w', parent_id: 'h', database_id: 'd', in_trash: inTrash, title: '', icon: null, cover: null }) as unknown as PageRow;
const cell = (rowId: string) => ({ rowId, fieldId: 'f', value: 1, version: 1, updatedAt: '2026-12-05T00:00:00.000Z', updatedBy: 'u' });

test('a row template’s page and cells are not told as rows; a row’s are', () => {
  const events: DomainEvent[] = [
    { kind: 'treeChanged', page: page('template', ROW_TEMPLATE) },
    { kind: 'treeChanged', page: page('row', 0) },
    {
      kind: 'cellsWritten',
      holderId: 'h',
      databaseId: 'd',
      rows: new Map([
        ['template', page('template', ROW_TEMPLATE)],
        ['row', page('row', 0)],
      ]),
      written: [cell('template'), cell('row')],
      changes: [],
    },
    {
      kind: 'cellsWritten',
      holderId: 'h',
      databaseId: 'd',
      rows: new Map([['template', page('template', ROW_TEMPLATE)]]),
      written: [cell('template')],
      changes: [],
    },
  ] as unknown as DomainEvent[];
  const heard = webhookEventsOf(events);
  expect(heard.map((e) => [e.group, e.data])).toEqual([
    ['row', { databaseId: 'd', rowIds: ['row'], inTrash: false }],
    ['cell', { databaseId: 'd', cells: [{ rowId: 'row', fieldId: 'f', version: 1 }] }],
  ]);
});

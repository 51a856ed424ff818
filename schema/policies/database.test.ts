import { MAIN_FIELD_ID, databaseDataSchema, titleProblem, type DatabaseData } from '../blocks/database';
import { publishedData, publishedFields, sameConfig } from './database';

const text = { name: '', type: 'text' } as const;
const date = { name: '', type: 'date' } as const;

function database(layouts: DatabaseData['view']['layouts']): DatabaseData {
  const ids = [MAIN_FIELD_ID, 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'rel', 'hidden'];
  return {
    config: { fields: Object.fromEntries(ids.map((id) => [id, ['d', 'e', 'f'].includes(id) ? date : text])) as DatabaseData['config']['fields'] },
    view: { layouts },
  };
}

describe('publishedFields: what a published database shows its public reader', () => {
  test("the views' columns and what their layouts draw by (group, cover, calendar, timeline, chart), the title always", () => {
    const data = database([
      {
        uid: 'v1',
        type: 'table',
        orderedFields: [{ fieldId: 'a', isWrap: false }],
        filter: { op: 'and', rules: [{ fieldId: 'hidden', condition: 'is', value: 'x' }] },
      },
      { uid: 'v2', type: 'board', orderedFields: [], groupBy: { fieldId: 'b' }, cover: { fieldId: 'c' } },
      { uid: 'v3', type: 'calendar', orderedFields: [], calendar: { fieldId: 'd' } },
      { uid: 'v4', type: 'timeline', orderedFields: [], timeline: { startFieldId: 'e', endFieldId: 'f', dependencyFieldId: 'rel' } },
      { uid: 'v5', type: 'chart', orderedFields: [], chart: { x: { fieldId: 'g' }, y: { aggregate: 'sum', fieldId: 'h' } } },
    ]);
    expect([...publishedFields(data)].sort()).toEqual([MAIN_FIELD_ID, 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'rel'].sort());
  });

  test('refused: a field only a filter or a sort names, a field no view names, a field that no longer exists', () => {
    const data = database([{ uid: 'v1', type: 'table', orderedFields: [{ fieldId: 'gone', isWrap: false }], sorts: [{ fieldId: 'b', direction: 'asc' }] }]);
    expect([...publishedFields(data)]).toEqual([MAIN_FIELD_ID]);
    expect([...publishedFields(database([]))]).toEqual([MAIN_FIELD_ID]);
  });
});

describe('publishedData: the database block a public reader gets', () => {
  test('the fields the views show, filter or sort by; not a field no view names; the views unchanged', () => {
    const layouts: DatabaseData['view']['layouts'] = [
      {
        uid: 'v1',
        type: 'table',
        orderedFields: [{ fieldId: 'a', isWrap: false }],
        filter: {
          op: 'or',
          rules: [
            { fieldId: 'b', condition: 'is', value: 'x' },
            { op: 'and', rules: [{ fieldId: 'c', condition: 'isEmpty' }] },
          ],
        },
        sorts: [{ fieldId: 'd', direction: 'asc' }],
        calculations: { a: 'sum', d: 'count', hidden: 'sum' },
      },
    ];
    const data = database(layouts);
    const published = publishedData(data);
    expect(Object.keys(published.config.fields).sort()).toEqual([MAIN_FIELD_ID, 'a', 'b', 'c', 'd'].sort());
    // The views as they were, but for a footer figure of a field left out.
    expect(published.view).toEqual({ layouts: [{ ...layouts[0], calculations: { a: 'sum', d: 'count' } }] });
    // Still a whole database block: a copy of the public view is made from it.
    expect(databaseDataSchema.safeParse(published).error).toBeUndefined();
    expect(databaseDataSchema.safeParse({ ...published, view: data.view }).success).toBe(false);
  });
});

describe('sameConfig', () => {
  test('the same config whatever the order of its keys; null and missing alike; anything else differs', () => {
    expect(
      sameConfig({ op: 'and', rules: [{ fieldId: 'a', condition: 'is', value: 1 }] }, { rules: [{ value: 1, condition: 'is', fieldId: 'a' }], op: 'and' }),
    ).toBe(true);
    expect(sameConfig(null, undefined)).toBe(true);
    expect(sameConfig({ op: 'and', rules: [] }, null)).toBe(false);
    expect(sameConfig([{ fieldId: 'a' }, { fieldId: 'b' }], [{ fieldId: 'b' }, { fieldId: 'a' }])).toBe(false);
  });
});

describe('titleProblem: the one rule of a title written as a cell', () => {
  test('text of at most 1,000 characters, or null; anything else refused', () => {
    expect(titleProblem('я'.repeat(1000))).toBeNull();
    expect(titleProblem(null)).toBeNull();
    expect(titleProblem('я'.repeat(1001))).toMatch(/at most 1000/);
    expect(titleProblem(5)).toBe('the title is text');
    expect(titleProblem(['a'])).toBe('the title is text');
  });
});

import { databaseLayoutSchema, filterGroupSchema, layoutProblems, sortSchema, type DatabaseConfig, type FilterGroup } from '../../../../schema/blocks/database';
import { rowMatches, type WireRow } from '../../../../schema/database';
import { addRule, addSort, removeRule, removeSort, setOp, updateRule, updateSort } from './filters';

const config: DatabaseConfig = {
  fields: {
    MAIN_FIELD: { name: 'Название', type: 'text' },
    n: { name: 'Сумма', type: 'number', format: 'rub' },
    done: { name: 'Готово', type: 'checkbox' },
    s: {
      name: 'Статус',
      type: 'select',
      options: [
        { id: 'o1', name: 'Новая' },
        { id: 'o2', name: 'Старая' },
      ],
    },
    d: { name: 'Срок', type: 'date' },
    p: { name: 'Люди', type: 'person' },
  },
};

/** Fits the wire schema and the fields (what the server checks before saving a view). */
function valid(filter: FilterGroup | null) {
  if (filter === null) return;
  expect(filterGroupSchema.safeParse(filter).success).toBe(true);
  const layout = databaseLayoutSchema.parse({ uid: 'v', type: 'table', orderedFields: [], filter });
  expect(layoutProblems(config, layout)).toEqual([]);
}

const row = (values: WireRow['data']['values'], title = ''): WireRow => ({
  id: 'r',
  contentType: 'Row',
  databaseId: 'db',
  pageId: 'p',
  sortKey: 'a0',
  data: { title, icon: null, values },
  versions: {},
  inTrash: false,
  createdAt: '2026-01-01T00:00:00Z',
  createdBy: 'u',
  updatedAt: '2026-01-01T00:00:00Z',
  updatedBy: null,
});

describe('the filter bar builds valid filters', () => {
  test('a rule per field type gets a condition of that type; values are typed as the field compares them', () => {
    let filter = addRule(null, config, 'MAIN_FIELD');
    valid(filter);
    expect(filter.rules[0]).toEqual({ fieldId: 'MAIN_FIELD', condition: 'is' });
    filter = updateRule(filter, 0, config, { condition: 'contains', value: 'отчёт' });
    valid(filter);
    // Another field whose type has not got «contains»: the condition resets, the value goes.
    filter = updateRule(filter, 0, config, { fieldId: 'n' });
    expect(filter.rules[0]).toEqual({ fieldId: 'n', condition: 'is' });
    filter = updateRule(filter, 0, config, { condition: 'gt', value: '1 500,5' });
    expect(filter.rules[0]).toEqual({ fieldId: 'n', condition: 'gt', value: 1500.5 });
    valid(filter);
    filter = addRule(filter, config, 'done');
    expect(filter.rules[1]).toEqual({ fieldId: 'done', condition: 'is', value: true });
    filter = addRule(filter, config, 's');
    filter = updateRule(filter, 2, config, { value: 'o2' });
    filter = addRule(filter, config, 'd');
    filter = updateRule(filter, 3, config, { condition: 'lte', value: '2026-12-31' });
    filter = addRule(filter, config, 'p');
    expect(filter.rules[4]).toEqual({ fieldId: 'p', condition: 'contains' });
    valid(filter);
    // isEmpty drops the value.
    filter = updateRule(filter, 2, config, { condition: 'isEmpty' });
    expect(filter.rules[2]).toEqual({ fieldId: 's', condition: 'isEmpty' });
    valid(setOp(filter, 'or'));
    // An emptied value leaves an unfinished rule (filters nothing), not an empty string.
    filter = updateRule(filter, 0, config, { value: '' });
    expect(filter.rules[0]).toEqual({ fieldId: 'n', condition: 'gt' });
    valid(filter);
  });

  test('what the bar builds filters as the reference evaluator says', () => {
    let filter = addRule(null, config, 'n');
    filter = updateRule(filter, 0, config, { condition: 'gte', value: '100' });
    filter = addRule(filter, config, 's');
    filter = updateRule(filter, 1, config, { value: 'o1' });
    expect(rowMatches(config, filter, row({ n: 150, s: 'o1' }))).toBe(true);
    expect(rowMatches(config, filter, row({ n: 50, s: 'o1' }))).toBe(false);
    expect(rowMatches(config, setOp(filter, 'or'), row({ n: 50, s: 'o1' }))).toBe(true);
  });

  test('removing the last rule leaves no filter', () => {
    const one = addRule(null, config, 'MAIN_FIELD');
    expect(removeRule(one, 0)).toBeNull();
    expect(removeRule(addRule(one, config, 'n'), 0)?.rules).toEqual([{ fieldId: 'n', condition: 'is' }]);
  });

  test('sorts: a field once, directions switch, removed by place', () => {
    let sorts = addSort(undefined, 'n');
    sorts = addSort(sorts, 'MAIN_FIELD');
    sorts = updateSort(sorts, 0, { direction: 'desc' });
    expect(sorts).toEqual([
      { fieldId: 'n', direction: 'desc' },
      { fieldId: 'MAIN_FIELD', direction: 'asc' },
    ]);
    for (const sort of sorts) expect(sortSchema.safeParse(sort).success).toBe(true);
    // Choosing a field already sorted by keeps it once.
    expect(updateSort(sorts, 1, { fieldId: 'n' })).toEqual([{ fieldId: 'n', direction: 'desc' }]);
    expect(removeSort(sorts, 0)).toEqual([{ fieldId: 'MAIN_FIELD', direction: 'asc' }]);
  });
});

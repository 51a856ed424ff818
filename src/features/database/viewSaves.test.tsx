import { act, fireEvent, screen } from '@testing-library/react';
import { MAIN_FIELD_ID, type DatabaseConfig, type DatabaseView } from '../../../schema/blocks/database';
import { layOutGrid, makeRow } from './fakeDatabaseServer';
import { mountDatabase } from './mountDatabase';
import { clearRowStores } from './rows/rowStore';

/*
 * A view's saves go one after another (DatabaseBlock `saveView`): a filter's field and then its
 * condition, changed quickly, were two writes in flight at once, which the server may apply in
 * the other order — leaving the first one's state as the view's, and the next edit (the value)
 * built on it: «Сумма = 15» instead of «Сумма > 15» (databaseTable.e2e, twice under CI's load).
 */

afterEach(() => clearRowStores());
layOutGrid();

const config: DatabaseConfig = { fields: { [MAIN_FIELD_ID]: { name: 'Название', type: 'text' }, sum: { name: 'Сумма', type: 'number' } } };
const view = (): DatabaseView => ({
  layouts: [{ uid: 'v1', type: 'table', name: 'Таблица', orderedFields: [MAIN_FIELD_ID, 'sum'].map((fieldId) => ({ fieldId, isWrap: false })) }],
});

test('two quick changes of a view are sent one after the other, in the order made', async () => {
  await mountDatabase(config, view(), [makeRow(0, { sum: 30 }), makeRow(1, { sum: 10 })]);
  const served = globalThis.fetch;
  const sent: unknown[] = [];
  let inFlight = 0;
  let most = 0;
  const release: Array<() => void> = [];
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    if (!/\/views\//.test(url)) return served(input, init);
    inFlight += 1;
    most = Math.max(most, inFlight);
    sent.push(JSON.parse(String(init?.body ?? '{}')));
    await new Promise<void>((resolve) => release.push(resolve));
    inFlight -= 1;
    return new Response(JSON.stringify({ data: null, included: [], meta: {} }), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;

  fireEvent.click(screen.getByRole('button', { name: 'Фильтр и сортировка' }));
  await act(async () => void fireEvent.click(screen.getByRole('button', { name: '+ Фильтр' })));
  await act(async () => void fireEvent.change(screen.getByLabelText('Поле фильтра'), { target: { value: 'sum' } }));
  // The second save waits for the first's answer.
  expect(sent).toHaveLength(1);
  for (let i = 0; i < 3 && release.length > 0; i++) {
    await act(async () => {
      release.shift()?.();
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
  }
  expect(most).toBe(1);
  expect(sent).toHaveLength(2);
  expect((sent[1] as { layout: { filter: { rules: { fieldId: string }[] } } }).layout.filter.rules[0].fieldId).toBe('sum');
  globalThis.fetch = served;
});

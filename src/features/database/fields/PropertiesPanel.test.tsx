import { act, fireEvent, screen, within } from '@testing-library/react';
import { MAIN_FIELD_ID, type DatabaseConfig, type DatabaseView } from '../../../../schema/blocks/database';
import { layOutGrid, makeRow } from '../fakeDatabaseServer';
import { mountDatabase } from '../mountDatabase';
import { propertiesOf } from './PropertiesPanel';
import { clearRowStores } from '../rows/rowStore';

layOutGrid();
afterEach(() => clearRowStores());

const config: DatabaseConfig = {
  fields: {
    [MAIN_FIELD_ID]: { name: 'Название', type: 'text' },
    sum: { name: 'Сумма', type: 'number' },
    done: { name: 'Готово', type: 'checkbox' },
    tag: { name: 'Метка', type: 'select', options: [] },
    note: { name: 'Заметка', type: 'text' },
    due: { name: 'Срок', type: 'date' },
    who: { name: 'Кто', type: 'person' },
  },
};
const view = (fields: string[]): DatabaseView => ({
  layouts: [{ uid: 'v1', type: 'table', name: 'Таблица', orderedFields: fields.map((fieldId) => ({ fieldId, isWrap: false })) }],
});
// The fields' headers (not the rows' gutter nor «+»).
const headers = () =>
  screen
    .getAllByRole('columnheader')
    .filter((h) => h.hasAttribute('data-field'))
    .map((h) => h.querySelector('.db-hcell-name')?.textContent ?? '');

async function openPanel(fields: string[], canEdit = true) {
  const mounted = await mountDatabase(config, view(fields), [makeRow(0, { sum: 1 })], { canEdit });
  return mounted;
}

test('propertiesOf: shown in the view’s order, then the hidden in the fields’ order; the title is neither; unknown ids are dropped', () => {
  const layout = view(['MAIN_FIELD', 'tag', 'gone', 'sum']).layouts[0];
  expect(propertiesOf(Object.keys(config.fields), layout)).toEqual({
    shown: [
      { fieldId: 'tag', isWrap: false },
      { fieldId: 'sum', isWrap: false },
    ],
    hidden: ['done', 'note', 'due', 'who'],
  });
});

test('a hidden field is shown again from «Свойства», at the end; a shown one is hidden by its eye; the view is saved each time', async () => {
  const { server } = await openPanel(['MAIN_FIELD', 'sum']);
  expect(headers()).toEqual(['Название', 'Сумма']);
  const button = screen.getByRole('button', { name: /Свойства/ });
  expect(within(button).getByText('5')).toBeTruthy();
  fireEvent.click(button);
  const panel = screen.getByRole('dialog', { name: 'Свойства представления' });
  await act(async () => fireEvent.click(within(panel).getByRole('button', { name: 'Показать «Метка»' })));
  expect(server.view.layouts[0].orderedFields.map((f) => f.fieldId)).toEqual(['MAIN_FIELD', 'sum', 'tag']);
  expect(headers()).toEqual(['Название', 'Сумма', 'Метка']);
  await act(async () => fireEvent.click(within(panel).getByRole('button', { name: 'Скрыть «Сумма»' })));
  expect(server.view.layouts[0].orderedFields.map((f) => f.fieldId)).toEqual(['MAIN_FIELD', 'tag']);
  expect(headers()).toEqual(['Название', 'Метка']);
  await act(async () => fireEvent.click(within(panel).getByRole('button', { name: 'Показать все' })));
  expect(server.view.layouts[0].orderedFields.map((f) => f.fieldId)).toEqual(['MAIN_FIELD', 'tag', 'sum', 'done', 'note', 'due', 'who']);
  expect(within(panel).getByText('Все свойства показаны')).toBeTruthy();
  await act(async () => fireEvent.click(within(panel).getByRole('button', { name: 'Скрыть все' })));
  expect(server.view.layouts[0].orderedFields.map((f) => f.fieldId)).toEqual(['MAIN_FIELD']);
  expect(headers()).toEqual(['Название']);
});

test('Alt+↑/↓ on a shown field moves it in the view’s order (the columns follow); the search box narrows the list', async () => {
  const { server } = await openPanel(['MAIN_FIELD', 'sum', 'done', 'tag']);
  fireEvent.click(screen.getByRole('button', { name: /Свойства/ }));
  const panel = screen.getByRole('dialog', { name: 'Свойства представления' });
  await act(async () => fireEvent.keyDown(within(panel).getByRole('button', { name: 'Скрыть «Метка»' }), { key: 'ArrowUp', altKey: true }));
  expect(server.view.layouts[0].orderedFields.map((f) => f.fieldId)).toEqual(['MAIN_FIELD', 'sum', 'tag', 'done']);
  expect(headers()).toEqual(['Название', 'Сумма', 'Метка', 'Готово']);
  await act(async () => fireEvent.keyDown(within(panel).getByRole('button', { name: 'Скрыть «Сумма»' }), { key: 'ArrowDown', altKey: true }));
  expect(headers()).toEqual(['Название', 'Метка', 'Сумма', 'Готово']);
  // Seven fields: a search box, folding case.
  fireEvent.change(within(panel).getByRole('searchbox', { name: 'Найти свойство' }), { target: { value: 'СР' } });
  expect(within(panel).queryByRole('button', { name: 'Скрыть «Метка»' })).toBeNull();
  expect(within(panel).getByRole('button', { name: 'Показать «Срок»' })).toBeTruthy();
});

test('a reader has no «Свойства» button', async () => {
  await openPanel(['MAIN_FIELD', 'sum'], false);
  expect(screen.queryByRole('button', { name: /Свойства/ })).toBeNull();
});

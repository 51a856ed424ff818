import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { MAIN_FIELD_ID, ROLLUP_CALCULATIONS, type DatabaseConfig, type DatabaseField, type DatabaseView } from '../../../../schema/blocks/database';
import '../../../app/i18n';
import { ApiRequestError } from '../../../app/api';
import { dismissAllToasts, Toaster } from '../../../ui/Toast';
import type { DatabaseApi, DatabaseBlock } from '../api';
import { CellContent } from '../cells/cells';
import { DatabaseContext, type DatabaseContextValue } from '../context';
import { layOutGrid, makeRow } from '../fakeDatabaseServer';
import { mountDatabase } from '../mountDatabase';
import { clearRowStores } from '../rows/rowStore';
import { displayText } from './format';
import { newField, retyped } from './FieldMenu';
import { rollupCalculationsFor, RollupSettings } from './RollupSettings';

/*
 * A rollup field in the web app (docs/relations.md «Rollups»): the type offered only with a
 * relation to read through, its settings in the column's menu (relation, the related database's
 * field, the calculations that suit that field's type), and its cells shown as a formula's — a
 * percent with «%».
 */

layOutGrid();
afterEach(() => {
  clearRowStores();
  dismissAllToasts();
});

type RollupField = Extract<DatabaseField, { type: 'rollup' }>;

/** Tasks: a relation to projects (another database), one to tasks themselves, and a rollup. */
const tasks = (rollup: RollupField): DatabaseConfig => ({
  fields: {
    [MAIN_FIELD_ID]: { name: 'Задача', type: 'text' },
    project: { name: 'Проект', type: 'relation', databaseId: 'projects' },
    parent: { name: 'Родитель', type: 'relation' },
    hours: { name: 'Часы', type: 'number' },
    total: rollup,
  },
});
/** Projects: a field of each kind a calculation asks for. */
const projects: DatabaseConfig = {
  fields: {
    [MAIN_FIELD_ID]: { name: 'Проект', type: 'text' },
    budget: { name: 'Бюджет', type: 'number' },
    due: { name: 'Срок', type: 'date' },
    closed: { name: 'Закрыт', type: 'checkbox' },
    double: { name: 'Вдвое', type: 'formula', expression: 'prop("budget") * 2' },
  },
};
const projectsBlock = { id: 'projects', type: 'database', version: 1, data: { config: projects, view: { layouts: [] } } } as unknown as DatabaseBlock;

const rollup = (patch: Partial<RollupField> = {}): RollupField => ({
  name: 'Итог',
  type: 'rollup',
  relationFieldId: 'project',
  targetFieldId: MAIN_FIELD_ID,
  calculation: 'countAll',
  ...patch,
});

/** The settings of the rollup `total` drawn over a context whose saves go to `updateField` (the config follows its answers). */
function mount(field: RollupField, api: Partial<DatabaseApi> = {}) {
  const saved: DatabaseField[] = [];
  const api_: Partial<DatabaseApi> = {
    database: async (id: string) => {
      if (id !== 'projects') throw new ApiRequestError(404, 'not_found', 'no database');
      return { block: projectsBlock, rowCount: 0 };
    },
    updateField: async (_databaseId: string, _fieldId: string, next: DatabaseField) => {
      saved.push(next);
      return { block: { data: { config: tasks(next as RollupField) } } as unknown as DatabaseBlock, report: null };
    },
    ...api,
  };
  function Harness() {
    const [config, setConfig] = useState(tasks(field));
    const value: DatabaseContextValue = {
      databaseId: 'tasks',
      pageId: 'page',
      config,
      editable: true,
      api: api_ as DatabaseApi,
      apply: (block) => setConfig((block.data as { config: DatabaseConfig }).config),
      saveView: async () => undefined,
      saveField: async () => true,
      members: [],
    };
    return (
      <DatabaseContext.Provider value={value}>
        <RollupSettings fieldId="total" field={config.fields.total as RollupField} />
        <Toaster />
      </DatabaseContext.Provider>
    );
  }
  render(<Harness />);
  return { saved };
}

const select = (label: string) => screen.getByLabelText(label) as HTMLSelectElement;
const options = (label: string) => [...select(label).options].map((o) => o.textContent);
const flush = () => act(async () => await new Promise((resolve) => setTimeout(resolve, 0)));

test('the calculations a field type offers: numbers sum, dates range, checkboxes count checks; texts only count', () => {
  expect(rollupCalculationsFor('text')).toEqual([
    'showOriginal',
    'countAll',
    'countValues',
    'countUnique',
    'countEmpty',
    'countNotEmpty',
    'percentEmpty',
    'percentNotEmpty',
  ]);
  expect(rollupCalculationsFor('number')).toEqual(expect.arrayContaining(['sum', 'average', 'median', 'min', 'max', 'range']));
  expect(rollupCalculationsFor('number')).not.toContain('earliest');
  expect(rollupCalculationsFor('date')).toEqual(expect.arrayContaining(['earliest', 'latest', 'dateRange']));
  expect(rollupCalculationsFor('date')).not.toContain('sum');
  expect(rollupCalculationsFor('boolean')).toEqual(expect.arrayContaining(['checked', 'unchecked', 'percentChecked', 'percentUnchecked']));
  expect(rollupCalculationsFor('list')).toEqual([...ROLLUP_CALCULATIONS]);
});

test('«Связь» lists this database’s relations; «Свойство» the related database’s fields, its title first; «Расчёт» what suits the field', async () => {
  mount(rollup());
  expect(options('Связь')).toEqual(['Проект', 'Родитель']);
  expect(select('Свойство').disabled).toBe(true);
  await flush();
  expect(options('Свойство')).toEqual(['Проект', 'Бюджет', 'Срок', 'Закрыт', 'Вдвое']);
  expect(select('Свойство').value).toBe(MAIN_FIELD_ID);
  // The title is text: counts and percents of empties, no sums, dates or checks.
  expect(options('Расчёт')).toEqual([
    'Показать исходные',
    'Посчитать все',
    'Посчитать значения',
    'Посчитать уникальные',
    'Посчитать пустые',
    'Посчитать непустые',
    'Процент пустых',
    'Процент непустых',
  ]);
});

test('a number field (or a formula giving numbers) offers sums; a date, dates; a checkbox, checks — each change saved', async () => {
  const { saved } = mount(rollup());
  await flush();
  await act(async () => fireEvent.change(select('Свойство'), { target: { value: 'budget' } }));
  expect(saved.at(-1)).toEqual(rollup({ targetFieldId: 'budget' }));
  expect(options('Расчёт')).toEqual(expect.arrayContaining(['Сумма', 'Среднее', 'Медиана', 'Минимум', 'Максимум', 'Диапазон']));
  expect(options('Расчёт')).not.toContain('Самая ранняя дата');
  await act(async () => fireEvent.change(select('Расчёт'), { target: { value: 'sum' } }));
  expect(saved.at(-1)).toEqual(rollup({ targetFieldId: 'budget', calculation: 'sum' }));
  expect(select('Расчёт').value).toBe('sum');

  // A formula is read as the type it gives: the sum stays.
  await act(async () => fireEvent.change(select('Свойство'), { target: { value: 'double' } }));
  expect(saved.at(-1)).toEqual(rollup({ targetFieldId: 'double', calculation: 'sum' }));

  // A date does not sum: back to «Посчитать все»; dates are offered.
  await act(async () => fireEvent.change(select('Свойство'), { target: { value: 'due' } }));
  expect(saved.at(-1)).toEqual(rollup({ targetFieldId: 'due', calculation: 'countAll' }));
  expect(options('Расчёт')).toEqual(expect.arrayContaining(['Самая ранняя дата', 'Самая поздняя дата', 'Диапазон дат (дни)']));
  expect(options('Расчёт')).not.toContain('Сумма');

  await act(async () => fireEvent.change(select('Свойство'), { target: { value: 'closed' } }));
  expect(options('Расчёт')).toEqual(expect.arrayContaining(['Отмечено', 'Не отмечено', 'Процент отмеченных', 'Процент неотмеченных']));
  expect(options('Расчёт')).not.toContain('Сумма');
});

test('another relation: its database’s title; one into this database lists this database’s fields but the rollup itself', async () => {
  const { saved } = mount(rollup({ targetFieldId: 'budget', calculation: 'sum' }));
  await flush();
  await act(async () => fireEvent.change(select('Связь'), { target: { value: 'parent' } }));
  expect(saved.at(-1)).toEqual(rollup({ relationFieldId: 'parent', targetFieldId: MAIN_FIELD_ID, calculation: 'countAll' }));
  expect(options('Свойство')).toEqual(['Задача', 'Проект', 'Родитель', 'Часы']);
  await act(async () => fireEvent.change(select('Свойство'), { target: { value: 'hours' } }));
  expect(saved.at(-1)).toEqual(rollup({ relationFieldId: 'parent', targetFieldId: 'hours', calculation: 'countAll' }));
  expect(options('Расчёт')).toContain('Сумма');
});

test('a refusal (422) shows the server’s words, and the choice goes back', async () => {
  mount(rollup(), {
    updateField: async () => {
      throw new ApiRequestError(422, 'validation_failed', 'the rollup reads a field its relation’s database does not have');
    },
  });
  await flush();
  await act(async () => fireEvent.change(select('Расчёт'), { target: { value: 'countUnique' } }));
  expect(await screen.findByText('the rollup reads a field its relation’s database does not have')).toBeTruthy();
  expect(select('Расчёт').value).toBe('countAll');
});

test('a related database this person cannot read: the field stays as it is, every calculation offered', async () => {
  mount(rollup({ targetFieldId: 'secret', calculation: 'sum' }), {
    database: async () => {
      throw new ApiRequestError(403, 'forbidden', 'no access');
    },
  });
  await flush();
  expect(select('Свойство').disabled).toBe(true);
  expect(options('Свойство')).toEqual(['Нет доступа к связанной базе']);
  expect(options('Расчёт')).toHaveLength(ROLLUP_CALCULATIONS.length);
  expect(select('Расчёт').value).toBe('sum');
});

test('retyped and newField make a rollup of the first relation, of its title, counting all', () => {
  const fields = tasks(rollup()).fields;
  expect(retyped({ name: 'Итог', type: 'number' }, 'rollup', fields)).toEqual(rollup());
  expect(newField('Итог', 'rollup', fields)).toEqual(rollup());
});

test('a rollup’s cell: as a formula’s, a percent with «%»', () => {
  const plain = (text: string) => text.replace(/\s/g, ' ');
  expect(plain(displayText(rollup({ calculation: 'percentChecked' }), 66.67))).toBe('66,67 %');
  expect(plain(displayText(rollup({ calculation: 'percentEmpty' }), 0))).toBe('0 %');
  expect(plain(displayText(rollup({ calculation: 'sum' }), 1234.5))).toBe('1 234,5');
  expect(displayText(rollup({ calculation: 'showOriginal' }), ['Альфа', 'Бета'])).toBe('Альфа, Бета');
  expect(displayText(rollup({ calculation: 'earliest' }), '2026-03-05')).toBe('5 мар. 2026 г.');
  expect(displayText(rollup({ calculation: 'sum' }), null)).toBe('');
  const { container } = render(<CellContent field={rollup({ calculation: 'percentNotEmpty' })} fieldId="total" value={50} />);
  expect(plain(container.textContent ?? '')).toBe('50 %');
  expect(container.querySelector('.db-number')).not.toBeNull();
});

describe('in the grid', () => {
  const view = (fields: string[]): DatabaseView => ({
    layouts: [{ uid: 'v1', type: 'table', name: 'Таблица', orderedFields: fields.map((fieldId) => ({ fieldId, isWrap: false })) }],
  });
  const typeButton = (name: string) => within(screen.getByRole('group', { name: 'Тип' })).getByRole('button', { name: new RegExp(name) }) as HTMLButtonElement;
  const openTypes = async (column: RegExp) => {
    fireEvent.click(screen.getByRole('columnheader', { name: column }).querySelector('button')!);
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Поле' })).getByRole('button', { name: /^Тип:/ }));
    await flush();
  };

  test('without a relation «Сводка» cannot be chosen: «Сначала добавьте связь» (a field’s types and a new field’s)', async () => {
    const config: DatabaseConfig = { fields: { [MAIN_FIELD_ID]: { name: 'Задача', type: 'text' }, note: { name: 'Заметка', type: 'text' } } };
    await mountDatabase(config, view([MAIN_FIELD_ID, 'note']), [makeRow(0)]);
    await openTypes(/Заметка/);
    expect(typeButton('Сводка').disabled).toBe(true);
    expect(typeButton('Сводка').textContent).toContain('Сначала добавьте связь');
    await act(async () => fireEvent.keyDown(document.activeElement!, { key: 'Escape' }));
    fireEvent.click(screen.getByRole('button', { name: 'Добавить поле' }));
    const add = screen.getByRole('dialog', { name: 'Добавить поле' });
    expect((within(add).getByRole('button', { name: /Сводка/ }) as HTMLButtonElement).disabled).toBe(true);
  });

  test('a relation field is not one to read through when it is the field retyped', async () => {
    const config: DatabaseConfig = { fields: { [MAIN_FIELD_ID]: { name: 'Задача', type: 'text' }, link: { name: 'Связи', type: 'relation' } } };
    await mountDatabase(config, view([MAIN_FIELD_ID, 'link']), [makeRow(0)]);
    await openTypes(/Связи/);
    expect(typeButton('Сводка').disabled).toBe(true);
  });

  test('with a relation, a field turned into «Сводка» reads its first relation; the cells show the server’s figures', async () => {
    const config: DatabaseConfig = {
      fields: {
        [MAIN_FIELD_ID]: { name: 'Задача', type: 'text' },
        link: { name: 'Связи', type: 'relation' },
        note: { name: 'Заметка', type: 'text' },
        share: { name: 'Доля', type: 'rollup', relationFieldId: 'link', targetFieldId: 'done', calculation: 'percentChecked' },
      },
    };
    const { server, grid } = await mountDatabase(config, view([MAIN_FIELD_ID, 'link', 'note', 'share']), [makeRow(0, { share: 33.33 })]);
    expect((grid.querySelector('[data-row="0"] [data-col="3"]')?.textContent ?? '').replace(/\s/g, ' ')).toBe('33,33 %');
    await openTypes(/Заметка/);
    expect(typeButton('Сводка').disabled).toBe(false);
    await act(async () => fireEvent.click(typeButton('Сводка')));
    await flush();
    expect(server.config.fields.note).toEqual({
      name: 'Заметка',
      type: 'rollup',
      relationFieldId: 'link',
      targetFieldId: MAIN_FIELD_ID,
      calculation: 'countAll',
    });
  });
});

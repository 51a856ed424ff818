import { act, fireEvent, screen } from '@testing-library/react';
import { MAIN_FIELD_ID, type DatabaseConfig, type DatabaseView, type FilterGroup } from '../../../../schema/blocks/database';
import { dismissAllToasts } from '../../../ui/Toast';
import { layOutGrid, makeRow } from '../fakeDatabaseServer';
import { mountDatabase } from '../mountDatabase';
import { clearRowStores } from '../rows/rowStore';

/** Issue 34 §2: a filter rule's date is typed the Russian way too (DateInput with its calendar in a popover). */

afterEach(() => {
  clearRowStores();
  dismissAllToasts();
  localStorage.clear();
});

layOutGrid();

const wait = (ms: number) => act(() => new Promise((resolve) => setTimeout(resolve, ms)));

const config: DatabaseConfig = {
  fields: { [MAIN_FIELD_ID]: { name: 'Название', type: 'text' }, due: { name: 'Срок', type: 'date' } },
};
const view = (value: string): DatabaseView => ({
  layouts: [
    {
      uid: 'v1',
      type: 'table',
      name: 'Таблица',
      orderedFields: ['MAIN_FIELD', 'due'].map((fieldId) => ({ fieldId, isWrap: false })),
      filter: { op: 'and', rules: [{ fieldId: 'due', condition: 'gte', value }] },
    },
  ],
});

async function setup(value: string) {
  const mounted = await mountDatabase(config, view(value), [makeRow(0, { due: '2026-12-05' })]);
  fireEvent.click(screen.getByRole('button', { name: /^Фильтр и сортировка/ }));
  const field = screen.getByLabelText('Значение') as HTMLInputElement;
  /** The rule values saved to the view, in order. */
  const saved = () =>
    mounted.server.requests
      .filter((r) => r.path === 'database/db/views/v1')
      .map((r) => ((r.body as { layout: { filter: FilterGroup } }).layout.filter.rules[0] as { value: unknown }).value);
  return { ...mounted, field, saved };
}

test('the rule’s day shows as дд.мм.гггг; «01.12.2026» typed is saved as 2026-12-01; an impossible one is said and not saved', async () => {
  const { field, saved } = await setup('2026-11-25');
  expect(field.type).toBe('text');
  expect(field.value).toBe('25.11.2026');
  fireEvent.change(field, { target: { value: '01.12.2026' } });
  await wait(450);
  expect(saved()).toEqual(['2026-12-01']);
  fireEvent.change(field, { target: { value: '31.02.2026' } });
  await wait(450);
  const hint = screen.getByRole('alert');
  expect(hint.textContent).toBe('Такого дня нет: «31.02.2026»');
  expect(field.getAttribute('aria-invalid')).toBe('true');
  expect(field.getAttribute('aria-describedby')).toBe(hint.id);
  expect(saved()).toEqual(['2026-12-01']);
  fireEvent.change(field, { target: { value: '1.12.2027' } });
  expect(screen.queryByRole('alert')).toBeNull();
  await wait(450);
  expect(saved()).toEqual(['2026-12-01', '2027-12-01']);
});

test('its calendar: the button or ↓ opens it on the chosen day, the arrows move the day, Enter picks it and it is saved; Escape closes it', async () => {
  const { field, saved } = await setup('2026-11-25');
  fireEvent.click(screen.getByRole('button', { name: 'Календарь' }));
  expect(screen.getByRole('grid', { name: 'Ноябрь 2026' })).toBeTruthy();
  fireEvent.click(screen.getByRole('button', { name: 'Календарь' }));
  expect(screen.queryByRole('grid', { name: 'Ноябрь 2026' })).toBeNull();
  fireEvent.keyDown(field, { key: 'ArrowDown' });
  expect(document.activeElement!.getAttribute('aria-label')).toBe('25 ноября 2026 г.');
  fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' });
  fireEvent.keyDown(document.activeElement!, { key: 'ArrowRight' });
  expect(screen.getByRole('grid', { name: 'Декабрь 2026' })).toBeTruthy();
  fireEvent.keyDown(document.activeElement!, { key: 'Enter' });
  expect(field.value).toBe('03.12.2026');
  expect(document.activeElement).toBe(field);
  expect(screen.queryByRole('grid', { name: 'Декабрь 2026' })).toBeNull();
  await wait(450);
  expect(saved()).toEqual(['2026-12-03']);
  fireEvent.keyDown(field, { key: 'ArrowDown' });
  fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
  expect(screen.queryByRole('grid', { name: 'Декабрь 2026' })).toBeNull();
  expect(document.activeElement).toBe(field);
});

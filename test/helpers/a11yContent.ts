import { randomUUID } from 'node:crypto';
import { BLOCK_DEFINITIONS } from '../../schema/blocks';
import { fetchJson } from './serverProcess';

/*
 * Content made through the API for the accessibility suites (issue 37): a page holding every
 * block type, a database with a view of each kind.
 */

const WEB = { 'X-App-Type': 'Web' };
const spaces = (url: string) => `${url}/api/v3/spaces`;

/** A page in the person's own workspace holding `blocks` (wire type and data, `parent`: the index of its parent), in order. */
export async function pageWith(url: string, cookie: string, title: string, blocks: { type: string; data: object; parent?: number }[]): Promise<string> {
  const made = await fetchJson<{ data: { id: string } }>(`${spaces(url)}/section/private`, {
    method: 'POST',
    cookie,
    headers: WEB,
    body: JSON.stringify({ title }),
  });
  const pageId = made.data.id;
  const ids = blocks.map(() => randomUUID());
  if (blocks.length === 0) return pageId;
  await fetchJson(`${spaces(url)}/blocks/create`, {
    method: 'POST',
    cookie,
    headers: WEB,
    body: JSON.stringify({
      pageId,
      blocks: blocks.map((block, i) => ({
        id: ids[i],
        type: block.type,
        data: block.data,
        parentId: block.parent === undefined ? null : ids[block.parent],
        // After the block before it under the same parent.
        placeAfter: ids[blocks.slice(0, i).findLastIndex((b) => b.parent === block.parent)] ?? null,
      })),
    }),
  });
  return pageId;
}

export const text = (value: string) => ({ tokens: [{ text: value }] });

/** One block of every type (a nested list item, a checked and an empty to-do), the last an empty paragraph. */
export function everyBlock(): { type: string; data: object; parent?: number }[] {
  const defaults = Object.fromEntries(
    (BLOCK_DEFINITIONS as readonly { wireType: string; defaultData?: () => object }[]).map((d) => [d.wireType, d.defaultData?.() ?? {}]),
  );
  return [
    { type: 'text', data: text('Абзац текста') },
    { type: 'heading1', data: text('Заголовок 1') },
    { type: 'heading2', data: text('Заголовок 2') },
    { type: 'heading3', data: text('Заголовок 3') },
    { type: 'bulletList', data: text('Пункт') },
    { type: 'bulletList', data: text('Вложенный пункт'), parent: 4 },
    { type: 'orderedList', data: text('Первый') },
    { type: 'checkbox', data: { ...text('Купить хлеб'), checked: true } },
    { type: 'checkbox', data: { tokens: [], checked: false } },
    { type: 'quote', data: text('Цитата') },
    { type: 'callout', data: { ...defaults.callout, ...text('Выноска') } },
    { type: 'code', data: { ...defaults.code, ...text('const x = 1;') } },
    { type: 'divider', data: defaults.divider },
    { type: 'latex', data: { formula: 'E = mc^2' } },
    { type: 'table', data: defaults.table },
    { type: 'image', data: defaults.image },
    { type: 'file', data: defaults.file },
    { type: 'embed', data: defaults.embed },
    { type: 'text', data: { tokens: [] } },
  ];
}

const now = new Date();
const day = (d: number) => `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(d).padStart(2, '0')}`;

/** A Database page with a status, a date, a number and a checkbox field, rows, and one view of each kind. */
export async function databaseWithViews(url: string, cookie: string, title = 'Проект'): Promise<{ holderId: string; rowId: string }> {
  const S = spaces(url);
  const holder = await fetchJson<{ data: { id: string } }>(`${S}/section/private`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ type: 'Database', title }),
  });
  const block = (
    await fetchJson<{ data: Array<{ id: string; data: { view: { layouts: Array<{ uid: string }> } } }> }>(`${S}/note/${holder.data.id}/blocks`, { cookie })
  ).data[0];
  const db = block.id;
  const fields = {
    stage: {
      name: 'Статус',
      type: 'status',
      options: [
        { id: 'todo', name: 'Сделать', color: 'gray', group: 'todo' },
        { id: 'done', name: 'Готово', color: 'green', group: 'done' },
      ],
    },
    due: { name: 'Срок', type: 'date' },
    cost: { name: 'Цена', type: 'number' },
    ok: { name: 'Проверено', type: 'checkbox' },
  };
  for (const [id, field] of Object.entries(fields))
    await fetchJson(`${S}/database/${db}/fields`, { method: 'POST', cookie, body: JSON.stringify({ id, field }) });
  const rows = (
    await fetchJson<{ data: Array<{ id: string }> }>(`${S}/database/${db}/rows`, {
      method: 'POST',
      cookie,
      body: JSON.stringify({
        rows: [
          { title: 'Макет', values: { stage: 'todo', due: day(10), cost: 120, ok: true } },
          { title: 'Вёрстка', values: { stage: 'done', due: day(12), cost: 80 } },
        ],
      }),
    })
  ).data;
  const views = [
    { uid: 'board', type: 'board', name: 'Доска', orderedFields: [], groupBy: { fieldId: 'stage' } },
    { uid: 'cal', type: 'calendar', name: 'Календарь', orderedFields: [], calendar: { fieldId: 'due' } },
    { uid: 'line', type: 'timeline', name: 'Хронология', orderedFields: [], timeline: { startFieldId: 'due' } },
    { uid: 'chart', type: 'barChart', name: 'Диаграмма', orderedFields: [], chart: { x: { fieldId: 'stage' }, y: { aggregate: 'count' } } },
  ];
  // The table's footer sums the prices (its figure is in the button's name).
  await fetchJson(`${S}/database/${db}/views/${block.data.view.layouts[0].uid}`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ layout: { calculations: { cost: 'sum' } } }),
  });
  for (const layout of views) await fetchJson(`${S}/database/${db}/views`, { method: 'POST', cookie, body: JSON.stringify({ layout }) });
  return { holderId: holder.data.id, rowId: rows[0].id };
}

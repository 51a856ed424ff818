import type { Page } from 'playwright-core';
import { browserSuite } from '../helpers/browserSuite';
import { eventually, shoot } from '../helpers/editorPage';
import { fetchJson } from '../helpers/serverProcess';
import { cookieOf } from '../helpers/browser';

/*
 * A database with the keyboard alone (issue 37, journey 3), in real Chromium: no mouse event at
 * all, from a navigation on. The grid is one Tab stop and no trap (Tab past its last cell and
 * Shift+Tab before its first leave it; Escape leaves its cells), the keyboard target names the
 * active cell (aria-activedescendant), Ctrl+Enter opens its row; a row is added and two of its cells filled, the Board view
 * chosen and the card moved to another column.
 */

const suite = browserSuite();
const S = () => `${suite.server.url}/api/v3/spaces`;

/** A Database page (API) with a text field and a status field, rows, and a Board view by the status. */
async function database(page: Page, rows: string[]) {
  const cookie = await cookieOf(page);
  const holder = await fetchJson<{ data: { id: string } }>(`${S()}/section/private`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ type: 'Database', title: 'Задачи' }),
  });
  const db = (await fetchJson<{ data: Array<{ id: string }> }>(`${S()}/note/${holder.data.id}/blocks`, { cookie })).data[0].id;
  await fetchJson(`${S()}/database/${db}/fields`, { method: 'POST', cookie, body: JSON.stringify({ id: 'note', field: { name: 'Заметка', type: 'text' } }) });
  await fetchJson(`${S()}/database/${db}/fields`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({
      id: 'stage',
      field: {
        name: 'Статус',
        type: 'status',
        options: [
          { id: 'todo', name: 'Сделать', color: 'gray', group: 'todo' },
          { id: 'done', name: 'Готово', color: 'green', group: 'done' },
        ],
      },
    }),
  });
  if (rows.length) await fetchJson(`${S()}/database/${db}/rows`, { method: 'POST', cookie, body: JSON.stringify({ rows: rows.map((title) => ({ title })) }) });
  await fetchJson(`${S()}/database/${db}/views`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ layout: { uid: 'board', type: 'board', name: 'Доска', orderedFields: [], groupBy: { fieldId: 'stage' } } }),
  });
  const serverRows = async (): Promise<Array<Record<string, unknown>>> =>
    (await fetchJson<{ data: Array<{ data: { title: string; values: Record<string, unknown> } }> }>(`${S()}/database/${db}/rows`, { cookie })).data.map(
      (r) => ({
        title: r.data.title,
        ...r.data.values,
      }),
    );
  return { holderId: holder.data.id, serverRows };
}

/** What has the focus: the grid's keyboard target, the grid, or an element's role and name. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return 'body';
    if (element.classList.contains('db-sink')) return 'cells';
    if (element.getAttribute('role') === 'grid') return 'grid';
    return `${element.getAttribute('role') ?? element.tagName.toLowerCase()}: ${element.getAttribute('aria-label') ?? element.textContent?.trim() ?? ''}`;
  });

/** Presses `key` until `wanted` has the focus (at most `max` times); the focus's stops on the way. */
async function pressUntil(page: Page, key: string, wanted: (stop: string) => boolean, max = 40): Promise<string[]> {
  const stops: string[] = [];
  for (let i = 0; i < max; i += 1) {
    await page.keyboard.press(key);
    const stop = await focused(page);
    stops.push(stop);
    if (wanted(stop)) return stops;
  }
  throw new Error(`${key} never reached it: ${stops.join(' → ')}`);
}

/** The active cell as the keyboard target names it (aria-activedescendant): its role, selection, row and column, and text. */
const activeCell = (page: Page) =>
  page.evaluate(() => {
    const sink = document.activeElement;
    const id = sink?.classList.contains('db-sink') ? sink.getAttribute('aria-activedescendant') : null;
    const cell = id ? document.getElementById(id) : null;
    if (!cell) return null;
    return {
      role: cell.getAttribute('role'),
      selected: cell.getAttribute('aria-selected'),
      row: cell.closest('[role="row"]')?.getAttribute('aria-rowindex'),
      col: cell.getAttribute('aria-colindex'),
      text: (cell.textContent ?? '').replace(/Открыть$/, ''),
    };
  });

/** What Chromium's accessibility tree gives a screen reader for the focused element's active descendant: its role, name and selection. */
async function announced(page: Page) {
  type AXNode = {
    backendDOMNodeId?: number;
    role?: { value: string };
    name?: { value: string };
    properties?: Array<{ name: string; value: { value?: unknown; relatedNodes?: Array<{ backendDOMNodeId: number }> } }>;
  };
  const cdp = await page.context().newCDPSession(page);
  const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as unknown as { nodes: AXNode[] };
  await cdp.detach();
  const prop = (node: AXNode | undefined, name: string) => node?.properties?.find((p) => p.name === name)?.value;
  const focusedNode = nodes.find((n) => prop(n, 'focused')?.value === true && prop(n, 'activedescendant'));
  const id = prop(focusedNode, 'activedescendant')?.relatedNodes?.[0]?.backendDOMNodeId;
  const cell = nodes.find((n) => id !== undefined && n.backendDOMNodeId === id);
  return cell ? { role: cell.role?.value, name: cell.name?.value, selected: prop(cell, 'selected')?.value } : null;
}

/** Text typed as a keyboard's input (Playwright's keys type no Cyrillic): the browser's own insertText. */
async function typeText(page: Page, text: string): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.insertText', { text });
  await cdp.detach();
}

it('the grid is one Tab stop and no trap: Tab moves through the cells and past the last leaves it, Shift+Tab before the first too; Escape leaves the cells; the active cell is named to screen readers', async () => {
  const page = await suite.signedIn('grid.keys@example.com');
  const { holderId } = await database(page, ['Первая', 'Вторая']);
  await page.goto(`${suite.server.url}/${holderId}`);
  await page.locator('.db-scroll .db-row').nth(1).waitFor();
  // Tab reaches the grid, whose cells take the keys: the first cell is active and named.
  await pressUntil(page, 'Tab', (stop) => stop === 'cells');
  expect(await activeCell(page)).toEqual({ role: 'rowheader', selected: 'true', row: '2', col: '2', text: 'Первая' });
  await page.keyboard.press('ArrowDown');
  await eventually(() => activeCell(page), { role: 'rowheader', selected: 'true', row: '3', col: '2', text: 'Вторая' });
  // As Chromium gives it to a screen reader: the focused target's active descendant, its text and selection.
  expect(await announced(page)).toEqual({ role: 'rowheader', name: 'Вторая Открыть', selected: true });
  await page.keyboard.press('Tab');
  await eventually(() => activeCell(page).then((c) => c && [c.role, c.row, c.col]), ['gridcell', '3', '3']);
  // The last cell (row 2, «Статус»): Tab leaves the grid for the next element of the page, «+ Новая строка».
  await page.keyboard.press('Tab');
  await eventually(() => activeCell(page).then((c) => c && [c.row, c.col]), ['3', '4']);
  await page.keyboard.press('Tab');
  await eventually(() => focused(page), 'button: + Новая строка');
  // Shift+Tab comes back through the footer's and header's buttons to the grid, and into its cells.
  await pressUntil(page, 'Shift+Tab', (stop) => stop === 'cells');
  await eventually(() => activeCell(page).then((c) => c && [c.row, c.col]), ['3', '4']);
  // Escape on one cell: the grid as a whole has the focus; an arrow goes back in where it was.
  await page.keyboard.press('Escape');
  await eventually(() => focused(page), 'grid');
  await shoot(page, 'db-keys-grid-focused');
  await page.keyboard.press('ArrowDown');
  await eventually(() => focused(page), 'cells');
  await eventually(() => activeCell(page).then((c) => c && [c.row, c.col]), ['3', '4']);
  // Back to the first cell; Shift+Tab there leaves the grid for the element before it.
  await page.keyboard.press('Control+ArrowUp');
  await page.keyboard.press('Control+ArrowLeft');
  await eventually(() => activeCell(page).then((c) => c && [c.row, c.col]), ['2', '2']);
  await page.keyboard.press('Shift+Tab');
  const before = await focused(page);
  expect(before).not.toBe('cells');
  expect(await page.evaluate(() => document.activeElement?.closest('.db-scroll') ?? null)).toBeNull();
  // Escape then Tab: past the grid (its header's and footer's buttons too), to «+ Новая строка»;
  // Escape then Shift+Tab: to the element before the grid.
  await page.keyboard.press('Tab');
  await eventually(() => focused(page), 'cells');
  await page.keyboard.press('Escape');
  await eventually(() => focused(page), 'grid');
  await page.keyboard.press('Tab');
  await eventually(() => focused(page), 'button: + Новая строка');
  await pressUntil(page, 'Shift+Tab', (stop) => stop === 'cells');
  await page.keyboard.press('Escape');
  await page.keyboard.press('Shift+Tab');
  await eventually(() => focused(page), before);
  // Ctrl+Enter opens the active cell's row (the mouse's «Открыть»).
  await page.keyboard.press('Tab');
  await eventually(() => activeCell(page).then((c) => c && [c.row, c.col]), ['2', '2']);
  await page.keyboard.press('Control+Enter');
  await page.getByRole('dialog').getByText('Первая').first().waitFor();
  await page.context().close();
});

it('journey 3 with the keyboard alone: a row added, two cells filled, the Board view chosen, the card moved to another column', async () => {
  const page = await suite.signedIn('journey.three@example.com');
  const { holderId, serverRows } = await database(page, []);
  await page.goto(`${suite.server.url}/${holderId}`);
  await page.locator('.db-scroll').waitFor();
  // An empty grid: Tab goes in and on past it to «+ Новая строка».
  await pressUntil(page, 'Tab', (stop) => stop === 'cells');
  await page.keyboard.press('Tab');
  await eventually(() => focused(page), 'button: + Новая строка');
  // A row: its title's editor opens; typed, Enter writes it.
  await page.keyboard.press('Enter');
  const editor = page.getByLabel('Значение ячейки');
  await editor.waitFor();
  await typeText(page, 'Макет');
  await page.keyboard.press('Enter');
  await editor.waitFor({ state: 'detached' });
  await eventually(serverRows, [{ title: 'Макет' }]);
  // Tab to «Заметка», typed into (the editor opens with what is typed), Enter writes it.
  await eventually(() => focused(page), 'cells');
  await page.keyboard.press('Tab');
  await eventually(() => activeCell(page).then((c) => c && [c.row, c.col]), ['2', '3']);
  await typeText(page, 'черновик');
  await editor.waitFor();
  await page.keyboard.press('Enter');
  await editor.waitFor({ state: 'detached' });
  await eventually(serverRows, [{ title: 'Макет', note: 'черновик' }]);
  await shoot(page, 'db-keys-journey-table');
  // Escape out of the cells, Shift+Tab back to the view tabs, Enter on «Доска».
  await page.keyboard.press('Escape');
  await eventually(() => focused(page), 'grid');
  await pressUntil(page, 'Shift+Tab', (stop) => stop.startsWith('tab: ') && stop.includes('Доска'));
  await page.keyboard.press('Enter');
  await page.getByRole('tab', { name: /Доска/, selected: true }).waitFor();
  await page.locator('.db-card').first().waitFor();
  // Tab to the card (the board's one stop), Ctrl+Shift+← to the column on its left: «Готово».
  await pressUntil(page, 'Tab', (stop) => stop === 'listitem: Макет');
  await page.keyboard.press('Control+Shift+ArrowLeft');
  await eventually(() => page.locator('.db-board-live').textContent(), 'Карточка «Макет» — в колонке «Готово», место 1 из 1');
  await eventually(serverRows, [{ title: 'Макет', note: 'черновик', stage: 'done' }]);
  expect(await focused(page)).toBe('listitem: Макет');
  await shoot(page, 'db-keys-journey-board');
  await page.context().close();
});

import type { Page } from 'playwright-core';
import { browserSuite } from '../helpers/browserSuite';
import { eventually, shoot } from '../helpers/editorPage';
import { fetchJson } from '../helpers/serverProcess';

/*
 * A chart view of a database (issue 17) in real Chromium against the real server: added from the
 * «+» after the tabs (its rows counted by the status field), set up in the bar above it (a sum of
 * a number field, a pie), drawn from the server's grouping, and drawn again when a row is added
 * in another window.
 */

const suite = browserSuite();
const signedIn = (email: string) => suite.signedIn(email);

const S = () => `${suite.server.url}/api/v3/spaces`;

/** The bars drawn, left to right: their heights in px (Recharts' rectangles). */
const bars = (page: Page) =>
  page
    .locator('.db-chart-figure .recharts-bar-rectangle path, .db-chart-figure .recharts-bar-rectangle rect')
    .evaluateAll((all) => all.map((el) => Math.round(el.getBoundingClientRect().height)));
const xLabels = (page: Page) => page.locator('.db-chart-figure text.recharts-cartesian-axis-tick-value[orientation="bottom"]').allTextContents();

it('a chart added from «+» counts rows by status; set to a sum and to a pie; drawn again when another window adds a row', async () => {
  const page = await signedIn('chart.maker@example.com');
  const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
  const holder = await fetchJson<{ data: { id: string } }>(`${S()}/section/private`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ type: 'Database', title: 'Сделки' }),
  });
  const db = (await fetchJson<{ data: Array<{ id: string }> }>(`${S()}/note/${holder.data.id}/blocks`, { cookie })).data[0].id;
  const status = {
    name: 'Статус',
    type: 'status',
    options: [
      { id: 'todo', name: 'Новая', color: 'gray', group: 'todo' },
      { id: 'won', name: 'Выиграна', color: 'green', group: 'done' },
    ],
  };
  await fetchJson(`${S()}/database/${db}/fields`, { method: 'POST', cookie, body: JSON.stringify({ id: 'stage', field: status }) });
  await fetchJson(`${S()}/database/${db}/fields`, { method: 'POST', cookie, body: JSON.stringify({ id: 'amount', field: { name: 'Сумма', type: 'number' } }) });
  const rows = [
    ['А', 'todo', 100],
    ['Б', 'todo', 300],
    ['В', 'won', 50],
    ['Г', 'todo', 20],
  ] as const;
  await fetchJson(`${S()}/database/${db}/rows`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ rows: rows.map(([title, stage, amount]) => ({ title, values: { stage, amount } })) }),
  });

  await page.goto(`${suite.server.url}/${holder.data.id}`);
  await page.locator('.db-scroll').waitFor();
  await page.getByRole('button', { name: 'Добавить вид' }).click();
  await page.getByRole('menuitem', { name: 'Диаграмма' }).click();
  await page.getByRole('tab', { name: /Диаграмма/, selected: true }).waitFor();
  // Counted by status: «Новая» 3, «Выиграна» 1 — the first bar three times the second.
  await eventually(() => xLabels(page), ['Новая', 'Выиграна']);
  await eventually(async () => {
    const [a, b] = await bars(page);
    return b > 0 && Math.abs(a / b - 3) < 0.05;
  }, true);
  expect(await page.locator('.db-chart-caption').textContent()).toBe('По 4 строкам');
  await shoot(page, 'database-chart-1280');

  // The sum of «Сумма»: 420 against 50; saved with the view.
  const setup = page.getByRole('group', { name: 'Настройка диаграммы' });
  const saved = page.waitForResponse((r) => /\/views\/[^/]+$/.test(r.url()) && r.request().method() === 'POST');
  await setup.getByLabel('Значение').selectOption({ label: 'Сумма: Сумма' });
  expect((await saved).status()).toBe(200);
  await eventually(async () => {
    const [a, b] = await bars(page);
    return b > 0 && Math.abs(a / b - 420 / 50) < 0.2;
  }, true);

  // Another window adds a «Выиграна» row of 370: the sums are now 420 and 420.
  const other = await page.context().newPage();
  await other.goto(`${suite.server.url}/${holder.data.id}`);
  await other.getByRole('tab', { name: /Диаграмма/ }).click();
  await other.locator('.db-chart-figure').waitFor();
  await fetchJson(`${S()}/database/${db}/rows`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ rows: [{ title: 'Д', values: { stage: 'won', amount: 370 } }] }),
  });
  await eventually(async () => {
    const [a, b] = await bars(page);
    return a > 0 && Math.abs(a - b) <= 1;
  }, true);
  await eventually(() => page.locator('.db-chart-caption').textContent(), 'По 5 строкам');

  // «Категории»: «Новая» hidden (saved with the view), its bar gone; shown again.
  await setup.getByRole('button', { name: 'Категории' }).click();
  await page.getByRole('menuitemcheckbox', { name: /Новая/ }).click();
  await eventually(() => xLabels(page), ['Выиграна']);
  await setup.getByRole('button', { name: 'Скрыта 1 категория' }).click();
  await expect(page.getByRole('menuitemcheckbox', { name: /Новая/ }).getAttribute('aria-checked')).resolves.toBe('false');
  await page.getByRole('menuitemcheckbox', { name: /Новая/ }).click();
  await eventually(() => xLabels(page), ['Новая', 'Выиграна']);
  await page.keyboard.press('Escape');

  // A series by title: one stacked bar part per row, each named in the legend; a pie has no series.
  await setup.getByLabel('Ряды').selectOption({ label: 'Название' });
  await eventually(
    () =>
      page
        .locator('.db-chart-figure .recharts-legend-item-text')
        .allTextContents()
        .then((all) => [...all].sort()),
    ['А', 'Б', 'В', 'Г', 'Д'],
  );
  // Its tooltip: the category and what is measured, then each series by its name.
  // (the first of two categories: the left quarter of the plot)
  const plot = (await page.locator('.db-chart-figure .recharts-cartesian-grid').boundingBox())!;
  await page.mouse.move(plot.x + plot.width / 4, plot.y + plot.height - 4);
  await eventually(() => page.locator('.db-chart-figure .recharts-tooltip-label').textContent(), 'Новая · Сумма: Сумма');
  await eventually(
    () =>
      page
        .locator('.db-chart-figure .recharts-tooltip-item')
        .allTextContents()
        .then((all) => [...all].sort()),
    ['А: 100', 'Б: 300', 'Г: 20'],
  );
  await page.mouse.move(0, 0);

  // A pie: two sectors.
  await setup.getByLabel('Вид').selectOption({ label: 'Круговая' });
  await eventually(() => page.locator('.db-chart-figure .recharts-pie-sector').count(), 2);
  await expect(setup.getByLabel('Ряды').count()).resolves.toBe(0);
  await page.emulateMedia({ colorScheme: 'dark' });
  await shoot(page, 'database-chart-pie-dark');
  await page.context().close();
});

it('a chart by a date field: categories by month, then by week and by day, labelled as people read them', async () => {
  const page = await signedIn('chart.dates@example.com');
  const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
  const holder = await fetchJson<{ data: { id: string } }>(`${S()}/section/private`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ type: 'Database', title: 'Встречи' }),
  });
  const db = (await fetchJson<{ data: Array<{ id: string }> }>(`${S()}/note/${holder.data.id}/blocks`, { cookie })).data[0].id;
  await fetchJson(`${S()}/database/${db}/fields`, { method: 'POST', cookie, body: JSON.stringify({ id: 'when', field: { name: 'Когда', type: 'date' } }) });
  const dates = ['2026-10-30', '2026-11-03', '2026-11-03', '2026-11-04'];
  await fetchJson(`${S()}/database/${db}/rows`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ rows: dates.map((when, i) => ({ title: `Встреча ${i}`, values: { when } })) }),
  });
  const chart = {
    uid: 'c1',
    type: 'barChart',
    name: 'По месяцам',
    orderedFields: [],
    chart: { x: { fieldId: 'when', bucket: 'month' }, y: { aggregate: 'count' } },
  };
  await fetchJson(`${S()}/database/${db}/views`, { method: 'POST', cookie, body: JSON.stringify({ layout: chart, placeAfter: null }) });

  await page.goto(`${suite.server.url}/${holder.data.id}`);
  await eventually(() => xLabels(page), ['окт. 2026', 'нояб. 2026']);
  const setup = page.getByRole('group', { name: 'Настройка диаграммы' });
  await setup.getByLabel('Группировать').selectOption({ label: 'по неделям' });
  // 30 Oct is in ISO week 44; 3 and 4 Nov in week 45.
  await eventually(() => xLabels(page), ['нед. 44 · 2026', 'нед. 45 · 2026']);
  await setup.getByLabel('Группировать').selectOption({ label: 'по дням' });
  await eventually(() => xLabels(page), ['30 окт. 2026', '3 нояб. 2026', '4 нояб. 2026']);
  await shoot(page, 'database-chart-dates-1280');
  await page.context().close();
});

it('what a Notion user expects (issue 34): sorted by value «Без значения» stays last; tooltips name the measure; thousands spaced; every month on a line', async () => {
  const page = await signedIn('chart.notion@example.com');
  const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
  const holder = await fetchJson<{ data: { id: string } }>(`${S()}/section/private`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ type: 'Database', title: 'Заказы' }),
  });
  const db = (await fetchJson<{ data: Array<{ id: string }> }>(`${S()}/note/${holder.data.id}/blocks`, { cookie })).data[0].id;
  const stage = {
    name: 'Этап',
    type: 'select',
    options: [
      { id: 'a', name: 'Новый', color: 'gray' },
      { id: 'b', name: 'Оплачен', color: 'green' },
    ],
  };
  await fetchJson(`${S()}/database/${db}/fields`, { method: 'POST', cookie, body: JSON.stringify({ id: 'stage', field: stage }) });
  await fetchJson(`${S()}/database/${db}/fields`, { method: 'POST', cookie, body: JSON.stringify({ id: 'when', field: { name: 'Когда', type: 'date' } }) });
  // 2,000 rows: 600 «Новый», 400 «Оплачен», 1,000 with no stage (the most); over the 12 months of 2026.
  for (let from = 0; from < 2000; from += 1000) {
    const rows = Array.from({ length: 1000 }, (_, j) => {
      const i = from + j;
      const month = String((i % 12) + 1).padStart(2, '0');
      return { title: `Заказ ${i}`, values: { when: `2026-${month}-15`, ...(i < 600 ? { stage: 'a' } : i < 1000 ? { stage: 'b' } : {}) } };
    });
    await fetchJson(`${S()}/database/${db}/rows`, { method: 'POST', cookie, body: JSON.stringify({ rows }) });
  }
  const views = [
    { uid: 'months', type: 'lineChart', name: 'По месяцам', orderedFields: [], chart: { x: { fieldId: 'when', bucket: 'month' }, y: { aggregate: 'count' } } },
    { uid: 'stages', type: 'barChart', name: 'По этапам', orderedFields: [], chart: { x: { fieldId: 'stage' }, y: { aggregate: 'count' }, sort: 'yDesc' } },
  ];
  for (const layout of views) await fetchJson(`${S()}/database/${db}/views`, { method: 'POST', cookie, body: JSON.stringify({ layout, placeAfter: null }) });

  await page.goto(`${suite.server.url}/${holder.data.id}`);
  // By value, most first — yet the 1,000 rows with no stage come last.
  await eventually(() => xLabels(page), ['Новый', 'Оплачен', 'Без значения']);
  await eventually(async () => {
    const [a, b, c] = await bars(page);
    return c > 0 && Math.abs(a / c - 0.6) < 0.02 && Math.abs(b / c - 0.4) < 0.02;
  }, true);
  expect(await page.locator('.db-chart-caption').textContent()).toBe('По 2\u00a0000 строкам');
  const yLabels = await page.locator('.db-chart-figure text.recharts-cartesian-axis-tick-value[orientation="left"]').allTextContents();
  expect(yLabels).toContain('1\u00a0000');
  // The tooltip of the «Без значения» bar names the measure and spaces the thousands.
  // Hovered once it is there and still (a chart drawn again after a read has its bars replaced for a moment).
  await page.locator('.db-chart-figure .recharts-bar-rectangle path, .db-chart-figure .recharts-bar-rectangle rect').nth(2).hover();
  const tooltip = page.locator('.db-chart-figure .recharts-default-tooltip');
  await eventually(() => tooltip.locator('.recharts-tooltip-label').textContent(), 'Без значения');
  await eventually(() => tooltip.locator('.recharts-tooltip-item').allTextContents(), ['Число строк: 1\u00a0000']);
  await shoot(page, 'database-chart-by-value-1280');

  // A line of 12 months: every month labelled, level where they fit and turned where they do not.
  const months = ['янв.', 'февр.', 'март', 'апр.', 'май', 'июнь', 'июль', 'авг.', 'сент.', 'окт.', 'нояб.', 'дек.'].map((m) => `${m} 2026`);
  const turned = () =>
    page
      .locator('.db-chart-figure text.recharts-cartesian-axis-tick-value[orientation="bottom"]')
      .evaluateAll((all) => all.map((el) => /rotate\(-45/.test(el.getAttribute('transform') ?? '')));
  await page.getByRole('tab', { name: /По месяцам/ }).click();
  await page.locator('.db-chart-figure .recharts-line').waitFor();
  await eventually(() => xLabels(page), months);
  await shoot(page, 'database-chart-months-1280');
  for (const width of [700, 375]) {
    await page.setViewportSize({ width, height: 1000 });
    await eventually(() => xLabels(page), months);
    expect(await turned()).toEqual(months.map(() => true));
    await page.locator('.db-chart-figure').scrollIntoViewIfNeeded();
    await shoot(page, `database-chart-months-${width}`);
  }
  // The tooltip of a month: «Число строк: 167».
  const line = (await page.locator('.db-chart-figure .recharts-cartesian-grid').boundingBox())!;
  await page.mouse.move(line.x + 2, line.y + line.height / 2);
  await eventually(() => tooltip.locator('.recharts-tooltip-label').textContent(), 'янв. 2026');
  await eventually(() => tooltip.locator('.recharts-tooltip-item').allTextContents(), ['Число строк: 167']);
  await page.context().close();
});

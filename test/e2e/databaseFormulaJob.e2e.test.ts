import { cookieOf } from '../helpers/browser';
import { browserSuite } from '../helpers/browserSuite';
import { shoot } from '../helpers/editorPage';
import { fetchJson } from '../helpers/serverProcess';

/*
 * A formula changed in a big database, from the browser (issue 38, docs/formulas.md «A changed
 * formula over many rows»): the change is saved at once, the view shows which formula is being
 * computed and how far (a progress bar under the toolbar) while the rows land, and the bar goes
 * once every row has its new value. FORMULA_INLINE_ROWS is 100 here, so 6,000 rows go to the
 * background job as 50,000 do by default.
 */

const suite = browserSuite({ timeoutMs: 150_000, env: { FORMULA_INLINE_ROWS: '100' } });
const ROWS = 6_000;

async function bigTable(url: string, cookie: string): Promise<string> {
  const S = `${url}/api/v3/spaces`;
  const holder = await fetchJson<{ data: { id: string } }>(`${S}/section/private`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ type: 'Database', title: 'Склад' }),
  });
  const block = (await fetchJson<{ data: Array<{ id: string }> }>(`${S}/note/${holder.data.id}/blocks`, { cookie })).data[0];
  const fields = {
    price: { name: 'Цена', type: 'number' },
    qty: { name: 'Количество', type: 'number' },
    // Added while the database is empty: computed at once; each row made below computes its own.
    total: { name: 'Сумма', type: 'formula', expression: 'prop("price") * prop("qty")' },
  };
  for (const [id, field] of Object.entries(fields))
    await fetchJson(`${S}/database/${block.id}/fields`, { method: 'POST', cookie, body: JSON.stringify({ id, field }) });
  for (let start = 0; start < ROWS; start += 1000) {
    const rows = Array.from({ length: 1000 }, (_, k) => ({ title: `Товар ${start + k}`, values: { price: start + k, qty: 3 } }));
    await fetchJson(`${S}/database/${block.id}/rows`, { method: 'POST', cookie, body: JSON.stringify({ rows }) });
  }
  return holder.data.id;
}

it('a changed formula over 6,000 rows: saved at once, the bar says how far, every row shows the new value', async () => {
  const page = await suite.signedIn('formula.job.e2e@example.com');
  const holderId = await bigTable(suite.server.url, await cookieOf(page));
  await page.goto(`${suite.server.url}/${holderId}`);
  const first = page.locator('.db-scroll .db-row', { hasText: 'Товар 0' });
  await first.waitFor();
  expect(await page.locator('.db-scroll .db-row', { hasText: 'Товар 2 ' }).first().textContent()).toContain('6');

  // What the bar showed, noted by the page itself (it may come and go between two looks of the test).
  await page.evaluate(() => {
    const seen: Array<{ text: string; now: string | null }> = [];
    (window as unknown as { computingSeen: typeof seen }).computingSeen = seen;
    new MutationObserver(() => {
      const bar = document.querySelector('.db-computing');
      if (bar) seen.push({ text: bar.textContent ?? '', now: bar.querySelector('[role="progressbar"]')?.getAttribute('aria-valuenow') ?? null });
    }).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  });

  const header = page.locator('.db-hcell', { hasText: 'Сумма' });
  await header.locator('.db-hcell-button').click();
  const dialog = page.getByRole('dialog', { name: 'Поле' });
  const expression = dialog.getByLabel('Формула', { exact: true });
  await expression.fill('prop("Цена") * 2 + 1');
  await dialog.locator('.db-formula-hint').waitFor();
  await expression.press('Control+Enter');
  await page.keyboard.press('Escape');
  const bar = page.locator('.db-computing');
  await bar.waitFor().catch(() => undefined);
  if (await bar.isVisible()) await shoot(page, 'formula-job-progress-light-1280');

  // Every row's new value lands; the bar goes.
  await page.waitForFunction(
    () => document.querySelector('.db-scroll .db-row')?.textContent?.includes('Товар 0') && !document.querySelector('.db-computing'),
    null,
    {
      timeout: 60_000,
    },
  );
  await page.locator('.db-scroll .db-row', { hasText: 'Товар 2 ' }).first().filter({ hasText: '5' }).waitFor();
  const seen = await page.evaluate(() => (window as unknown as { computingSeen: Array<{ text: string; now: string | null }> }).computingSeen);
  expect(seen.length).toBeGreaterThan(0);
  expect(seen[0].text).toMatch(/^Пересчёт формулы «Сумма»: \d[\d\s]* из 6\s000 строк/);
  expect(seen.every((s) => s.now !== null && Number(s.now) >= 0 && Number(s.now) <= 100)).toBe(true);
  // The rows read through the API agree, to the last.
  const last = await page.evaluate(
    async (url) => {
      const answer = await fetch(url, { credentials: 'include' });
      return ((await answer.json()) as { data: Array<{ data: { title: string; values: Record<string, unknown> } }> }).data.map((row) => [
        row.data.title,
        row.data.values.total,
      ]);
    },
    `${suite.server.url}/api/v3/spaces/database/${await databaseIdOf(page)}/rows?offset=${ROWS - 3}&limit=3`,
  );
  expect(last).toEqual([
    [`Товар ${ROWS - 3}`, (ROWS - 3) * 2 + 1],
    [`Товар ${ROWS - 2}`, (ROWS - 2) * 2 + 1],
    [`Товар ${ROWS - 1}`, (ROWS - 1) * 2 + 1],
  ]);
  await shoot(page, 'formula-job-done-light-1280');
});

async function databaseIdOf(page: import('playwright-core').Page): Promise<string> {
  return (await page.locator('.db[data-database-id]').first().getAttribute('data-database-id'))!;
}

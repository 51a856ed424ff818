import { dateStartMs } from '../../schema/database';
import { dateBucket, dayNumber } from '../../schema/groupBuckets';
import { databaseWithViews } from '../helpers/a11yContent';
import { axeViolations } from '../helpers/axe';
import { cookieOf } from '../helpers/browser';
import { fetchJson } from '../helpers/serverProcess';
import { browserSuite } from '../helpers/browserSuite';
import { eventually, shoot } from '../helpers/editorPage';

/*
 * A table grouped by a date and by a number from the browser (issue 38): «Группировка» offers the
 * date and number fields, a date's groups come relative to today until «Месяцам» is chosen, a
 * number's in ranges of the step chosen; each header says its group and its count; axe over the menu.
 */

const suite = browserSuite({ timeoutMs: 120_000 });

it('grouped by a date (relative, then by month) and by a number (ranges of 100)', async () => {
  const page = await suite.signedIn('grouping.e2e@example.com');
  const { holderId } = await databaseWithViews(suite.server.url, await cookieOf(page), 'Задачи');
  await page.goto(`${suite.server.url}/${holderId}`);
  await page.locator('.db-scroll .db-row').first().waitFor();
  const labels = () =>
    page
      .locator('.db-group-label')
      .allInnerTexts()
      .then((all) => all.map((t) => t.replace(/\s+/g, ' ').trim()));
  // What the two rows' dates (the 10th and the 12th of this month) make, as the server counts days.
  const now = new Date();
  const dates = [10, 12].map((d) => dateStartMs(`${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(d).padStart(2, '0')}`)!);
  const expected = (by: 'relative' | 'month') => {
    const today = dayNumber(Date.now(), 'Europe/Moscow');
    const counts = new Map<string, number>();
    for (const ms of dates) {
      const { label } = dateBucket(ms, by, 'Europe/Moscow', today);
      counts.set(label, (counts.get(label) ?? 0) + 1);
    }
    return [...counts].map(([label, n]) => `${label} ${n}`);
  };

  await page.getByRole('button', { name: 'Группировка' }).click();
  await page.getByRole('menuitemradio', { name: 'Срок' }).click();
  await eventually(labels, expected('relative'));
  await page.getByRole('button', { name: /Группы: Срок/ }).click();
  const menu = page.getByRole('menu');
  await menu.getByRole('group', { name: 'Даты по' }).waitFor();
  expect(await menu.getByRole('menuitemradio', { name: 'Относительно сегодня' }).getAttribute('aria-checked')).toBe('true');
  expect(await axeViolations(page, {}, menu)).toEqual([]);
  await shoot(page, 'database-group-date-menu-1280');
  await menu.getByRole('menuitemradio', { name: 'Месяцам' }).click();
  await eventually(labels, expected('month'));

  await page.getByRole('button', { name: /Группы: Срок/ }).click();
  // The group's field (the first of the names: «Подгруппы» lists them again).
  await page.getByRole('menuitemradio', { name: 'Цена' }).first().click();
  await eventually(labels, ['80 – 90 1', '120 – 130 1']);
  await page.getByRole('button', { name: /Группы: Цена/ }).click();
  await page.getByRole('menuitemradio', { name: 'По 100' }).click();
  await eventually(labels, ['0 – 100 1', '100 – 200 1']);
  await shoot(page, 'database-group-number-1280');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.locator('html[data-theme="dark"]').waitFor();
  expect(await axeViolations(page, { include: ['.db'] })).toEqual([]);
  await page.context().close();
});

it('sub-groups (issue 38): grouped by a status, then by a checkbox under each; a collapsed group hides its sub-groups', async () => {
  const page = await suite.signedIn('subgroups.e2e@example.com');
  const { holderId } = await databaseWithViews(suite.server.url, await cookieOf(page), 'Задачи');
  await page.goto(`${suite.server.url}/${holderId}`);
  await page.locator('.db-scroll .db-row').first().waitFor();
  const headers = () =>
    page.locator('.db-group').evaluateAll((all) =>
      all
        .map((g) => ({
          top: new DOMMatrixReadOnly(getComputedStyle(g).transform).m42,
          text: `${g.classList.contains('is-sub') ? 2 : 1}:${(g as HTMLElement).innerText.replace(/\s+/g, ' ').trim()}`,
        }))
        .sort((a, b) => a.top - b.top)
        .map((g) => g.text),
    );
  await page.getByRole('button', { name: 'Группировка' }).click();
  await page.getByRole('menuitemradio', { name: 'Статус' }).click();
  await eventually(headers, ['1:Сделать 1', '1:Готово 1']);
  await page.getByRole('button', { name: /Группы: Статус/ }).click();
  const menu = page.getByRole('menu');
  await menu.getByRole('group', { name: 'Подгруппы' }).getByRole('menuitemradio', { name: 'Проверено' }).click();
  await eventually(headers, ['1:Сделать 1', '2:Да 1', '1:Готово 1', '2:Нет 1']);
  await shoot(page, 'database-subgroups-1280');
  // «Сделать» collapsed: its sub-group and row hidden; «Готово» and its own stay.
  await page.getByRole('button', { name: /Свернуть группу «?Сделать/ }).click();
  await eventually(headers, ['1:Сделать 1', '1:Готово 1', '2:Нет 1']);
  expect(await page.locator('.db-scroll .db-row').count()).toBe(1);
  // Under a date's buckets too: by month, then by status (both rows are of this month).
  await page.getByRole('button', { name: /Группы: Статус/ }).click();
  await page.getByRole('menuitemradio', { name: 'Срок' }).first().click();
  await page.getByRole('button', { name: /Группы: Срок/ }).click();
  await page.getByRole('menuitemradio', { name: 'Месяцам' }).click();
  await page.getByRole('button', { name: /Группы: Срок/ }).click();
  await page.getByRole('menu').getByRole('group', { name: 'Подгруппы' }).getByRole('menuitemradio', { name: 'Статус' }).click();
  const month = new Date().toLocaleDateString('ru-RU', { month: 'long', year: 'numeric' }).replace(/\s*г\.$/, '');
  await eventually(
    async () => (await headers()).map((h) => h.toLowerCase()),
    [`1:${month} 2`, '2:сделать 1', '2:готово 1'].map((h) => h.toLowerCase()),
  );
  await shoot(page, 'database-subgroups-month-1280');
  await page.context().close();
});

it('grouped by a multi-select (issue 38): a row under each of its tags; a tag added elsewhere puts it under that one too, live', async () => {
  const page = await suite.signedIn('tags.e2e@example.com');
  const cookie = await cookieOf(page);
  const { holderId, rowId } = await databaseWithViews(suite.server.url, cookie, 'Задачи');
  const S = `${suite.server.url}/api/v3/spaces`;
  const call = async (method: string, path: string, body?: unknown) =>
    (await fetchJson<{ data: unknown }>(`${S}${path}`, { method, cookie, body: body === undefined ? undefined : JSON.stringify(body) })).data;
  const blocks = (await call('GET', `/note/${holderId}/blocks`)) as Array<{ id: string }>;
  const db = blocks[0].id;
  const tags = {
    name: 'Теги',
    type: 'multiSelect',
    options: [
      { id: 'ux', name: 'Дизайн', color: 'blue' },
      { id: 'be', name: 'Сервер', color: 'green' },
    ],
  };
  await call('POST', `/database/${db}/fields`, { id: 'tags', field: tags });
  // «Макет» is tagged both; «Вёрстка» none.
  await call('POST', `/row/${rowId}/cells/tags`, { value: ['ux', 'be'], version: 0 });
  await page.goto(`${suite.server.url}/${holderId}`);
  await page.locator('.db-scroll .db-row').first().waitFor();
  /** The headers and the rows' titles as drawn, top to bottom. */
  const drawn = () =>
    page.locator('.db-scroll .db-group, .db-scroll .db-row').evaluateAll((all) =>
      all
        .map((el) => ({
          top: new DOMMatrixReadOnly(getComputedStyle(el).transform).m42,
          text: el.classList.contains('db-group')
            ? `# ${(el as HTMLElement).innerText.replace(/\s+/g, ' ').trim()}`
            : ((el as HTMLElement).innerText.split('\n').find((line) => line.trim()) ?? '').trim(),
        }))
        .sort((a, b) => a.top - b.top)
        .map((el) => el.text),
    );
  await page.getByRole('button', { name: 'Группировка' }).click();
  await page.getByRole('menuitemradio', { name: 'Теги' }).click();
  await eventually(drawn, ['# Дизайн 1', 'Макет', '# Сервер 1', 'Макет', '# Без значения 1', 'Вёрстка']);
  // No sub-groups under tags (a row is in several groups).
  await page.getByRole('button', { name: /Группы: Теги/ }).click();
  expect(await page.getByRole('menu').getByRole('group', { name: 'Подгруппы' }).count()).toBe(0);
  await page.keyboard.press('Escape');
  await shoot(page, 'database-group-multiselect-1280');
  // Someone tags «Вёрстка» «Сервер»: it moves under «Сервер», each header over its own rows.
  const rows = (await call('GET', `/database/${db}/rows?limit=10`)) as Array<{ id: string; data: { title: string } }>;
  const layout = rows.find((r) => r.data.title === 'Вёрстка')!;
  await call('POST', `/row/${layout.id}/cells/tags`, { value: ['be'], version: 0 });
  await eventually(drawn, ['# Дизайн 1', 'Макет', '# Сервер 2', 'Макет', 'Вёрстка']);
  await page.context().close();
});

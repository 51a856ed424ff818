import { axeViolations } from '../helpers/axe';
import { browserSuite } from '../helpers/browserSuite';
import { eventually, shoot } from '../helpers/editorPage';
import { fetchJson } from '../helpers/serverProcess';
import { cookieOf } from '../helpers/browser';

/*
 * A form view in real Chromium against the real server (issue 38): made from the views' «+», its
 * questions chosen and one made required in the builder, opened to anyone with the link once the
 * page is published; an anonymous visitor on a phone answers it at /form/{viewId} — a required
 * question left blank is said under it, nothing sent — and the answer arrives as a row in the
 * owner's table, live.
 */

const suite = browserSuite();
const S = () => `${suite.server.url}/api/v3/spaces`;

it('a form: built in the database, answered anonymously by its link on a phone, the answer a new row', async () => {
  const page = await suite.signedIn('form.e2e@example.com');
  const cookie = await cookieOf(page);
  const holder = await fetchJson<{ data: { id: string } }>(`${S()}/section/private`, {
    method: 'POST',
    cookie,
    body: JSON.stringify({ type: 'Database', title: 'Заявки' }),
  });
  const db = (await fetchJson<{ data: Array<{ id: string }> }>(`${S()}/note/${holder.data.id}/blocks`, { cookie })).data[0].id;
  const field = (id: string, body: unknown) => fetchJson(`${S()}/database/${db}/fields`, { method: 'POST', cookie, body: JSON.stringify({ id, field: body }) });
  await field('topic', {
    name: 'Тема',
    type: 'select',
    options: [
      { id: 'bug', name: 'Ошибка', color: 'red' },
      { id: 'idea', name: 'Идея', color: 'blue' },
    ],
  });
  await field('agree', { name: 'Согласие', type: 'checkbox' });
  await field('owner', { name: 'Ответственный', type: 'person' });

  await page.goto(`${suite.server.url}/${holder.data.id}`);
  await page.locator('.db').first().waitFor();
  await page.getByRole('button', { name: 'Добавить вид' }).click();
  await page.getByRole('menuitem', { name: 'Форма' }).click();
  const builder = page.getByTestId('form-builder');
  await builder.waitFor();
  // Questions: the title is asked; «Тема» and «Согласие» added; a person field is not offered.
  await builder.getByRole('button', { name: '+ Добавить вопрос' }).click();
  await page.getByRole('menuitem', { name: 'Тема' }).click();
  await builder.getByRole('button', { name: '+ Добавить вопрос' }).click();
  expect(await page.getByRole('menuitem', { name: /Ответственный/ }).isDisabled()).toBe(true);
  await page.getByRole('menuitem', { name: 'Согласие' }).click();
  const questions = builder.getByTestId('form-question');
  await eventually(() => questions.count(), 3);
  await builder.locator('[data-testid="form-question"][data-field-id="agree"]').getByRole('switch', { name: 'Обязательный' }).click();
  await builder.getByRole('textbox', { name: 'Описание формы' }).fill('Расскажите, что случилось');
  await builder.getByRole('combobox', { name: 'Кто может заполнить' }).selectOption('public');
  // Stored on the server: the questions in order, the required one, the access, the description.
  const stored = async () => {
    const block = await fetchJson<{
      data: { data: { view: { layouts: Array<{ type: string; uid: string; orderedFields: Array<{ fieldId: string }>; form?: Record<string, unknown> }> } } };
    }>(`${S()}/block/${db}`, { cookie });
    return block.data.data.view.layouts.find((l) => l.type === 'form')!;
  };
  const settings = async () => {
    const { access, required, description } = (await stored()).form ?? {};
    return { access, required, description };
  };
  await eventually(settings, { access: 'public', required: ['agree'], description: 'Расскажите, что случилось' }, 10_000);
  const form = await stored();
  expect(form.orderedFields.map((f) => f.fieldId)).toEqual(['MAIN_FIELD', 'topic', 'agree']);
  // Not published yet: the builder says the link does not open.
  await builder.getByRole('note').waitFor();
  await shoot(page, 'database-form-builder-1280');
  expect(await axeViolations(page, { include: ['[data-testid="form-builder"]'] })).toEqual([]);

  await fetchJson(`${S()}/element/${holder.data.id}`, { method: 'PATCH', cookie, body: JSON.stringify({ isPublic: true }) });

  // An anonymous visitor on a phone, by the link.
  const context = await suite.browser.newContext({ viewport: { width: 375, height: 760 }, hasTouch: true, isMobile: true });
  const visitor = await context.newPage();
  await visitor.goto(`${suite.server.url}/form/${db}/${form.uid}`);
  const fill = visitor.getByTestId('form-fill');
  await fill.waitFor();
  expect(await visitor.getByRole('heading', { level: 1 }).textContent()).toContain('Заявки');
  await visitor.getByText('Ответ будет записан анонимно').waitFor();
  await fill.getByRole('textbox', { name: /Название/ }).fill('Не открывается страница');
  await fill.getByRole('combobox', { name: 'Тема' }).selectOption({ label: 'Ошибка' });
  await fill.getByRole('button', { name: 'Отправить' }).click();
  // The required box left blank: said under it, nothing sent.
  await fill.locator('[data-field-id="agree"]').getByRole('alert').waitFor();
  await shoot(visitor, 'database-form-fill-375');
  expect(await axeViolations(visitor, { include: ['[data-testid="form-fill"]'] })).toEqual([]);
  await fill.getByRole('checkbox', { name: /Согласие/ }).check();
  await fill.getByRole('button', { name: 'Отправить' }).click();
  await visitor.getByTestId('form-sent').waitFor();
  expect(await visitor.getByRole('link', { name: 'Открыть строку' }).count()).toBe(0);
  await shoot(visitor, 'database-form-sent-375');

  // The owner's table hears the new row.
  await page
    .getByRole('tab', { name: /Таблица/ })
    .first()
    .click();
  await page.locator('.db-scroll .db-row', { hasText: 'Не открывается страница' }).waitFor({ timeout: 10_000 });
  const rows = await fetchJson<{ data: Array<{ data: { title: string; values: Record<string, unknown> } }> }>(`${S()}/database/${db}/rows?limit=10`, {
    cookie,
  });
  expect(rows.data.map((r) => [r.data.title, r.data.values.topic, r.data.values.agree])).toEqual([['Не открывается страница', 'bug', true]]);
  await context.close();
});

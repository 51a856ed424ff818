import { MAIN_FIELD_ID, layoutProblems, type DatabaseConfig, type DatabaseLayout } from './blocks/database';
import { formAnswerProblems, formQuestions, isBlankAnswer } from './databaseForm';

const config = {
  fields: {
    [MAIN_FIELD_ID]: { name: 'Имя', type: 'text' },
    n: { name: 'Сколько', type: 'number' },
    who: { name: 'Кто', type: 'person' },
    box: { name: 'Согласие', type: 'checkbox' },
  },
} as DatabaseConfig;
const form = (orderedFields: string[], required: string[] = []): DatabaseLayout => ({
  uid: 'f',
  type: 'form',
  orderedFields: orderedFields.map((fieldId) => ({ fieldId, isWrap: false })),
  form: { required },
});

test('a form asks the fields it lists, in order, each required or not; fields gone or of types forms do not ask are skipped', () => {
  const data = { config, view: { layouts: [] } };
  const asked = formQuestions(data, form(['n', MAIN_FIELD_ID, 'gone', 'who', 'box'], ['box']));
  expect(asked.map((q) => [q.fieldId, q.required])).toEqual([
    ['n', false],
    [MAIN_FIELD_ID, false],
    ['box', true],
  ]);
});

test('blank answers: nothing, null, empty or spaces, an empty list, an unchecked box; zero is an answer', () => {
  for (const value of [undefined, null, '', '   ', [], false]) expect(isBlankAnswer(value)).toBe(true);
  for (const value of [0, 'a', ['x'], true, { start: '2026-12-05', end: '2026-12-06' }]) expect(isBlankAnswer(value as never)).toBe(false);
});

test('an answer is refused for a field not asked and for a required question left blank', () => {
  const questions = formQuestions({ config, view: { layouts: [] } }, form([MAIN_FIELD_ID, 'n', 'box'], [MAIN_FIELD_ID, 'box']));
  expect(formAnswerProblems(questions, { [MAIN_FIELD_ID]: 'Да', box: true, n: 0 })).toEqual([]);
  expect(formAnswerProblems(questions, { box: false, who: ['u1'] }).map((p) => p.path)).toEqual(['values.who', `values.${MAIN_FIELD_ID}`, 'values.box']);
});

test('a form view listing a field forms do not ask, or requiring one it does not list, does not fit; only a form has form settings', () => {
  expect(layoutProblems(config, form([MAIN_FIELD_ID, 'box'], ['box']))).toEqual([]);
  expect(layoutProblems(config, form(['who'])).map((p) => p.path.join('.'))).toEqual(['orderedFields.0.fieldId']);
  expect(layoutProblems(config, form(['n'], ['box'])).map((p) => p.path.join('.'))).toEqual(['form.required.0']);
  const table: DatabaseLayout = { uid: 't', type: 'table', orderedFields: [], form: {} };
  expect(layoutProblems(config, table).map((p) => p.path.join('.'))).toEqual(['form']);
});

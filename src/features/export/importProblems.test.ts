import fs from 'node:fs';
import path from 'node:path';
import i18next from 'i18next';
import { IMPORT_PROBLEM_CODES, importProblem } from '../../../schema/importProblems';
import { importProblemText } from './importProblems';

/** Every problem an import may report is said in Russian, its parameters in place (the app's translations, loaded by the web tests' setup). */
const common = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../locales/ru/common.json'), 'utf8')) as { export: { problems: Record<string, string> } };

test('each code has Russian words (with its plural forms where it counts)', () => {
  const keys = Object.keys(common.export.problems);
  for (const code of IMPORT_PROBLEM_CODES) expect([code, keys.some((k) => k === code || k.startsWith(`${code}_`))]).toEqual([code, true]);
});

test('parameters and counts are put in; an unknown code falls back to the English message', () => {
  const t = i18next.t.bind(i18next);
  expect(importProblemText(t, importProblem('Отчёт', 'pictureMissing', { src: 'photo.png' }))).toBe('картинки photo.png нет в архиве — она пропущена');
  expect(importProblemText(t, importProblem('', 'moreFilesUnused', { count: 5 }))).toBe('ещё 5 файлов без страниц пропущены');
  expect(importProblemText(t, importProblem('', 'moreFilesUnused', { count: 2 }))).toBe('ещё 2 файла без страниц пропущены');
  expect(importProblemText(t, { page: '', code: 'somethingNew' as never, params: {}, message: 'a new kind of problem' })).toBe('a new kind of problem');
});

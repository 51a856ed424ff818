import i18next from 'i18next';
import { ApiRequestError } from '../../app/api';
import { importFailureText } from './importPages';

/* Why an import was refused, in the words the import dialog and the page menu's toast show (docs/import-export.md, docs/security.md). */

const t = i18next.t.bind(i18next);

test('an archive beyond the limits (422 import.too_big) says so, not «not a file we read»', () => {
  expect(importFailureText(t, new ApiRequestError(422, 'import.too_big', 'the zip is too big to import: more than 1024 MB unpacked'))).toBe(
    'Архив слишком большой для импорта: в нём может быть не больше 20 000 файлов и 1 ГБ в распакованном виде, а архивов внутри архивов — не глубже трёх уровней',
  );
});

test('too many imports says how long to wait; an upload over the limit and a file we do not read have their own words', () => {
  expect(importFailureText(t, new ApiRequestError(429, 'rate_limited', 'too many imports', null, { retryAfter: 30 }))).toBe(
    'Слишком много запросов. Попробуйте через 30 с',
  );
  expect(importFailureText(t, new ApiRequestError(413, 'payload_too_large', 'too big'))).toBe('Файл слишком большой для загрузки на этот сервер');
  expect(importFailureText(t, new ApiRequestError(422, 'validation_failed', 'export.json is not JSON'))).toMatch(/^Этот файл не удалось импортировать/);
  expect(importFailureText(t, new Error('network'))).toMatch(/^Этот файл не удалось импортировать/);
});

import i18next from '../../app/i18n';
import { COMPUTED_FIELD_TYPES, DATABASE_FIELD_TYPES } from '../../../schema/blocks/database';
import { PAGE_TYPES } from '../../../schema/constants';
import { IMPORT_TYPES } from '../../../schema/csvColumns';

/* The keys these screens build at run time (the i18n test sees only literal ones) all have Russian words. */
const missing = (keys: string[]) => keys.filter((key) => !i18next.exists(key));

test('page type names, embed address errors, CSV types, reasons and parse codes', () => {
  expect(missing(PAGE_TYPES.map((type) => `pageTypes.names.${type}`))).toEqual([]);
  expect(missing(['empty', 'scheme', 'invalid', 'credentials', 'tooLong', 'sameOrigin', 'saveFailed'].map((p) => `pageTypes.iframe.errors.${p}`))).toEqual([]);
  expect(missing(IMPORT_TYPES.map((type) => `csvImport.types.${type}`))).toEqual([]);
  expect(missing(['comma', 'semicolon', 'tab'].map((d) => `csvImport.delimiters.${d}`))).toEqual([]);
  // Every field type a cell can be refused for (the writable ones an import reaches) says why.
  const writable = DATABASE_FIELD_TYPES.filter((type) => !COMPUTED_FIELD_TYPES.has(type) && type !== 'person' && type !== 'files');
  expect(missing([...writable, 'tooManyOptions', 'other'].map((kind) => `csvImport.problems.${kind}`))).toEqual([]);
  expect(
    missing(['MissingQuotes', 'InvalidQuotes', 'TooFewFields', 'TooManyFields', 'UndetectableDelimiter', 'other'].map((c) => `csvImport.parseCodes.${c}`)),
  ).toEqual([]);
});

import { LIMITS } from '../constants';
import { convertValue, describeDatabaseBodySchema, newDatabaseData } from '../database';
import { databaseBlock } from '../../plugins/blocks/database/block';
import { DATABASE_LIMITS, databaseDataSchema, databaseFieldSchema, foreignRelations, valueProblem } from './database';
import { dataVersionOf, upgradeData } from './versions';

/** An inline database's title and description (issue 34 §2): optional plain text in its data. */
describe('a database block’s title and description', () => {
  const plain = newDatabaseData('v1');

  test('data without them stays valid and reads the same (no new data version)', () => {
    expect(databaseDataSchema.parse(plain)).toEqual(plain);
    expect(dataVersionOf(databaseBlock)).toBe(1);
    expect(upgradeData(databaseBlock, { ...plain })).toEqual({ data: plain });
    const element = databaseBlock.toSlateFields(plain);
    expect('title' in element || 'description' in element).toBe(false);
    expect(databaseBlock.toWireData({ type: 'databaseBlock', uid: 'd', ...element } as never)).toEqual(plain);
  });

  test('a title and a description are kept and carried through the editor element both ways', () => {
    const data = { ...plain, title: 'Задачи команды', description: 'Что мы делаем\nв этом месяце' };
    expect(databaseDataSchema.parse(data)).toEqual(data);
    const element = databaseBlock.toSlateFields(data);
    expect(element).toMatchObject({ title: data.title, description: data.description });
    expect(databaseBlock.toWireData({ type: 'databaseBlock', uid: 'd', ...element } as never)).toEqual(data);
  });

  test('the default row template is carried through the editor element both ways, so an editor-side write keeps it', () => {
    for (const defaultTemplate of ['0b7c1d2e-template', null]) {
      const data = { ...plain, defaultTemplate };
      const element = databaseBlock.toSlateFields(data);
      expect(element).toMatchObject({ defaultTemplate });
      expect(databaseBlock.toWireData({ type: 'databaseBlock', uid: 'd', ...element } as never)).toEqual(data);
    }
  });

  test('the limits: a title of LIMITS.titleLength, a description of DATABASE_LIMITS.descriptionLength; text only', () => {
    expect(databaseDataSchema.safeParse({ ...plain, title: 'я'.repeat(LIMITS.titleLength) }).success).toBe(true);
    const long = databaseDataSchema.safeParse({ ...plain, title: 'я'.repeat(LIMITS.titleLength + 1) });
    expect(long.success ? [] : long.error.issues.map((i) => i.path.join('.'))).toEqual(['title']);
    expect(databaseDataSchema.safeParse({ ...plain, description: 'я'.repeat(DATABASE_LIMITS.descriptionLength) }).success).toBe(true);
    expect(databaseDataSchema.safeParse({ ...plain, description: 'я'.repeat(DATABASE_LIMITS.descriptionLength + 1) }).success).toBe(false);
    expect(databaseDataSchema.safeParse({ ...plain, title: { text: 'x' } }).success).toBe(false);
    expect(databaseDataSchema.safeParse({ ...plain, title: null }).success).toBe(false);
  });

  test('the call’s body: either key, null clears; none, unknown keys or too long are refused', () => {
    expect(describeDatabaseBodySchema.safeParse({ title: 'A' }).success).toBe(true);
    expect(describeDatabaseBodySchema.safeParse({ description: null }).success).toBe(true);
    expect(describeDatabaseBodySchema.safeParse({}).success).toBe(false);
    expect(describeDatabaseBodySchema.safeParse({ title: 'A', icon: 'x' }).success).toBe(false);
    expect(describeDatabaseBodySchema.safeParse({ title: 'я'.repeat(LIMITS.titleLength + 1) }).success).toBe(false);
    expect(describeDatabaseBodySchema.safeParse({ description: 'я'.repeat(DATABASE_LIMITS.descriptionLength + 1) }).success).toBe(false);
  });
});

describe('a relation to another database (docs/relations.md)', () => {
  const other = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
  const one = { name: 'Клиент', type: 'relation' as const, databaseId: other, limit: 'one' as const };
  const many = { name: 'Клиенты', type: 'relation' as const, databaseId: other };

  test('a field names a database by its id and may be limited to one row; nothing else is taken', () => {
    expect(databaseFieldSchema.safeParse(one).success).toBe(true);
    expect(databaseFieldSchema.safeParse({ ...many, databaseId: 'not-an-id' }).success).toBe(false);
    expect(databaseFieldSchema.safeParse({ ...many, limit: 'two' }).success).toBe(false);
    expect(databaseFieldSchema.safeParse({ ...many, twoWay: true }).success).toBe(false);
  });

  test('a cell limited to one row holds one; each row once', () => {
    expect(valueProblem(one, ['a'])).toBeNull();
    expect(valueProblem(one, ['a', 'b'])).toMatch(/one row/);
    expect(valueProblem(many, ['a', 'b'])).toBeNull();
    expect(valueProblem(many, ['a', 'a'])).toMatch(/once/);
  });

  test('a field limited later keeps the first row of each cell', () => {
    expect(convertValue(many, one, ['a', 'b'])).toEqual(['a']);
    expect(convertValue(one, many, ['a'])).toEqual(['a']);
    // Into text only by titles: a retype (no titles) clears the cell rather than writing ids.
    expect(convertValue(many, { name: 'Текст', type: 'text' }, ['a'])).toBeUndefined();
    expect(convertValue(many, { name: 'Текст', type: 'text' }, ['a'], { names: { rowTitle: () => 'Альфа' } })).toBe('Альфа');
  });

  test('the relations naming another database, with it', () => {
    const config = { fields: { MAIN_FIELD: { name: 'Название', type: 'text' as const }, client: one, self: { name: 'Связано', type: 'relation' as const } } };
    expect(foreignRelations(config, 'own')).toEqual(new Map([['client', other]]));
    expect(foreignRelations(config, other)).toEqual(new Map());
  });
});

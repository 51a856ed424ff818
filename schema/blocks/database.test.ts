import { LIMITS } from '../constants';
import { describeDatabaseBodySchema, newDatabaseData } from '../database';
import { DATABASE_LIMITS, databaseBlock, databaseDataSchema } from './database';
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

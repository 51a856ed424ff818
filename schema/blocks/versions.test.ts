import { createBlockBodySchema, updateBlockBodySchema, versionedWrite, wireBlockSchema } from '../block';
import { codeBlock } from '../../plugins/blocks/code/block';
import type { BlockUpgrade } from './definition';
import { BLOCK_DEFINITIONS } from './index';
import { dataVersionOf, upgradeData } from './versions';

/** Two steps of a made-up type: a field renamed, then one added. */
const steps: BlockUpgrade[] = [
  { name: 'note: body → text', up: ({ body, ...rest }) => ({ ...rest, text: body }) },
  { name: 'note: a colour, none', up: (data) => ({ ...data, colour: null }) },
];
const note = { wireType: 'note', upgrades: steps };

test('every block type is at version 1 today: no step has shipped', () => {
  expect(BLOCK_DEFINITIONS.map((definition) => dataVersionOf(definition))).toEqual(BLOCK_DEFINITIONS.map(() => 1));
});

test('a type is at 1 + its steps; data is taken up from its version by the steps after it, in order', () => {
  expect(dataVersionOf(note)).toBe(3);
  expect(upgradeData(note, { body: 'старое' }, 1)).toEqual({ data: { text: 'старое', colour: null } });
  // No version said: the current one.
  expect(upgradeData(note, { text: 'как есть', colour: null })).toEqual({ data: { text: 'как есть', colour: null } });
  expect(upgradeData(note, { text: 'среднее' }, 2)).toEqual({ data: { text: 'среднее', colour: null } });
  expect(upgradeData(note, { text: 'новое', colour: 'red' }, 3)).toEqual({ data: { text: 'новое', colour: 'red' } });
});

test('a version the type does not know is an error, not a guess', () => {
  expect(upgradeData(note, { text: 'из будущего' }, 4)).toEqual({ error: expect.stringMatching(/data version 4 of note is newer than this server's \(3\)/) });
  expect(upgradeData(note, {}, 0)).toEqual({ error: 'data version 0 is not a version' });
  expect(upgradeData(note, {}, 1.5)).toEqual({ error: 'data version 1.5 is not a version' });
});

describe('a write of a type whose shape changed (code blocks given a step, as a later change would ship)', () => {
  // Code once kept its text as a string; today's shape is tokens.
  const fromText: BlockUpgrade = {
    name: 'code: text → tokens',
    up: ({ text, ...rest }) => ({ ...rest, tokens: typeof text === 'string' && text !== '' ? [{ text }] : [] }),
  };
  const before = codeBlock.upgrades;
  beforeAll(() => Object.assign(codeBlock, { upgrades: [fromText] }));
  afterAll(() => Object.assign(codeBlock, { upgrades: before }));

  const create = (data: unknown, dataVersion?: number) =>
    createBlockBodySchema.safeParse({ pageId: 'p', type: 'code', data, ...(dataVersion === undefined ? {} : { dataVersion }) });

  test('older data is taken up to the current shape, checked as such, and stored without its version', () => {
    const parsed = create({ text: 'print(1)', language: 'python' }, 1);
    expect(parsed.success && parsed.data).toEqual({ pageId: 'p', type: 'code', data: { tokens: [{ text: 'print(1)' }], language: 'python' } });
    // Absent is the current version (an API client writing today's shape): nothing is taken up.
    expect(create({ text: 'x', language: 'python' }).success).toBe(false);
    const today = create({ tokens: [{ text: 'x' }], language: 'python' });
    expect(today.success && today.data.data).toEqual({ tokens: [{ text: 'x' }], language: 'python' });
    const update = updateBlockBodySchema.safeParse({ version: 3, type: 'code', data: { text: 'y', language: 'go' }, dataVersion: 1 });
    expect(update.success && update.data).toEqual({ version: 3, type: 'code', data: { tokens: [{ text: 'y' }], language: 'go' } });
  });

  test('current data at its version passes as it is; data from a newer client, or older data that does not fit once upgraded, is refused', () => {
    const current = create({ tokens: [{ text: 'print(2)' }], language: 'python' }, 2);
    expect(current.success && current.data.data).toEqual({ tokens: [{ text: 'print(2)' }], language: 'python' });
    const newer = create({ tokens: [], language: 'python' }, 3);
    expect(newer.success).toBe(false);
    expect(!newer.success && newer.error.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['dataVersion', expect.stringMatching(/data version 3 of code is newer than this server's \(2\): reload the app/)],
    ]);
    const unfit = create({ text: 'x', language: 'cobol' }, 1);
    expect(!unfit.success && unfit.error.issues.map((i) => i.path.join('.'))).toEqual(['data.language']);
  });

  test('the web app sends the version its data is at, for every type', () => {
    expect(versionedWrite({ type: 'code', data: {} })).toEqual({ type: 'code', data: {}, dataVersion: 2 });
    expect(versionedWrite({ type: 'text', data: {} })).toEqual({ type: 'text', data: {}, dataVersion: 1 });
  });

  test('a step that cannot take the data is a 422 at dataVersion, not a crash', () => {
    const before = codeBlock.upgrades;
    Object.assign(codeBlock, {
      upgrades: [
        {
          name: 'code: needs text',
          up: () => {
            throw new Error('no text');
          },
        },
      ],
    });
    try {
      const parsed = create({ language: 'python' }, 1);
      expect(!parsed.success && parsed.error.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
        ['dataVersion', 'data version 1 of code could not be taken up («code: needs text»): no text'],
      ]);
    } finally {
      Object.assign(codeBlock, { upgrades: before });
    }
  });

  test('a block as the server sends it is at the current version: checked as it is', () => {
    const wire = { id: 'b', contentType: 'Block', pageId: 'p', type: 'code', version: 1, parentId: null, placeAfter: null };
    expect(wireBlockSchema.safeParse({ ...wire, data: { tokens: [], language: 'python' } }).success).toBe(true);
    expect(wireBlockSchema.safeParse({ ...wire, data: { text: 'x', language: 'python' } }).success).toBe(false);
  });
});

import editorFile from '../locales/ru/documentEditor.json';
import { BLOCK_DEFINITIONS } from '../../schema/blocks';
import { BLOCK_STRINGS, sharedKeys, withBlockStrings } from './blockStrings';

describe("the block types' strings", () => {
  it('are read from every block type folder', () => {
    expect(Object.keys(BLOCK_STRINGS)).toEqual(expect.arrayContaining(['divider', 'code', 'table', 'database']));
  });

  it('give every type of the slash menu a name and a line, in Russian', () => {
    const strings = withBlockStrings(editorFile) as { blockTypes: Record<string, string>; blockDescriptions: Record<string, string> };
    for (const { wireType } of BLOCK_DEFINITIONS.filter((d) => d.wireType !== 'databaseRow')) {
      expect({ wireType, name: strings.blockTypes[wireType] }).toEqual({ wireType, name: expect.stringMatching(/[а-яё]/i) });
      expect({ wireType, line: strings.blockDescriptions[wireType] }).toEqual({ wireType, line: expect.stringMatching(/[а-яё]/i) });
    }
  });

  it('add keys and change none: no key is given twice', () => {
    const folders = Object.entries(BLOCK_STRINGS);
    for (const [folder, strings] of folders) {
      expect({ folder, withCore: sharedKeys(editorFile, strings) }).toEqual({ folder, withCore: [] });
      for (const [other, theirs] of folders)
        if (other < folder) expect({ folder, other, shared: sharedKeys(theirs, strings) }).toEqual({ folder, other, shared: [] });
    }
  });

  it('a key the core file has stays the core file’s', () => {
    const merged = withBlockStrings({ dividerLabel: 'ядро', blockTypes: { text: 'ядро' } }) as { dividerLabel: string; blockTypes: Record<string, string> };
    expect(merged.dividerLabel).toBe('ядро');
    expect(merged.blockTypes.text).toBe('ядро');
    expect(merged.blockTypes.code).toBe('Код');
  });
});

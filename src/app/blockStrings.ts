/**
 * Each block type's Russian strings, in its folder (plugins/blocks/<type>/ru.json), merged into
 * the editor's namespace (`documentEditor`) by initI18n: a type's name and slash-menu line
 * (`blockTypes.<wireType>`, `blockDescriptions.<wireType>`) and its view's own keys. They are few,
 * so they come with the app's code rather than as fetched files. A type adds keys and changes
 * none: a key two files give is a mistake (blockStrings.test.ts), and the core file wins.
 */
type Strings = Record<string, unknown>;

const FILES = import.meta.glob<Strings>(['../../plugins/blocks/*/ru.json', '../../examples/blocks/*/ru.json'], { eager: true, import: 'default' });

/** Each block type folder's strings, by folder name. */
export const BLOCK_STRINGS: Readonly<Record<string, Strings>> = Object.fromEntries(
  Object.entries(FILES).map(([file, strings]) => [/\/blocks\/([^/]+)\/ru\.json$/.exec(file)?.[1] ?? file, strings]),
);

const isTree = (value: unknown): value is Strings => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The dotted keys of leaves both trees give. */
export function sharedKeys(a: Strings, b: Strings, prefix = ''): string[] {
  return Object.keys(b).flatMap((key) => {
    if (!(key in a)) return [];
    return isTree(a[key]) && isTree(b[key]) ? sharedKeys(a[key], b[key], `${prefix}${key}.`) : [`${prefix}${key}`];
  });
}

function merge(into: Strings, from: Strings): Strings {
  const out: Strings = { ...into };
  for (const [key, value] of Object.entries(from)) {
    const have = out[key];
    if (have === undefined) out[key] = value;
    else if (isTree(have) && isTree(value)) out[key] = merge(have, value);
  }
  return out;
}

/** The editor's namespace with every block type's strings added (the core file's keys kept). */
export function withBlockStrings(documentEditor: Strings): Strings {
  return Object.values(BLOCK_STRINGS).reduce(merge, documentEditor);
}

import fs from 'node:fs';
import path from 'node:path';
import { withBlockStrings } from './blockStrings';
import { NAMESPACES, type Namespace } from './i18n';

/** The translation files as the app fetches them, the block types' strings joined to the editor's (as initI18n does). */
const files = Object.fromEntries(
  NAMESPACES.map((ns) => [ns, JSON.parse(fs.readFileSync(path.resolve(__dirname, `../locales/ru/${ns}.json`), 'utf8'))]),
) as Record<Namespace, Record<string, unknown>>;
const resources = { ru: { ...files, documentEditor: withBlockStrings(files.documentEditor) } };

/** Every literal key passed to t() in the app, with the namespace its file uses. */
function usedKeys(): { file: string; ns: Namespace; key: string }[] {
  const root = path.resolve(__dirname, '..');
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.tsx?$/.test(entry.name) && !entry.name.includes('.test.')) files.push(full);
    }
  };
  walk(root);
  // The block types' views (plugins/blocks/<type>/) are the app's too.
  walk(path.resolve(root, '../plugins/blocks'));
  return files.flatMap((file) => {
    const source = fs.readFileSync(file, 'utf8');
    const ns: Namespace = source.includes("useTranslation('documentEditor')")
      ? 'documentEditor'
      : source.includes("useTranslation('automation')")
        ? 'automation'
        : 'common';
    return [
      // t('key', { ns: 'common' }) reads another namespace than the file's.
      ...[...source.matchAll(/\bt\('([^'$`]+)'(?:,\s*\{\s*ns:\s*'(\w+)')?/g)].map((m) => ({
        file: path.relative(root, file),
        ns: (m[2] as Namespace | undefined) ?? ns,
        key: m[1],
      })),
      // editorT (src/editor/blocks/textBlockParts.ts) reads the editor's namespace without a hook.
      ...[...source.matchAll(/\beditorT\('([^'$`]+)'/g)].map((m) => ({ file: path.relative(root, file), ns: 'documentEditor' as const, key: m[1] })),
      // A feature's error messages (src/app/errors.ts): its table's values are keys.
      ...[...source.matchAll(/(?:: FeatureMessages|ERROR_MESSAGES: [^=]+) = \{([^}]*)\}/g)].flatMap((table) =>
        [...table[1].matchAll(/:\s*'([\w.]+)'/g)].map((m) => ({ file: path.relative(root, file), ns, key: m[1] })),
      ),
    ];
  });
}

function lookup(tree: unknown, key: string): unknown {
  return key.split('.').reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), tree);
}

describe('Russian translations', () => {
  it('has a string for every key the app uses', () => {
    const keys = usedKeys();
    expect(keys.length).toBeGreaterThan(20);
    // A counted string may be given in Russian's plural forms instead (key_one, key_few, key_many).
    const has = (ns: Namespace, key: string) =>
      typeof lookup(resources.ru[ns], key) === 'string' ||
      ['one', 'few', 'many'].every((form) => typeof lookup(resources.ru[ns], `${key}_${form}`) === 'string');
    const missing = keys.filter(({ ns, key }) => !has(ns, key));
    expect(missing).toEqual([]);
  });

  it('every namespace file is fetched by the app, none is bundled', () => {
    const translations = fs.readFileSync(path.resolve(__dirname, 'translations.ts'), 'utf8');
    for (const ns of NAMESPACES) expect(translations).toContain(`../locales/ru/${ns}.json?url`);
    const importers = (dir: string): string[] =>
      fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) return importers(full);
        return /\.tsx?$/.test(entry.name) && !entry.name.includes('.test.') && /locales\/ru\/\w+\.json'/.test(fs.readFileSync(full, 'utf8')) ? [full] : [];
      });
    // The server's drawing of a page's top (src/ssr, its own bundle in dist-ssr/, never the app's) has the words built in.
    const ssr = path.resolve(__dirname, '..', 'ssr', 'pageTop.tsx');
    expect(importers(path.resolve(__dirname, '..')).filter((file) => file !== ssr)).toEqual([]);
    expect(importers(path.resolve(__dirname, '..'))).toContain(ssr);
  });

  it('has every sync status and sidebar section the app can show', () => {
    for (const status of ['saved', 'pending', 'offline', 'error']) expect(typeof lookup(resources.ru.common, `sync.${status}`)).toBe('string');
    for (const section of ['favorite', 'all', 'shared', 'private']) {
      expect(typeof lookup(resources.ru.common, `sidebar.sections.${section}`)).toBe('string');
    }
  });
});

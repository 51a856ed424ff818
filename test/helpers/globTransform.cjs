'use strict';
/**
 * Jest transformer for app code that finds modules with Vite's `import.meta.glob` (the block
 * types' views and strings: src/editor/blocks/index.ts, src/app/blockStrings.ts). Jest runs
 * CommonJS and knows no `import.meta`, so each eager glob is written out before swc sees the file:
 * `import.meta.glob('../x/*\/View.tsx', { eager: true })` becomes an object of the matching files'
 * `require()`s, keyed by the same relative paths Vite gives. Only eager globs with `*` in whole
 * path segments are taken (what the app uses); anything else fails loudly here rather than
 * differently from the build. The matched files are part of the cache key, so a new block folder
 * is seen by the next run.
 */
const fs = require('node:fs');
const path = require('node:path');
const { createTransformer: createSwc } = require('@swc/jest');

/** `import.meta.glob<…>(patterns, { options })`: patterns one string or an array of strings. */
const GLOB = /import\.meta\.glob(?:<[^>(]*>)?\(\s*((?:'[^']+'|"[^"]+")|\[\s*(?:(?:'[^']+'|"[^"]+")\s*,?\s*)+\])\s*,\s*\{([^}]*)\}\s*,?\s*\)/g;
const patternsOf = (text) => [...text.matchAll(/'([^']+)'|"([^"]+)"/g)].map((m) => m[1] ?? m[2]);

/** The files a pattern matches, relative to `dir` as written in the pattern, sorted. */
function expand(dir, pattern) {
  if (pattern.includes('**')) throw new Error(`globTransform: "**" is not supported (${pattern})`);
  let found = [''];
  for (const segment of pattern.split('/')) {
    const next = [];
    for (const base of found) {
      const at = path.resolve(dir, base || '.');
      if (!segment.includes('*')) {
        if (fs.existsSync(path.join(at, segment))) next.push(base ? `${base}/${segment}` : segment);
        continue;
      }
      const re = new RegExp(`^${segment.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`);
      for (const name of fs.readdirSync(at).sort()) if (re.test(name)) next.push(base ? `${base}/${name}` : name);
    }
    found = next;
  }
  return found;
}

function rewrite(source, filename) {
  if (!/import\.meta\.glob\s*[<(]/.test(source)) return { code: source, files: [] };
  const dir = path.dirname(filename);
  const files = [];
  const code = source.replace(GLOB, (_all, patternsText, optionsText) => {
    if (!/\beager\s*:\s*true\b/.test(optionsText)) throw new Error(`globTransform: only eager globs are supported (${filename})`);
    const imported = /\bimport\s*:\s*(['"])(\w+)\1/.exec(optionsText)?.[2];
    const entries = patternsOf(patternsText)
      .flatMap((pattern) => expand(dir, pattern))
      .map((file) => {
        files.push(file);
        const key = file.startsWith('.') ? file : `./${file}`;
        const required = `require(${JSON.stringify(key)})`;
        // A JSON file's `default` is the file's value (require gives the value itself).
        const value =
          imported === undefined ? required : imported === 'default' && file.endsWith('.json') ? required : `${required}[${JSON.stringify(imported)}]`;
        return `${JSON.stringify(key)}: ${value}`;
      });
    return `({ ${entries.join(', ')} })`;
  });
  if (/import\.meta\.glob\s*[<(]/.test(code)) throw new Error(`globTransform: an import.meta.glob it cannot read (${filename})`);
  return { code, files };
}

module.exports = {
  createTransformer(options) {
    const swc = createSwc(options);
    return {
      process: (source, filename, jestOptions) => swc.process(rewrite(source, filename).code, filename, jestOptions),
      getCacheKey: (source, filename, jestOptions) => {
        const { code, files } = rewrite(source, filename);
        return swc.getCacheKey(`${code}\n/* ${files.join(',')} */`, filename, jestOptions);
      },
    };
  },
};

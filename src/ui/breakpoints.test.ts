/** @jest-environment node */
import fs from 'node:fs';
import path from 'node:path';
import { BREAKPOINTS, MEDIA, resolveCustomMedia } from './breakpoints';

/*
 * The breakpoints (product.md §9: xs ≤ 600, s 601–960, m 961–1260, l ≥ 1261) are defined once,
 * in breakpoints.ts: the style sheets name them (`@media (--xs)`), the build writes the queries
 * from here, the code reads MEDIA. Nothing else may write their widths.
 */

const SRC = path.resolve(__dirname, '..');

function filesUnder(dir: string, pattern: RegExp): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(full, pattern);
    return pattern.test(entry.name) ? [full] : [];
  });
}

test('the four ranges are the spec\u2019s, end to end with no gap', () => {
  expect(BREAKPOINTS).toEqual({ xs: 600, s: 960, m: 1260 });
  expect(MEDIA).toMatchObject({
    xs: '(max-width: 600px)',
    s: '(min-width: 601px) and (max-width: 960px)',
    m: '(min-width: 961px) and (max-width: 1260px)',
    l: '(min-width: 1261px)',
    'up-to-s': '(max-width: 960px)',
    'up-to-m': '(max-width: 1260px)',
    'from-s': '(min-width: 601px)',
    'from-m': '(min-width: 961px)',
  });
});

test('custom media are written out; other rules and queries are left as they are; an unknown name throws', () => {
  const css = [
    '.a { color: red; }',
    '@media (--xs) {\n  .a { display: none; }\n}',
    '@media (--up-to-m) and (hover: none), print { .b { margin: 0; } }',
    '@media (prefers-reduced-motion: reduce) { .c { animation: none; } }',
    '.d { width: calc(100% - var(--tree-width)); }',
  ].join('\n');
  expect(resolveCustomMedia(css)).toBe(
    [
      '.a { color: red; }',
      '@media (max-width: 600px) {\n  .a { display: none; }\n}',
      '@media (max-width: 1260px) and (hover: none), print { .b { margin: 0; } }',
      '@media (prefers-reduced-motion: reduce) { .c { animation: none; } }',
      '.d { width: calc(100% - var(--tree-width)); }',
    ].join('\n'),
  );
  expect(() => resolveCustomMedia('@media (--phone) { .a { top: 0 } }', 'x.css')).toThrow('x.css: unknown custom media (--phone)');
});

test('every style sheet names the breakpoints, and each resolves', () => {
  const raw: string[] = [];
  for (const file of filesUnder(SRC, /\.css$/)) {
    const css = fs.readFileSync(file, 'utf8');
    expect(() => resolveCustomMedia(css, file)).not.toThrow();
    for (const match of css.matchAll(/@media[^{]*\b(?:max|min)-width:\s*(600|601|960|961|1260|1261)px[^{]*\{/g))
      raw.push(`${path.relative(SRC, file)}: ${match[0]}`);
  }
  expect(raw).toEqual([]);
});

test('no code writes a breakpoint\u2019s query of its own', () => {
  const raw = filesUnder(SRC, /\.tsx?$/)
    .filter((file) => !file.endsWith('breakpoints.ts') && !/\.test\.tsx?$/.test(file))
    .filter((file) => /(?:max|min)-width:\s*(600|601|960|961|1260|1261)px/.test(fs.readFileSync(file, 'utf8')))
    .map((file) => path.relative(SRC, file));
  expect(raw).toEqual([]);
});

import fs from 'node:fs';
import type { Locator, Page } from 'playwright-core';

/**
 * axe-core in the browser tests (issue 37, docs/web-app.md «Accessibility»): the WCAG 2.2 A and AA
 * rules, pinned by their tags (and axe-core's exact version in package.json).
 */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] as const;

const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeOptions {
  /** Where to look: selectors (those matching nothing are left out); the whole document when absent. */
  include?: readonly string[];
  /** Rules left out (by id), each a part of the issue checked elsewhere. */
  skip?: readonly string[];
}

type AxeNode = { target: string[]; failureSummary?: string; any: { data?: { fgColor?: string; bgColor?: string; contrastRatio?: number } | null }[] };

/**
 * axe's violations on the page (or inside `within`), one line per node: «rule: target — why»; a
 * contrast failure says its colours and ratio. Evaluated, not a script tag: the app's
 * Content-Security-Policy allows no inline script.
 */
export async function axeViolations(page: Page, { include, skip = [] }: AxeOptions = {}, within?: Locator): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  // Run on an element (the page's root when no `within`): inside it, or the selectors, or the document.
  const target = within ?? page.locator('html');
  return target.evaluate(
    async (root, [tags, selectors, skipped, inRoot]) => {
      const axe = (window as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: { id: string; nodes: AxeNode[] }[] }> } }).axe;
      const context = inRoot ? root : selectors ? { include: selectors.filter((s) => document.querySelector(s)).map((s) => [s]) } : document;
      const result = await axe.run(context, {
        runOnly: { type: 'tag', values: tags },
        rules: Object.fromEntries(skipped.map((id) => [id, { enabled: false }])),
      });
      return result.violations.flatMap((v) =>
        v.nodes.map((node) => {
          const data = node.any[0]?.data;
          const colours = data?.contrastRatio ? ` (${data.fgColor} on ${data.bgColor}: ${data.contrastRatio})` : '';
          return `${v.id}: ${node.target.join(' ')}${colours} — ${(node.failureSummary ?? '').split('\n').slice(0, 2).join(' ')}`;
        }),
      );
    },
    [AXE_TAGS, include ?? null, skip, !!within] as const,
  );
}

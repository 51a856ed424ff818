import fs from 'node:fs';
import path from 'node:path';
import { definitionForWireType, type BlockWireType } from '../../schema/blocks';
import { TEMPLATE_SETS } from '../../schema/template';
import { TEMPLATE_DEFAULTS, TEMPLATES, templatesOfSet } from '.';
import type { TemplateBlock, TemplatePage } from './types';

/** Every problem of a template page tree: block data against the block schemas, titles, icons. */
function problemsOf(page: TemplatePage, where: string): string[] {
  const problems: string[] = [];
  if (page.title.trim() === '') problems.push(`${where}: empty title`);
  if (page.icon.length < 1 || page.icon.length > 256) problems.push(`${where}: bad icon`);
  if (page.blocks.length === 0) problems.push(`${where}: no blocks`);
  const walk = (blocks: readonly TemplateBlock[], at: string) =>
    blocks.forEach((block, index) => {
      const here = `${at}[${index}]`;
      if (block.type === 'subpages') {
        if (!page.children?.length) problems.push(`${here}: subpages on a page without children`);
        return;
      }
      const definition = definitionForWireType(block.type as BlockWireType);
      if (!definition) {
        problems.push(`${here}: unknown block type ${block.type}`);
        return;
      }
      const result = definition.dataSchema.safeParse(block.data);
      if (!result.success) problems.push(`${here} (${block.type}): ${result.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`);
      if (block.children) walk(block.children, `${here}.children`);
    });
  walk(page.blocks, `${where}.blocks`);
  (page.children ?? []).forEach((child, index) => problems.push(...problemsOf(child, `${where}.children[${index}]`)));
  return problems;
}

describe('server templates', () => {
  test.each(TEMPLATES.map((t) => [t.id, t] as const))('%s: every block fits its block schema', (_id, template) => {
    expect(problemsOf(template.root, template.id)).toEqual([]);
    expect(template.title).not.toBe('');
    expect(template.description).not.toBe('');
    expect(template.sets.length).toBeGreaterThan(0);
  });

  test('a broken block is caught', () => {
    const broken: TemplatePage = {
      title: 'x',
      icon: '📄',
      blocks: [
        { type: 'checkbox', data: { tokens: [{ text: 'a' }] } },
        { type: 'table', data: { tokens: [{ text: 'a' }], tableLayout: { columns: 1, rows: 1, columnSizes: [120] }, headerRow: true, headerColumn: false } },
      ],
    };
    const problems = problemsOf(broken, 'broken');
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/checked/);
    expect(problems[1]).toMatch(/tableAddress/);
  });

  test('ids are unique and every template file is registered', async () => {
    const ids = TEMPLATES.map((t) => t.id);
    expect(new Set(ids).size).toBe(ids.length);
    const files = fs.readdirSync(__dirname).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !['index.ts', 'types.ts', 'copy.ts'].includes(f));
    expect(files).toHaveLength(TEMPLATES.length);
    for (const file of files) {
      const exported = Object.values((await import(path.join(__dirname, file))) as Record<string, unknown>);
      expect(TEMPLATES).toContain(exported[0]);
    }
  });

  test('the templates the brief names exist', () => {
    const titles = TEMPLATES.map((t) => t.title);
    for (const title of [
      'Заметки встречи',
      'План проекта',
      'База знаний (вики)',
      'Конспекты учёбы',
      'Личный дневник',
      'Список задач',
      'Маркетинговый план',
      'Дорожная карта продукта',
      'Воронка продаж',
    ]) {
      expect(titles).toContain(title);
    }
    const wikiRoot = TEMPLATES.find((t) => t.id === 'wiki')?.root;
    expect(wikiRoot?.children?.length).toBeGreaterThanOrEqual(2);
  });

  test.each(TEMPLATE_SETS.map((s) => [s]))('set %s has a default it offers, and at least two templates', (set) => {
    const offered = templatesOfSet(set).map((t) => t.id);
    expect(offered).toContain(TEMPLATE_DEFAULTS[set]);
    expect(offered.length).toBeGreaterThanOrEqual(2);
  });
});

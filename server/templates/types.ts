import type { BlockWireType } from '../../schema/blocks';
import type { TemplateSet } from '../../schema/template';
import type { Token } from '../../schema/token';

/**
 * A block of a template in the wire block format (docs/api/blocks.md): its type and data, and
 * the blocks nested under it. `subpages` is no block: it stands for one `document` block per
 * child page of the template page, in their order (their ids exist only when copied).
 */
export type TemplateBlock =
  { type: Exclude<BlockWireType, 'document' | 'database' | 'databaseRow'>; data: Record<string, unknown>; children?: TemplateBlock[] } | { type: 'subpages' };

/** A page of a template: title, icon, blocks and child pages. */
export interface TemplatePage {
  title: string;
  icon: string;
  blocks: TemplateBlock[];
  children?: TemplatePage[];
}

/** One template file of server/templates/: what the wizard lists and the page tree a copy makes. */
export interface TemplateDefinition {
  id: string;
  title: string;
  description: string;
  icon: string;
  /** The sets (purposes and company types) the template is offered in. */
  sets: TemplateSet[];
  root: TemplatePage;
}

// ---- Helpers that keep the template files short --------------------------------------------------

type Part = string | Token;

function tokens(parts: Part[]): Token[] {
  return parts.map((part) => (typeof part === 'string' ? { text: part } : part)).filter((token) => token.text !== '');
}

/** Bold text inside a line. */
export const bold = (text: string): Token => ({ text, bold: true });
/** Italic text inside a line. */
export const italic = (text: string): Token => ({ text, italic: true });
/** A link inside a line (http/https only). */
export const link = (text: string, href: string): Token => ({ text, link: { href } });

export const p = (...parts: Part[]): TemplateBlock => ({ type: 'text', data: { tokens: tokens(parts) } });
export const h1 = (text: string): TemplateBlock => ({ type: 'heading1', data: { tokens: tokens([text]) } });
export const h2 = (text: string): TemplateBlock => ({ type: 'heading2', data: { tokens: tokens([text]) } });
export const h3 = (text: string): TemplateBlock => ({ type: 'heading3', data: { tokens: tokens([text]) } });
export const bullet = (...parts: Part[]): TemplateBlock => ({ type: 'bulletList', data: { tokens: tokens(parts) } });
export const numbered = (...parts: Part[]): TemplateBlock => ({ type: 'orderedList', data: { tokens: tokens(parts) } });
export const todo = (text: string, checked = false): TemplateBlock => ({ type: 'checkbox', data: { tokens: tokens([text]), checked } });
export const quote = (...parts: Part[]): TemplateBlock => ({ type: 'quote', data: { tokens: tokens(parts) } });
export const callout = (icon: string, ...parts: Part[]): TemplateBlock => ({ type: 'callout', data: { tokens: tokens(parts), icon } });
export const divider = (): TemplateBlock => ({ type: 'divider', data: {} });
export const subpages = (): TemplateBlock => ({ type: 'subpages' });

/** A table: the first row is a header; every row has as many cells as the header. */
export function table(rows: string[][], columnSize = 180): TemplateBlock {
  const columns = rows[0]?.length ?? 1;
  const cells: Token[] = [];
  rows.forEach((row, y) => row.forEach((text, x) => text !== '' && cells.push({ text, tableAddress: { x, y } })));
  return {
    type: 'table',
    data: {
      tokens: cells,
      tableLayout: { columns, rows: rows.length, columnSizes: Array.from({ length: columns }, () => columnSize) },
      headerRow: true,
      headerColumn: false,
    },
  };
}

import { z } from 'zod';
import { escapeHtml, htmlToTokens, tokensToHtml } from '../../../schema/html';
import type { BlockElementBase, SlateText, TableCellElement, TableRowElement } from '../../../schema/slate';
import { canonicalTokens, tokensSchema, type Token } from '../../../schema/token';
import type { BlockDefinition, MarkdownContext } from '../../../schema/blocks/definition';

/** A table: the one block with elements inside (rows of cells). */
export interface TableElement extends Omit<BlockElementBase, 'children'> {
  type: 'tableBlock';
  tableLayout: TableLayout;
  headerRow: boolean;
  headerColumn: boolean;
  children: TableRowElement[];
}

/**
 * A table: one block whose tokens carry `tableAddress` (x: column, y: row). In the editor it is
 * the one element with structure inside (docs/adr/0005-flat-blocks.md): tableBlock → tableRow →
 * tableCell → text; the addresses are not kept in Slate, they follow from where a cell sits.
 */

export const TABLE_LIMITS = {
  columns: 50,
  rows: 500,
  minColumnSize: 40,
  maxColumnSize: 2000,
} as const;

/** The spec's defaults: 2 columns, 3 rows, each column 120 px wide. */
export const TABLE_DEFAULTS = { columns: 2, rows: 3, columnSize: 120 } as const;

export const tableLayoutSchema = z
  .object({
    columns: z.number().int().min(1).max(TABLE_LIMITS.columns),
    rows: z.number().int().min(1).max(TABLE_LIMITS.rows),
    columnSizes: z.array(z.number().int().min(TABLE_LIMITS.minColumnSize).max(TABLE_LIMITS.maxColumnSize)).min(1).max(TABLE_LIMITS.columns),
  })
  .strict()
  .refine((layout) => layout.columnSizes.length === layout.columns, {
    message: 'columnSizes has one size per column',
    path: ['columnSizes'],
  });
export type TableLayout = z.infer<typeof tableLayoutSchema>;

export const tableDataSchema = z
  .object({
    tokens: tokensSchema,
    tableLayout: tableLayoutSchema,
    headerRow: z.boolean(),
    headerColumn: z.boolean(),
  })
  .strict()
  .superRefine((data, ctx) => {
    const { columns, rows } = data.tableLayout;
    data.tokens.forEach((token, index) => {
      const address = token.tableAddress;
      if (!address) {
        ctx.addIssue({ code: 'custom', path: ['tokens', index, 'tableAddress'], message: 'a table token has a tableAddress' });
      } else if (address.x >= columns || address.y >= rows) {
        ctx.addIssue({ code: 'custom', path: ['tokens', index, 'tableAddress'], message: 'the tableAddress is outside the table' });
      }
    });
  });
export type TableData = z.infer<typeof tableDataSchema>;

/** A column size within the bounds (a drag may go anywhere). */
export function clampColumnSize(size: number): number {
  if (!Number.isFinite(size)) return TABLE_DEFAULTS.columnSize;
  return Math.min(TABLE_LIMITS.maxColumnSize, Math.max(TABLE_LIMITS.minColumnSize, Math.round(size)));
}

export function defaultTableLayout(columns: number = TABLE_DEFAULTS.columns, rows: number = TABLE_DEFAULTS.rows): TableLayout {
  return { columns, rows, columnSizes: Array.from({ length: columns }, () => TABLE_DEFAULTS.columnSize) };
}

export function defaultTableData(): TableData {
  return { tokens: [], tableLayout: defaultTableLayout(), headerRow: false, headerColumn: false };
}

function compareAddress(a: Token, b: Token): number {
  const pa = a.tableAddress!;
  const pb = b.tableAddress!;
  return pa.y - pb.y || pa.x - pb.x;
}

/** Tokens in reading order (row by row, cell by cell), each cell's run canonical. */
export function canonicalTableTokens(tokens: readonly Token[]): Token[] {
  // A stable sort keeps the order of the tokens within a cell; canonicalTokens joins only
  // neighbours with equal marks, and tableAddress is one of them, so cells never merge.
  const sorted = tokens.map((t) => ({ ...t, tableAddress: { ...t.tableAddress! } })).sort(compareAddress);
  return canonicalTokens(sorted);
}

/** The tokens of each cell, without their tableAddress: cells[y][x]. */
export function tokensByCell(data: Pick<TableData, 'tokens' | 'tableLayout'>): Token[][][] {
  const { columns, rows } = data.tableLayout;
  const cells: Token[][][] = Array.from({ length: rows }, () => Array.from({ length: columns }, () => [] as Token[]));
  for (const token of data.tokens) {
    const address = token.tableAddress;
    if (!address || address.y >= rows || address.x >= columns) continue;
    const { tableAddress: _address, ...rest } = token;
    cells[address.y][address.x].push(rest);
  }
  return cells;
}

export function emptyCell(): TableCellElement {
  return { type: 'tableCell', children: [{ text: '' }] };
}

export function emptyRow(columns: number): TableRowElement {
  return { type: 'tableRow', children: Array.from({ length: columns }, emptyCell) };
}

/** A cell's Slate text children (never tableAddress inside Slate). */
function cellChildren(tokens: readonly Token[]): SlateText[] {
  return tokens.length > 0 ? tokens.map((t) => ({ ...t })) : [{ text: '' }];
}

/** The Slate rows of table data. */
export function tableRows(data: Pick<TableData, 'tokens' | 'tableLayout'>): TableRowElement[] {
  return tokensByCell(data).map((row) => ({
    type: 'tableRow' as const,
    children: row.map((tokens) => ({ type: 'tableCell' as const, children: cellChildren(tokens) })),
  }));
}

/**
 * The wire tokens of a table element: each cell's text with its address. The layout follows
 * the structure (the normalizer of plugins/withTables keeps them equal; this is a safety net).
 */
export function tableElementToData(element: TableElement): TableData {
  const rows = element.children.filter((row) => row && row.type === 'tableRow');
  const columns = Math.max(1, ...rows.map((row) => row.children.length));
  const tokens: Token[] = [];
  rows.forEach((row, y) => {
    row.children.forEach((cell, x) => {
      for (const leaf of cell.children ?? []) {
        if (typeof leaf.text !== 'string' || leaf.text === '') continue;
        tokens.push({ ...(leaf as Token), tableAddress: { x, y } });
      }
    });
  });
  const sizes = element.tableLayout?.columnSizes ?? [];
  const columnSizes = Array.from({ length: columns }, (_, i) => clampColumnSize(sizes[i] ?? TABLE_DEFAULTS.columnSize));
  return {
    tokens: canonicalTableTokens(tokens),
    tableLayout: { columns, rows: Math.max(1, rows.length), columnSizes },
    headerRow: element.headerRow === true,
    headerColumn: element.headerColumn === true,
  };
}

function serializeTable(data: TableData): string {
  const cells = tokensByCell(data);
  const widths = data.tableLayout.columnSizes.map((size) => `<col style="width:${size}px">`).join('');
  const rows = cells.map((row, y) => {
    const tds = row.map((tokens, x) => {
      const header = (data.headerRow && y === 0) || (data.headerColumn && x === 0);
      const tag = header ? 'th' : 'td';
      return `<${tag}>${tokensToHtml(tokens)}</${tag}>`;
    });
    return `<tr>${tds.join('')}</tr>`;
  });
  const [head, ...body] = rows;
  const attributes = `data-header-row="${escapeHtml(String(data.headerRow))}" data-header-column="${escapeHtml(String(data.headerColumn))}"`;
  const sections = data.headerRow ? `<thead>${head}</thead><tbody>${body.join('')}</tbody>` : `<tbody>${rows.join('')}</tbody>`;
  return `<table ${attributes}><colgroup>${widths}</colgroup>${sections}</table>`;
}

/** The rows of a pasted table (of this table only, not of tables nested in its cells). */
function ownRows(table: Element): Element[] {
  const rows: Element[] = [];
  for (const child of Array.from(table.children)) {
    if (child.tagName === 'TR') rows.push(child);
    else if (child.tagName === 'THEAD' || child.tagName === 'TBODY' || child.tagName === 'TFOOT') {
      for (const row of Array.from(child.children)) if (row.tagName === 'TR') rows.push(row);
    }
  }
  return rows;
}

/** A column width in px from a pasted <col>/<td> (width attribute or style), if it is one. */
function pixelWidth(element: Element | undefined): number | undefined {
  if (!element) return undefined;
  const style = (element as HTMLElement).style?.width ?? '';
  const match = /^(\d+(?:\.\d+)?)px$/.exec(style.trim()) ?? /^(\d+(?:\.\d+)?)(px)?$/.exec((element.getAttribute('width') ?? '').trim());
  return match ? clampColumnSize(Number(match[1])) : undefined;
}

/** A pasted <table> (Google Docs, Word, Notion, web pages) as table data; null when it has no cells. */
export function parseTableElement(table: Element): TableData | null {
  const rowElements = ownRows(table).slice(0, TABLE_LIMITS.rows);
  const cellRows = rowElements
    .map((row) => Array.from(row.children).filter((cell) => cell.tagName === 'TD' || cell.tagName === 'TH'))
    .filter((cells) => cells.length > 0);
  if (cellRows.length === 0) return null;
  const columns = Math.min(TABLE_LIMITS.columns, Math.max(...cellRows.map((cells) => cells.length)));
  const firstRow = rowElements.find((row) => row.children.length > 0)!;
  const headerRow = firstRow.parentElement?.tagName === 'THEAD' || cellRows[0].every((cell) => cell.tagName === 'TH');
  const headerColumn = cellRows.length > 1 && cellRows.slice(headerRow ? 1 : 0).every((cells) => cells[0].tagName === 'TH');
  const tokens: Token[] = [];
  cellRows.forEach((cells, y) => {
    cells.slice(0, columns).forEach((cell, x) => {
      for (const token of htmlToTokens(cell)) tokens.push({ ...token, tableAddress: { x, y } });
    });
  });
  const cols = Array.from(table.querySelectorAll(':scope > colgroup > col, :scope > col'));
  const columnSizes = Array.from({ length: columns }, (_, x) => pixelWidth(cols[x]) ?? pixelWidth(cellRows[0][x]) ?? TABLE_DEFAULTS.columnSize);
  return {
    tokens: canonicalTableTokens(tokens),
    tableLayout: { columns, rows: cellRows.length, columnSizes },
    headerRow,
    headerColumn,
  };
}

/** A table as a GitHub table: its first row is the header (Markdown tables have one). */
function tableMarkdown(data: TableData, md: MarkdownContext): string[] {
  const { columns, rows } = data.tableLayout;
  if (columns === 0 || rows === 0) return [];
  const cells: Token[][][] = Array.from({ length: rows }, () => Array.from({ length: columns }, () => [] as Token[]));
  for (const token of data.tokens) {
    const at = token.tableAddress;
    if (at && at.y < rows && at.x < columns) cells[at.y][at.x].push(token);
  }
  // A cell's lines joined by `<br>`, its `|` escaped (it would end the cell).
  const cellText = (cell: Token[]) => md.inlineMidLine(cell).replace(/\\\n/g, '<br>').replace(/\|/g, '\\|');
  const line = (row: Token[][]) => `| ${row.map((cell) => cellText(cell) || ' ').join(' | ')} |`;
  return [line(cells[0]), `|${' --- |'.repeat(columns)}`, ...cells.slice(1).map(line)];
}

/** The table block: a grid of text cells, with optional header row and column. */
export const tableBlock: BlockDefinition<'table', TableData, TableElement> = {
  wireType: 'table',
  slateType: 'tableBlock',
  dataSchema: tableDataSchema,
  shortcuts: ['/table'],
  isVoid: false,
  defaultData: defaultTableData,
  markdown: { serialize: (data, md) => tableMarkdown(data, md) },
  html: {
    serialize: (data) => serializeTable(data),
    parse: [{ selector: 'table', read: (element) => parseTableElement(element) }],
  },
  canonicalize: (data) => ({ ...data, tokens: canonicalTableTokens(data.tokens) }),
  toSlateFields: (data) => ({
    tableLayout: { ...data.tableLayout, columnSizes: [...data.tableLayout.columnSizes] },
    headerRow: data.headerRow,
    headerColumn: data.headerColumn,
    children: tableRows(data),
  }),
  toWireData: tableElementToData,
};

/** @jest-environment jsdom */
import { toSlate, toWire, wireBlockSchema, type WireBlock } from '../../../schema/block';
import type { TableElement } from '../../../schema/slate';
import { roundTripHtml } from '../../../schema/blocks/htmlTestUtil';
import { canonicalTableTokens, defaultTableData, parseTableElement, tableBlock, tableDataSchema, type TableData } from './block';

const table = (tokens: TableData['tokens'], columns = 2, rows = 2, extra: Partial<TableData> = {}): TableData => ({
  tokens,
  tableLayout: { columns, rows, columnSizes: Array.from({ length: columns }, () => 120) },
  headerRow: false,
  headerColumn: false,
  ...extra,
});
const at = (x: number, y: number) => ({ tableAddress: { x, y } });
const issues = (data: unknown) => {
  const result = tableDataSchema.safeParse(data);
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};
const parse = (html: string) => {
  const host = document.createElement('div');
  host.innerHTML = html;
  return parseTableElement(host.querySelector('table')!);
};

describe('table data schema', () => {
  it('the default is 2 columns, 3 rows, 120 px each, no headers, and it is valid', () => {
    expect(defaultTableData()).toEqual({
      tokens: [],
      tableLayout: { columns: 2, rows: 3, columnSizes: [120, 120] },
      headerRow: false,
      headerColumn: false,
    });
    expect(issues(defaultTableData())).toEqual([]);
    expect(tableBlock.defaultData!()).toEqual(defaultTableData());
    expect(tableBlock.shortcuts).toEqual(['/table']);
    expect(tableBlock.isVoid).toBe(false);
  });

  it('refuses tokens without tableAddress or outside the layout', () => {
    expect(issues(table([{ text: 'a' }]))).toEqual(['tokens.0.tableAddress: a table token has a tableAddress']);
    expect(issues(table([{ text: 'a', ...at(2, 0) }]))).toEqual(['tokens.0.tableAddress: the tableAddress is outside the table']);
    expect(issues(table([{ text: 'a', ...at(0, 2) }]))).toEqual(['tokens.0.tableAddress: the tableAddress is outside the table']);
    expect(issues(table([{ text: 'a', ...at(1, 1) }]))).toEqual([]);
  });

  it('bounds the layout: columns 1–50, rows 1–500, sizes 40–2000, one size per column, no extra keys', () => {
    const layout = (tableLayout: unknown) => issues({ ...table([]), tableLayout }).length > 0;
    expect(layout({ columns: 2, rows: 2, columnSizes: [120] })).toBe(true);
    expect(layout({ columns: 0, rows: 2, columnSizes: [] })).toBe(true);
    expect(layout({ columns: 51, rows: 1, columnSizes: Array(51).fill(120) })).toBe(true);
    expect(layout({ columns: 50, rows: 500, columnSizes: Array(50).fill(120) })).toBe(false);
    expect(layout({ columns: 1, rows: 501, columnSizes: [120] })).toBe(true);
    expect(layout({ columns: 1, rows: 1, columnSizes: [39] })).toBe(true);
    expect(layout({ columns: 1, rows: 1, columnSizes: [2001] })).toBe(true);
    expect(layout({ columns: 1, rows: 1, columnSizes: [40.5] })).toBe(true);
    expect(layout({ columns: 1, rows: 1, columnSizes: [2000] })).toBe(false);
    expect(layout({ columns: 1, rows: 1, columnSizes: [120], extra: 1 })).toBe(true);
    expect(issues({ ...table([]), headerRow: 'yes' }).length).toBeGreaterThan(0);
    expect(issues({ ...table([]), caption: 'x' }).length).toBeGreaterThan(0);
  });
});

describe('canonical form and converters', () => {
  it('orders tokens by row then column, joins within a cell and never across cells', () => {
    const tokens = [
      { text: 'd', ...at(1, 1) },
      { text: 'b', ...at(1, 0) },
      { text: 'a1', ...at(0, 0) },
      { text: 'a2', ...at(0, 0) },
      { text: 'c', ...at(0, 1) },
      { text: '', ...at(1, 1) },
    ];
    expect(canonicalTableTokens(tokens)).toEqual([
      { text: 'a1a2', ...at(0, 0) },
      { text: 'b', ...at(1, 0) },
      { text: 'c', ...at(0, 1) },
      { text: 'd', ...at(1, 1) },
    ]);
    expect(tableBlock.canonicalize(table(tokens)).tokens).toEqual(canonicalTableTokens(tokens));
  });

  it('toSlate builds rows of cells without tableAddress; toWire gives the addresses back', () => {
    const data = table(
      [
        { text: 'a', bold: true, ...at(0, 0) },
        { text: 'd', ...at(1, 1) },
      ],
      2,
      2,
      { headerRow: true },
    );
    const block: WireBlock = { id: 't', contentType: 'Block', pageId: 'p', type: 'table', version: 3, parentId: null, placeAfter: null, data };
    const element = toSlate(block) as TableElement;
    expect(element).toEqual({
      type: 'tableBlock',
      uid: 't',
      version: 3,
      tableLayout: { columns: 2, rows: 2, columnSizes: [120, 120] },
      headerRow: true,
      headerColumn: false,
      children: [
        {
          type: 'tableRow',
          children: [
            { type: 'tableCell', children: [{ text: 'a', bold: true }] },
            { type: 'tableCell', children: [{ text: '' }] },
          ],
        },
        {
          type: 'tableRow',
          children: [
            { type: 'tableCell', children: [{ text: '' }] },
            { type: 'tableCell', children: [{ text: 'd' }] },
          ],
        },
      ],
    });
    const back = toWire(element, { pageId: 'p', parentId: null, placeAfter: null });
    expect(back).toEqual(block);
    expect(wireBlockSchema.safeParse(back).success).toBe(true);
  });
});

describe('HTML', () => {
  it('serializes a table with <th> for header cells, escaped text and column widths', () => {
    const data = table(
      [
        { text: 'A<b>', ...at(0, 0) },
        { text: 'B', bold: true, ...at(1, 0) },
        { text: 'c', ...at(0, 1) },
        { text: 'x\ny', ...at(1, 1) },
      ],
      2,
      2,
      { headerRow: true, tableLayout: { columns: 2, rows: 2, columnSizes: [100, 200] } },
    );
    const html = tableBlock.html!.serialize(data, '');
    expect(html).toBe(
      '<table data-header-row="true" data-header-column="false"><colgroup><col style="width:100px"><col style="width:200px"></colgroup>' +
        '<thead><tr><th>A&lt;b&gt;</th><th><strong>B</strong></th></tr></thead><tbody><tr><td>c</td><td>x<br>y</td></tr></tbody></table>',
    );
    // And back, as the paste code reads it.
    expect(parse(html)).toEqual(data);
    expect(roundTripHtml(tableBlock, data, '')).toEqual(data);
  });

  it('a header column serializes the first cell of every row as <th>', () => {
    const html = tableBlock.html!.serialize(table([{ text: 'k', ...at(0, 1) }], 2, 2, { headerColumn: true }), '');
    expect(html).toContain('<tbody><tr><th></th><td></td></tr><tr><th>k</th><td></td></tr></tbody>');
    expect(parse(html)!.headerColumn).toBe(true);
    expect(parse(html)!.headerRow).toBe(false);
  });

  it('parses a pasted web/Google Docs table: rows from tr, cells from td/th, marks and links kept, ragged rows filled', () => {
    const data = parse(`
      <table style="border:none"><tbody>
        <tr><td><p><span style="font-weight:700">Жирный</span></p></td><td><a href="https://example.com/">ссылка</a></td><td>3</td></tr>
        <tr><td>только одна</td></tr>
      </tbody></table>`);
    expect(data).toEqual({
      tokens: [
        { text: 'Жирный', bold: true, ...at(0, 0) },
        { text: 'ссылка', link: { href: 'https://example.com/' }, ...at(1, 0) },
        { text: '3', ...at(2, 0) },
        { text: 'только одна', ...at(0, 1) },
      ],
      tableLayout: { columns: 3, rows: 2, columnSizes: [120, 120, 120] },
      headerRow: false,
      headerColumn: false,
    });
    expect(issues(data)).toEqual([]);
  });

  it('a first row inside <thead> (Notion, Word) is a header row even with <td> cells; widths from td width', () => {
    const data = parse('<table><thead><tr><td width="300">H1</td><td>H2</td></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table>');
    expect(data!.headerRow).toBe(true);
    expect(data!.tableLayout.columnSizes).toEqual([300, 120]);
  });

  it('ignores tables nested in cells (their text is read as the cell text) and empty tables', () => {
    const data = parse('<table><tr><td>out<table><tr><td>in</td></tr></table></td></tr></table>');
    expect(data!.tableLayout).toEqual({ columns: 1, rows: 1, columnSizes: [120] });
    expect(data!.tokens).toEqual([{ text: 'outin', ...at(0, 0) }]);
    expect(parse('<table><tbody></tbody></table>')).toBeNull();
    expect(tableBlock.html!.parse[0].selector).toBe('table');
  });
});

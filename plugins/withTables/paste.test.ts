/** @jest-environment jsdom */
import { parseHtml } from '../withClipboard/parseHtml';
import { tableBlock } from '../blocks/table/block';
import type { TableElement } from '../../schema/slate';

/*
 * Pasting tables through the editor's HTML reader (plugins/withClipboard): the table block's
 * parse rule takes the <table>, whatever wraps it.
 */
describe('pasting an HTML table', () => {
  it('a Google Docs table (inside <b style="font-weight:normal">) becomes a table block with its cells', () => {
    const html =
      '<meta charset="utf-8"><b style="font-weight:normal;" id="docs-internal-guid-1"><div dir="ltr"><table style="border:none;border-collapse:collapse;"><colgroup><col width="200"><col width="90"></colgroup><tbody>' +
      '<tr><td><p dir="ltr"><span style="font-weight:700;">Имя</span></p></td><td><p dir="ltr"><span>Роль</span></p></td></tr>' +
      '<tr><td><p dir="ltr"><span>Аня</span></p></td><td><p dir="ltr"><span style="font-style:italic;">автор</span></p></td></tr>' +
      '</tbody></table></div></b>';
    const pasted = parseHtml(html);
    expect(pasted?.kind).toBe('blocks');
    const blocks = pasted!.kind === 'blocks' ? pasted!.blocks : [];
    expect(blocks).toHaveLength(1);
    const data = tableBlock.toWireData(blocks[0] as TableElement);
    expect(data.tokens).toEqual([
      { text: 'Имя', bold: true, tableAddress: { x: 0, y: 0 } },
      { text: 'Роль', tableAddress: { x: 1, y: 0 } },
      { text: 'Аня', tableAddress: { x: 0, y: 1 } },
      { text: 'автор', italic: true, tableAddress: { x: 1, y: 1 } },
    ]);
    expect(data.tableLayout.columns).toBe(2);
    expect(data.tableLayout.rows).toBe(2);
  });

  it('a web page table with a header between paragraphs keeps the paragraphs around it', () => {
    const pasted = parseHtml('<p>До</p><table><thead><tr><th>A</th><th>B</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table><p>После</p>');
    const blocks = pasted!.kind === 'blocks' ? pasted!.blocks : [];
    expect(blocks.map((b) => b.type)).toEqual(['textBlock', 'tableBlock', 'textBlock']);
    const table = blocks[1] as TableElement;
    expect(table.headerRow).toBe(true);
    expect(tableBlock.toWireData(table).tokens.map((t) => `${t.text}@${t.tableAddress!.x},${t.tableAddress!.y}`)).toEqual(['A@0,0', 'B@1,0', '1@0,1', '2@1,1']);
  });
});

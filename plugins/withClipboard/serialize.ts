import { Editor, Element, Node, Range, Text, type Path } from 'slate';
import { toWire, type WireBlock } from '../../schema/block';
import { definitionForSlateType, orderedNumberAt, PAGE_HEADING_PREFIX, tokensByCell, type TableData } from '../../schema/blocks';
import { escapeHtml, tokensToHtml } from '../../schema/html';
import { newId } from '../../schema/ids';
import type { BlockElement } from '../../schema/slate';
import { canonicalTokens, isPageLink, tokensText, type Token } from '../../schema/token';
import type { PageLinkTitles } from '../types';
import { soundDepths } from './content';
import type { ClipboardJson } from './parseJson';
import { depthOf } from '../../schema/slate';

/** What a copy puts on the clipboard. */
export interface CopiedContent {
  json: ClipboardJson;
  html: string;
  text: string;
}

const LIST_PREFIX = /^<(ul|ol)((?:\s[^>]*)?)><li>([\s\S]*)<\/li><\/\1>$/;

/** A block's own serialized HTML and, when it is one list item, its list tag and the item's inner HTML. */
interface HtmlPiece {
  html: string;
  list?: { tag: string; attributes: string; item: string };
  depth: number;
  /** For a type whose HTML holds its nested blocks (a toggle's <details>): its HTML around them. */
  around?(children: string): string;
}

/** The wire data of an element and its HTML piece (null for types without an HTML form). */
function htmlPiece(element: BlockElement): HtmlPiece | null {
  const definition = definitionForSlateType(element.type);
  if (!definition?.html) return null;
  const data = definition.toWireData(element) as { tokens?: Token[] };
  const content = Array.isArray(data.tokens) ? tokensToHtml(data.tokens) : '';
  const { html: rules } = definition;
  const html = rules.serialize(data, content);
  if (rules.nestsChildren) return { html, depth: depthOf(element), around: (children) => rules.serialize(data, content, children) };
  const match = LIST_PREFIX.exec(html);
  // Only a single item (no nested list inside) is grouped with its neighbours.
  const list = match && !/<\/li>/.test(match[3]) ? { tag: match[1], attributes: match[2], item: match[3] } : undefined;
  return { html, list, depth: depthOf(element) };
}

/**
 * Blocks as HTML: each through its type's serializer; consecutive list items of one kind share
 * one <ul>/<ol>, and the blocks nested under an item go inside it, as under a type whose HTML
 * holds them (`nestsChildren`: a toggle's <details>). Other nested blocks follow their parent.
 */
export function blocksToHtml(elements: readonly BlockElement[]): string {
  const pieces = elements.map(htmlPiece);
  let index = 0;
  const level = (depth: number): string => {
    let out = '';
    let open: { tag: string; attributes: string } | null = null;
    const close = () => {
      if (open) out += `</${open.tag}>`;
      open = null;
    };
    while (index < pieces.length && depthOf(elements[index]) >= depth) {
      const piece = pieces[index];
      index += 1;
      const children = level(depth + 1);
      if (!piece) {
        out += children;
        continue;
      }
      if (piece.list) {
        // An ordered list that restarts (start="…") opens a new list.
        const current = open as { tag: string; attributes: string } | null;
        if (!current || current.tag !== piece.list.tag || piece.list.attributes.includes('start=')) {
          close();
          open = { tag: piece.list.tag, attributes: piece.list.attributes };
          out += `<${piece.list.tag}${piece.list.attributes}>`;
        }
        out += `<li>${piece.list.item}${children}</li>`;
      } else {
        close();
        out += piece.around ? piece.around(children) : piece.html + children;
      }
    }
    close();
    return out;
  };
  let html = '';
  while (index < pieces.length) html += level(depthOf(elements[index]));
  return html;
}

/** A block as lines of plain text (markdown markers for list items). */
function blockText(elements: readonly BlockElement[], index: number): string | null {
  const element = elements[index];
  const definition = definitionForSlateType(element.type);
  if (!definition?.html) return null;
  const data = definition.toWireData(element) as { tokens?: Token[]; url?: string | null; checked?: boolean };
  if (element.type === 'tableBlock') {
    return tokensByCell(data as TableData)
      .map((row) => row.map((cell) => tokensText(cell).replace(/\s*\n\s*/g, ' ')).join('\t'))
      .join('\n');
  }
  if (element.type === 'embedBlock') return data.url ?? null;
  if (!Array.isArray(data.tokens)) return null;
  const text = tokensText(data.tokens);
  const indent = '    '.repeat(depthOf(element));
  switch (element.type) {
    case 'bulletListBlock':
      return `${indent}- ${text}`;
    case 'orderedListBlock':
      return `${indent}${orderedNumberAt(elements as BlockElement[], index)}. ${text}`;
    case 'checkboxBlock':
      return `${indent}- [${data.checked ? 'x' : ' '}] ${text}`;
    default:
      return text;
  }
}

export function blocksToText(elements: readonly BlockElement[]): string {
  return elements
    .map((_, i) => blockText(elements, i))
    .filter((line): line is string => line !== null)
    .join('\n');
}

/** A page link's text as copied to HTML and plain text: the page's current title when the reader may see it. */
function titledTokens(editor: Editor, tokens: readonly Token[]): Token[] {
  const title = (editor as Editor & PageLinkTitles).pageLinkTitle;
  if (!title) return [...tokens];
  return tokens.map((token) => {
    if (!isPageLink(token.link)) return token;
    const text = title(token.link.pageId);
    return text ? { ...token, text } : token;
  });
}

function titledElement(editor: Editor, element: BlockElement): BlockElement {
  if (element.type === 'tableBlock' || !element.children.some((child) => isPageLink((child as Token).link))) return element;
  return { ...element, children: titledTokens(editor, element.children as Token[]) } as BlockElement;
}

/** The selected part of each text in the selection, with a tab between table cells and a line break between rows. */
function selectedTokens(editor: Editor, selection: Range): Token[] {
  const out: Token[] = [];
  let lastCell: Path | null = null;
  for (const [node, path] of Editor.nodes(editor, { at: selection, match: (n) => Text.isText(n) })) {
    const text = node as Text & Token;
    const range = Range.intersection(selection, Editor.range(editor, path));
    if (!range) continue;
    const [start, end] = Range.edges(range);
    const cell = path.length > 3 ? path.slice(0, 3) : null;
    if (cell && lastCell && (cell[1] !== lastCell[1] || cell[2] !== lastCell[2])) out.push({ text: cell[1] !== lastCell[1] ? '\n' : '\t' });
    if (cell) lastCell = cell;
    const { text: full, tableAddress: _address, comments: _comments, ...marks } = text;
    out.push({ ...marks, text: full.slice(start.offset, end.offset) });
  }
  return canonicalTokens(out);
}

/**
 * The clipboard content of the editor's selection, or null when nothing is selected. Inside one
 * block: the selected tokens (plain text in the title and in code). Across blocks (or a void
 * block): the blocks, cut at the selection's ends, as wire blocks whose parentId and placeAfter
 * point into the copied set, as HTML and as text.
 */
export function copyContent(editor: Editor): CopiedContent | null {
  const { selection } = editor;
  if (!selection) return null;
  const [start, end] = Range.edges(selection);
  const index = start.path[0];
  const first = editor.children[index] as BlockElement | undefined;
  if (!first) return null;
  const voidAtStart = Editor.void(editor, { at: start.path });
  if (Range.isCollapsed(selection) && !voidAtStart) return null;
  if (index === end.path[0] && !voidAtStart) {
    let tokens = selectedTokens(editor, selection);
    if (first.type === 'pageHeadingBlock' || first.type === 'codeBlock') tokens = canonicalTokens([{ text: tokensText(tokens) }]);
    if (tokens.length === 0) return null;
    const titled = titledTokens(editor, tokens);
    const html = first.type === 'codeBlock' ? `<code>${escapeHtml(tokensText(tokens))}</code>` : tokensToHtml(titled);
    return { json: { format: 'workspace-blocks', version: 1, tokens }, html, text: tokensText(titled) };
  }
  const fragment = Editor.fragment(editor, voidAtStart && Range.isCollapsed(selection) ? Editor.range(editor, [index]) : selection);
  const elements: BlockElement[] = [];
  for (const node of fragment) {
    if (!Element.isElement(node)) continue;
    const element = node as BlockElement;
    if (element.type === 'pageHeadingBlock') {
      // The title's selected text comes along as a paragraph.
      const text = Node.string(element);
      if (text !== '') elements.push({ type: 'textBlock', uid: newId(), version: 1, children: [{ text }] });
      continue;
    }
    if (!definitionForSlateType(element.type)?.html) continue;
    elements.push(element);
  }
  if (elements.length === 0) return null;
  const base = depthOf(elements[0]);
  const rebased = soundDepths(elements.map((e) => ({ ...e, depth: Math.max(0, depthOf(e) - base) }) as BlockElement));
  const pageId = pageIdOf(editor);
  const positions = flatPositions(rebased);
  const blocks: WireBlock[] = rebased.map((element, i) => toWire(element, { pageId, ...positions[i] }));
  const titled = rebased.map((element) => titledElement(editor, element));
  return { json: { format: 'workspace-blocks', version: 1, blocks }, html: blocksToHtml(titled), text: blocksToText(titled) };
}

/**
 * The parentId and placeAfter of every element of a flat list with sound depths, in one pass
 * (what positionInFlatList answers for one index, which costs up to the list's length each).
 */
export function flatPositions(elements: readonly { uid: string; depth?: number }[]): { parentId: string | null; placeAfter: string | null }[] {
  // open[d]: the uid of the last element seen at depth d (the parent of the next one at d + 1).
  const open: string[] = [];
  return elements.map((element) => {
    const depth = depthOf(element);
    const placeAfter = open.length > depth ? open[depth] : null;
    open.length = depth;
    open.push(element.uid);
    return { parentId: depth > 0 ? open[depth - 1] : null, placeAfter };
  });
}

function pageIdOf(editor: Editor): string {
  const title = editor.children[0] as BlockElement | undefined;
  return title?.type === 'pageHeadingBlock' && title.uid.startsWith(PAGE_HEADING_PREFIX) ? title.uid.slice(PAGE_HEADING_PREFIX.length) : '';
}

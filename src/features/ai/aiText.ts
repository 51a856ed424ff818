import { Editor, Element, Node, Range, Text, type Point } from 'slate';
import { AI_LIMITS } from '../../../schema/ai';
import { orderedNumberAt } from '../../../schema/blocks';
import { depthOf, type BlockElement } from '../../../schema/slate';
import type { Token } from '../../../schema/token';
import { blocksToText, tokensToMarkdown } from '../../../plugins';
import { isTextLike } from '../../../plugins/withClipboard/content';

/**
 * What the assistant is sent (docs/ai.md): the text it acts on (improve: markdown with the
 * marks) and the surrounding blocks as plain text, markdown-like (headings with `#`, list
 * markers), bounded to a few thousand characters — the nearest blocks first.
 */

/** Characters of surrounding text sent with a call, at most. */
export const CONTEXT_BUDGET = 4_000;
/** Characters of preceding text «Продолжить текст» continues from, at most. */
export const CONTINUE_BUDGET = 4_000;

/** One block as a line (or lines) of markdown; null for blocks without text (images, files, dividers…). */
export function blockMarkdown(block: BlockElement): string | null {
  const text = Node.string(block);
  switch (block.type) {
    case 'pageHeadingBlock':
      return text.trim() === '' ? null : `# ${text}`;
    case 'heading1Block':
      return `# ${text}`;
    case 'heading2Block':
      return `## ${text}`;
    case 'heading3Block':
      return `### ${text}`;
    case 'quoteBlock':
      return `> ${text}`;
    case 'codeBlock':
      return '```\n' + text + '\n```';
    default: {
      const line = blocksToText([block]);
      return line.trim() === '' ? null : line;
    }
  }
}

/** The text nodes of an element as tokens. */
function tokensOf(element: Element): Token[] {
  return element.children.filter((child): child is Text => Text.isText(child)) as Token[];
}

/**
 * One block as markdown with its marks (**bold**, *italic*, `code`, links… — tokensToMarkdown,
 * which parseMarkdown reads back), for the text «Улучшить» sends. `number`: an ordered item's.
 */
export function blockMarkdownWithMarks(block: BlockElement, number = 1): string {
  if (block.type === 'codeBlock') {
    const text = Node.string(block);
    const fence = '`'.repeat(Math.max(3, ...[...text.matchAll(/`{3,}/g)].map((m) => m[0].length + 1)));
    const language = block.language && block.language !== 'plain' ? block.language : '';
    return `${fence}${language}\n${text}\n${fence}`;
  }
  const line = tokensToMarkdown(tokensOf(block));
  switch (block.type) {
    case 'heading1Block':
      return `# ${line}`;
    case 'heading2Block':
      return `## ${line}`;
    case 'heading3Block':
      return `### ${line}`;
    case 'quoteBlock':
      return `> ${line}`;
    case 'bulletListBlock':
      return `- ${line}`;
    case 'orderedListBlock':
      return `${number}. ${line}`;
    case 'checkboxBlock':
      return `- [${block.checked ? 'x' : ' '}] ${line}`;
    default:
      return line;
  }
}

function topBlock(editor: Editor, index: number): BlockElement | null {
  const node = editor.children[index];
  return node && Element.isElement(node) ? (node as BlockElement) : null;
}

/**
 * The text of the blocks from `from` walking by `step` (−1: up, +1: down) while the budget lasts,
 * in document order. A block that does not fit whole is cut (at its end when walking up: the part
 * nearest the start point is kept).
 */
export function blocksText(editor: Editor, from: number, step: -1 | 1, budget: number, { title = false } = {}): string {
  const lines: string[] = [];
  let room = budget;
  for (let index = from; index >= 0 && index < editor.children.length && room > 0; index += step) {
    const block = topBlock(editor, index);
    if (!block || (block.type === 'pageHeadingBlock' && !title)) continue;
    const line = blockMarkdown(block);
    if (line === null) continue;
    const piece = line.length <= room ? line : step < 0 ? line.slice(line.length - room) : line.slice(0, room);
    lines.push(piece);
    room -= piece.length + 1;
  }
  return (step < 0 ? lines.reverse() : lines).join('\n');
}

/** The page's title as a line of context ("# Title"), or ''. */
function titleLine(editor: Editor): string {
  const first = topBlock(editor, 0);
  return first?.type === 'pageHeadingBlock' ? (blockMarkdown(first) ?? '') : '';
}

/** Context for a block at `index`: the page title, some of what is above and some of what is below. */
export function contextAround(editor: Editor, index: number, below = index + 1, budget = CONTEXT_BUDGET): string {
  const title = titleLine(editor).slice(0, 200);
  const room = budget - title.length;
  const after = blocksText(editor, below, 1, Math.floor(room / 3));
  const before = blocksText(editor, index - 1, -1, room - after.length);
  return [title, before, after].filter((part) => part !== '').join('\n\n');
}

/** «Продолжить текст» at the block `index`: the text above it (what to continue) and what follows it. */
export function continueInput(editor: Editor, index: number): { text: string; context: string } {
  const text = blocksText(editor, index - 1, -1, CONTINUE_BUDGET);
  const title = titleLine(editor).slice(0, 200);
  const after = blocksText(editor, index + 1, 1, CONTEXT_BUDGET / 2);
  return { text, context: [title, after].filter((part) => part !== '').join('\n\n') };
}

/** What «Улучшить» acts on (docs/ai.md «Replacing a selection»). */
export type ImproveTarget =
  /** Inside one block: the selected part, less the whitespace at its edges (that stays as it is). `plain`: in the title, code or a table (no marks). */
  | { kind: 'inline'; index: number; range: Range; plain: boolean }
  /** Across blocks: the whole blocks with text (in document order); the others in between (images, tables, dividers…) are left alone. */
  | { kind: 'blocks'; indices: number[] };

const LIST_TYPES: ReadonlySet<string> = new Set(['bulletListBlock', 'orderedListBlock', 'checkboxBlock']);

/** Blocks whose text «Улучшить» sends and replaces when a selection spans several blocks. */
function improvable(block: BlockElement | null): block is BlockElement {
  return block !== null && block.type !== 'pageHeadingBlock' && (block.type === 'codeBlock' || isTextLike(block));
}

/** A range no longer reaching into a block by just its edge (a triple click ends at the next block's start). */
function unhung(editor: Editor, range: Range): Range {
  let [start, end] = Range.edges(range);
  while (end.path[0] > start.path[0] && Editor.isStart(editor, end, [end.path[0]])) end = Editor.end(editor, [end.path[0] - 1]);
  while (start.path[0] < end.path[0] && Editor.isEnd(editor, start, [start.path[0]])) start = Editor.start(editor, [start.path[0] + 1]);
  return { anchor: start, focus: end };
}

/** The range less the whitespace at its start and end. */
function trimmed(editor: Editor, range: Range): Range {
  const text = Editor.string(editor, range, { voids: true });
  const lead = text.length - text.trimStart().length;
  if (lead === text.length) return { anchor: Range.start(range), focus: Range.start(range) };
  const trail = text.length - text.trimEnd().length;
  const move = (point: Point, distance: number, forward: boolean): Point =>
    distance === 0 ? point : ((forward ? Editor.after : Editor.before)(editor, point, { distance, unit: 'offset' }) ?? point);
  return { anchor: move(Range.start(range), lead, true), focus: move(Range.end(range), trail, false) };
}

/**
 * What «Улучшить» on a selection acts on: inside one block, the selected part (its edge
 * whitespace aside); across blocks, the whole blocks it touches — so that the result can take
 * their place whole (a paragraph and a list item stay a paragraph and a list item). Null when
 * there is nothing with text.
 */
export function improveTarget(editor: Editor, selection: Range): ImproveTarget | null {
  const range = unhung(editor, selection);
  const [start, end] = Range.edges(range);
  const first = start.path[0];
  const last = end.path[0];
  if (first === last) {
    const block = topBlock(editor, first);
    if (!block) return null;
    return { kind: 'inline', index: first, range: trimmed(editor, range), plain: !isTextLike(block) };
  }
  const indices: number[] = [];
  for (let index = first; index <= last; index++) if (improvable(topBlock(editor, index))) indices.push(index);
  return indices.length > 0 ? { kind: 'blocks', indices } : null;
}

/** The range «Заменить» replaces (to draw it): the trimmed selection in one block, or the whole blocks. */
export function improvedRange(editor: Editor, selection: Range): Range | null {
  const target = improveTarget(editor, selection);
  if (!target) return null;
  if (target.kind === 'inline') return target.range;
  return { anchor: Editor.start(editor, [target.indices[0]]), focus: Editor.end(editor, [target.indices[target.indices.length - 1]]) };
}

/**
 * Whole blocks as markdown: list items one a line (nested ones indented under the item before
 * them), other blocks a paragraph each (a blank line between, so none runs into the next).
 */
function blocksMarkdown(editor: Editor, indices: readonly number[]): string {
  const blocks = indices.map((index) => topBlock(editor, index)!);
  const base = depthOf(blocks[0]);
  let out = '';
  // The list item before (its type and level), if the block before was one.
  let list: { type: string; level: number } | null = null;
  blocks.forEach((block, k) => {
    const number = orderedNumberAt(editor.children as BlockElement[], indices[k]);
    const line = blockMarkdownWithMarks(block, number);
    const gap = k === 0 ? '' : '\n\n';
    if (!LIST_TYPES.has(block.type)) {
      out += gap + line;
      list = null;
      return;
    }
    const level = list ? Math.min(Math.max(0, depthOf(block) - base), list.level + 1) : 0;
    // An item of the same list follows on the next line; another kind of list (or an ordered one
    // starting at another number under an item, which markdown would read as the item's text) after a blank line.
    const sameList = list !== null && list.type === block.type && (block.type !== 'orderedListBlock' || number === 1 || level <= list.level);
    out += (sameList ? '\n' : gap) + '    '.repeat(level) + line;
    list = { type: block.type, level };
  });
  return out;
}

/** The markdown «Улучшить» sends for a target: the selected part of one block with its marks, or whole blocks. */
export function improveText(editor: Editor, target: ImproveTarget): string {
  if (target.kind === 'blocks') return blocksMarkdown(editor, target.indices);
  if (target.plain) return Editor.string(editor, target.range);
  const [block] = Editor.fragment(editor, target.range);
  return block && Element.isElement(block) ? tokensToMarkdown(tokensOf(block)) : '';
}

/**
 * «Улучшить с ИИ» on a selection: the text of its target (improveTarget) as markdown, marks
 * kept, and the blocks around it.
 */
export function improveInput(editor: Editor, range: Range): { text: string; context: string } {
  const target = improveTarget(editor, range);
  if (!target) return { text: '', context: '' };
  const first = target.kind === 'blocks' ? target.indices[0] : target.index;
  const last = target.kind === 'blocks' ? target.indices[target.indices.length - 1] : target.index;
  return { text: improveText(editor, target), context: contextAround(editor, first, last + 1) };
}

/** True when the text is too long to be sent (the server answers 413 beyond). */
export function tooLong(text: string): boolean {
  return text.length > AI_LIMITS.text;
}

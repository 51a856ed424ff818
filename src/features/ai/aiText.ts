import { Editor, Element, Node, Range } from 'slate';
import { AI_LIMITS } from '../../../schema/ai';
import type { BlockElement } from '../../../schema/slate';
import { blocksToText } from '../../../plugins';

/**
 * What the assistant is sent (docs/ai.md): the text it acts on and the surrounding blocks as
 * plain text, markdown-like (headings with `#`, list markers), bounded to a few thousand
 * characters — the nearest blocks first.
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

/**
 * «Улучшить с ИИ» on a selection: the selected text (inside one block as it reads; across blocks
 * as markdown lines, cut at the selection's ends) and the blocks around it.
 */
export function improveInput(editor: Editor, range: Range): { text: string; context: string } {
  const [start, end] = Range.edges(range);
  const first = start.path[0];
  const last = end.path[0];
  let text: string;
  if (first === last) text = Editor.string(editor, range);
  else {
    const fragment = Editor.fragment(editor, range).filter((node): node is BlockElement => Element.isElement(node));
    text = fragment
      .map((block) => blockMarkdown(block))
      .filter((line): line is string => line !== null)
      .join('\n');
  }
  return { text, context: contextAround(editor, first, last + 1) };
}

/** True when the text is too long to be sent (the server answers 413 beyond). */
export function tooLong(text: string): boolean {
  return text.length > AI_LIMITS.text;
}

import { definitionForSlateType, REGISTERED_BLOCKS, pastedImageToTokens, type RegisteredBlock } from '../../schema/blocks';
import { htmlToTokens } from '../../schema/html';
import type { BlockElement } from '../../schema/slate';
import type { Token } from '../../schema/token';
import { makeBlock, paragraph, soundDepths, trimBreaks, type PastedContent } from './content';
import { sanitizeHtml, type HtmlWindow } from './sanitize';

/** Elements that start a block of their own (everything else is inline content). */
const BLOCK_TAGS = new Set([
  'ADDRESS',
  'ARTICLE',
  'ASIDE',
  'BLOCKQUOTE',
  'BODY',
  'CENTER',
  'DD',
  'DETAILS',
  'DIV',
  'DL',
  'DT',
  'FIGCAPTION',
  'FIGURE',
  'FOOTER',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'HEADER',
  'HR',
  'LI',
  'MAIN',
  'NAV',
  'OL',
  'P',
  'PRE',
  'SECTION',
  'SUMMARY',
  'TABLE',
  'UL',
  'CAPTION',
]);

/** Containers that are walked through when they hold blocks (their own definition rule, if any, is too general then). */
const PASS_THROUGH = new Set([
  'DIV',
  'SECTION',
  'ARTICLE',
  'MAIN',
  'HEADER',
  'FOOTER',
  'NAV',
  'ASIDE',
  'FIGURE',
  'FIGCAPTION',
  'DETAILS',
  'SUMMARY',
  'CENTER',
  'DL',
  'DD',
  'DT',
  'ADDRESS',
  'BODY',
  'CAPTION',
  'P',
]);

const LIST_TAGS = new Set(['UL', 'OL']);

type Rule = { definition: RegisteredBlock; selector: string; read(element: Element, tokens: Token[]): unknown };

/** Every parse rule of every block type, in registry order. */
function rules(): Rule[] {
  return REGISTERED_BLOCKS.flatMap((definition) =>
    (definition.html?.parse ?? []).map((rule) => ({ definition, selector: rule.selector, read: rule.read as Rule['read'] })),
  );
}

const isElement = (node: Node): node is Element => node.nodeType === 1;
const isBlockElement = (node: Node): node is Element => isElement(node) && BLOCK_TAGS.has(node.tagName);
const hasBlockChildren = (element: Element): boolean => Array.from(element.children).some((c) => BLOCK_TAGS.has(c.tagName));

class HtmlReader {
  private readonly rules = rules();
  /** Whether a rule's selector takes any element of the tag (not only particular ones): such rules do not take containers. */
  private readonly generic = new Map<string, boolean>();
  readonly blocks: BlockElement[] = [];

  constructor(private readonly doc: Document) {}

  private isGeneric(rule: Rule, tagName: string): boolean {
    const key = `${rule.selector}\u0000${tagName}`;
    let generic = this.generic.get(key);
    if (generic === undefined) {
      generic = this.doc.createElement(tagName).matches(rule.selector);
      this.generic.set(key, generic);
    }
    return generic;
  }

  /**
   * The block a definition makes of the element. Rules made for particular elements
   * (`div[data-latex]`, `ul > li`) are tried before rules that take every element of the tag
   * (`p, div`), each group in registry order; a container holding blocks is only taken by the
   * particular ones.
   */
  private claim(element: Element, depth: number, specificOnly: boolean): BlockElement | null {
    let tokens: Token[] | null = null;
    for (const pass of specificOnly ? [false] : [false, true]) {
      for (const rule of this.rules) {
        if (this.isGeneric(rule, element.tagName) !== pass || !element.matches(rule.selector)) continue;
        tokens ??= trimBreaks(htmlToTokens(element));
        const data = rule.read(element, tokens);
        if (data === null) continue;
        const block = makeBlock(rule.definition.wireType, data, depth);
        if (block) return block;
      }
    }
    return null;
  }

  /** Adds a block; empty paragraphs (spacing in Word and web pages) are left out. */
  push(block: BlockElement): void {
    if (block.type === 'textBlock' && block.children.every((t) => t.text === '')) return;
    this.blocks.push(block);
  }

  /** The children of a container: runs of inline content become text blocks, blocks are read one by one. */
  walk(container: Element, depth: number): void {
    let run: Node[] = [];
    const flush = () => {
      if (run.length === 0) return;
      const holder = this.doc.createElement('p');
      const nodes = run;
      run = [];
      nodes[0].parentNode?.insertBefore(holder, nodes[0]);
      for (const node of nodes) holder.appendChild(node);
      const tokens = trimBreaks(htmlToTokens(holder));
      if (tokens.length > 0) this.push(paragraph(tokens, depth));
    };
    for (const child of Array.from(container.childNodes)) {
      if (isBlockElement(child)) {
        flush();
        this.element(child, depth);
      } else if (isElement(child) && hasBlockChildren(child)) {
        // An inline wrapper around blocks (Google Docs' <b id="docs-internal-guid-…">).
        flush();
        this.walk(child, depth);
      } else if (isElement(child)) {
        const block = this.claim(child, depth, true);
        if (block) {
          flush();
          this.push(block);
        } else run.push(child);
      } else run.push(child);
    }
    flush();
  }

  /** One block-level element. */
  element(element: Element, depth: number): void {
    if (LIST_TAGS.has(element.tagName)) return this.list(element, depth);
    if (element.tagName === 'LI') return this.listItem(element, depth);
    if (element.tagName === 'DETAILS') return this.details(element, depth);
    const container = PASS_THROUGH.has(element.tagName) && hasBlockChildren(element);
    const block = this.claim(element, depth, container);
    if (block) {
      this.push(block);
      // A type whose HTML holds its nested blocks (a column list, a column): they are its children.
      if (definitionForSlateType(block.type)?.html?.nestsChildren) this.walk(element, depth + 1);
      return;
    }
    this.walk(element, depth);
  }

  /**
   * A toggle (<details>, as we and Notion write toggles): its summary is the block — a toggle or
   * a toggle heading, by the types' rules for <summary> (else its text) —, the rest its children.
   */
  private details(details: Element, depth: number): void {
    const summary = Array.from(details.children).find((c) => c.tagName === 'SUMMARY');
    if (summary) {
      summary.remove();
      const block = this.claim(summary, depth, false);
      if (block) this.push(block);
      else this.walk(summary, depth);
    }
    this.walk(details, summary ? depth + 1 : depth);
  }

  private list(list: Element, depth: number): void {
    for (const child of Array.from(list.childNodes)) {
      if (!isElement(child)) {
        if ((child.textContent ?? '').trim() !== '') this.push(paragraph(trimBreaks([{ text: child.textContent! }]), depth));
        continue;
      }
      // Google Docs nests a list as a sibling of the items: <ul><li>a</li><ul><li>b</li></ul></ul>.
      if (LIST_TAGS.has(child.tagName)) this.list(child, depth + 1);
      else if (child.tagName === 'LI') this.listItem(child, depth);
      else this.element(child, depth);
    }
  }

  /** A list item: its own text (and first paragraph) is the item, nested lists and further blocks its children. */
  private listItem(item: Element, depth: number): void {
    const nested: Element[] = [];
    let seenContent = false;
    for (const child of Array.from(item.childNodes)) {
      if (isElement(child) && (LIST_TAGS.has(child.tagName) || (isBlockElement(child) && seenContent))) {
        nested.push(child);
        item.removeChild(child);
        continue;
      }
      if (isBlockElement(child) && hasBlockChildren(child)) {
        nested.push(child);
        item.removeChild(child);
        continue;
      }
      if (isBlockElement(child) || (child.textContent ?? '').trim() !== '') seenContent = true;
    }
    // An item that only wraps blocks (Notion's toggle: <li><details>…</details></li>) is not an empty item of its own.
    const wrapper = nested.length > 0 && trimBreaks(htmlToTokens(item)).length === 0 && !item.querySelector('input, img');
    if (!wrapper) {
      const block = this.claim(item, depth, false);
      if (block) this.push(block);
      else {
        const tokens = trimBreaks(htmlToTokens(item));
        if (tokens.length > 0) this.push(paragraph(tokens, depth));
      }
    }
    for (const child of nested) {
      if (LIST_TAGS.has(child.tagName)) this.list(child, depth + 1);
      else this.element(child, wrapper ? depth : depth + 1);
    }
  }
}

/** Word writes list items as paragraphs with `mso-list: l0 level2 lfo1`; its bullet is a span with `mso-list: Ignore`. */
function wordLists(doc: Document): void {
  for (const marker of Array.from(doc.querySelectorAll('[style*="mso-list"]'))) {
    if (/mso-list:\s*ignore/i.test(marker.getAttribute('style') ?? '')) marker.setAttribute('data-word-marker', '');
  }
  const paragraphs = Array.from(doc.body.querySelectorAll('p')).filter((p) => /mso-list:\s*l\d+\s+level\d+/i.test(p.getAttribute('style') ?? ''));
  const stack: { list: Element; level: number }[] = [];
  let previous: Element | null = null;
  let previousList = '';
  for (const paragraph of paragraphs) {
    const level = Number(/level(\d+)/i.exec(paragraph.getAttribute('style') ?? '')![1]);
    const markerText = Array.from(paragraph.querySelectorAll('[data-word-marker]'))
      .map((m) => m.textContent ?? '')
      .join('')
      .trim();
    const ordered = /^\(?[0-9a-zA-Z]{1,4}[.)]$/.test(markerText);
    paragraph.querySelectorAll('[data-word-marker]').forEach((m) => m.remove());
    // A new list when the paragraph does not follow the last list item or starts another Word list.
    const listId = /mso-list:\s*(l\d+)/i.exec(paragraph.getAttribute('style') ?? '')![1];
    if (!previous || previous.nextElementSibling !== paragraph || listId !== previousList) stack.length = 0;
    previousList = listId;
    while (stack.length > 0 && stack[stack.length - 1].level > level) stack.pop();
    let top = stack[stack.length - 1];
    if (!top || top.level < level) {
      const list = doc.createElement(ordered ? 'ol' : 'ul');
      if (top) (top.list.lastElementChild ?? top.list).appendChild(list);
      else paragraph.parentNode!.insertBefore(list, paragraph);
      top = { list, level };
      stack.push(top);
    }
    const item = doc.createElement('li');
    while (paragraph.firstChild) item.appendChild(paragraph.firstChild);
    top.list.appendChild(item);
    // The emptied paragraph stays until the end: the next paragraph's adjacency is tested against it.
    previous = paragraph;
  }
  for (const paragraph of paragraphs) paragraph.remove();
}

/**
 * Table cells and quotes hold inline text only: paragraphs inside them are kept apart by a line
 * break (rather than run together) when the cell or quote is read as one block.
 */
function separateParagraphs(doc: Document): void {
  for (const holder of Array.from(doc.body.querySelectorAll('td, th, blockquote'))) {
    for (const element of Array.from(holder.querySelectorAll('*'))) {
      const next = element.nextElementSibling;
      if (BLOCK_TAGS.has(element.tagName) && next && BLOCK_TAGS.has(next.tagName)) {
        element.after(doc.createElement('br'));
      }
    }
  }
}

/** Task lists of other apps as checkbox inputs (the form the checkbox type reads). */
function taskItems(doc: Document): void {
  // Google Docs: <li role="checkbox" aria-checked="true">.
  for (const item of Array.from(doc.querySelectorAll('li[role="checkbox"]'))) {
    const box = doc.createElement('input');
    box.setAttribute('type', 'checkbox');
    if (item.getAttribute('aria-checked') === 'true') box.setAttribute('checked', '');
    item.insertBefore(box, item.firstChild);
  }
  // Notion: <li><div class="checkbox checkbox-on"></div> text</li>.
  for (const mark of Array.from(doc.querySelectorAll('li > .checkbox'))) {
    const box = doc.createElement('input');
    box.setAttribute('type', 'checkbox');
    if (mark.classList.contains('checkbox-on')) box.setAttribute('checked', '');
    mark.replaceWith(box);
  }
}

/** Pictures of other sites cannot become image blocks (see pastedImageToTokens): they become links to the picture. */
function foreignImages(doc: Document, reader: { claims(element: Element): boolean }): void {
  for (const image of Array.from(doc.body.querySelectorAll('img'))) {
    if (reader.claims(image)) continue;
    const tokens = pastedImageToTokens(image);
    if (!tokens) {
      image.remove();
      continue;
    }
    const link = doc.createElement('a');
    link.setAttribute('href', tokens[0].link!.href);
    link.textContent = tokens[0].text;
    image.replaceWith(link);
  }
}

/**
 * Pasted HTML (Google Docs, Word, Notion, web pages, this app) as blocks: sanitized, then each
 * block-level element goes to the first block type whose parse rule takes it; nested lists
 * become deeper blocks; containers without a rule of their own are walked through; inline-only
 * HTML is one text block. Null when nothing readable is left. `window`: a DOM to read with
 * where there is no browser's (the server's HTML import).
 */
export function parseHtml(html: string, window?: HtmlWindow): PastedContent | null {
  const clean = sanitizeHtml(html, window);
  if (clean === null) return null;
  const doc = new (window?.DOMParser ?? DOMParser)().parseFromString(`<!DOCTYPE html><html><body>${clean}</body></html>`, 'text/html');
  const reader = new HtmlReader(doc);
  wordLists(doc);
  taskItems(doc);
  separateParagraphs(doc);
  const ruleList = rules();
  foreignImages(doc, { claims: (image) => ruleList.some((rule) => image.matches(rule.selector)) });
  reader.walk(doc.body, 0);
  const blocks = reader.blocks;
  if (blocks.length === 0) return null;
  if (blocks.length === 1 && blocks[0].type === 'textBlock' && !blocks[0].depth) {
    return { kind: 'inline', tokens: (blocks[0].children as Token[]).filter((t) => t.text !== '') };
  }
  return { kind: 'blocks', blocks: soundDepths(blocks) };
}

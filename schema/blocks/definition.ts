import { z } from 'zod';
import { canonicalTokens, tokensSchema, type Token } from '../token';
import type { BlockElementBase, SlateText } from '../slate';

/** The data of a block whose content is a run of tokens (text, headings, …). */
export const textDataSchema = z.object({ tokens: tokensSchema }).strict();
export type TextData = z.infer<typeof textDataSchema>;

/** Where a block sits; kept outside the Slate element, which knows its place from the tree. */
export interface BlockPosition {
  pageId: string;
  parentId: string | null;
  placeAfter: string | null;
}

/** What every block type's Slate element is: a `type`, the block's uid and version, its children. */
export interface AnyBlockElement extends Omit<BlockElementBase, 'children'> {
  type: string;
  children: readonly unknown[];
}

/**
 * One block type: its wire name, its Slate element (`Element`: its interface is declared beside
 * the definition), its data schema, the two converters, and the markdown shortcuts that turn a
 * text block into it. The unions of every type's element (`BlockElement`, schema/slate.ts) and
 * data (`BlockData`, schema/block.ts) are derived from the registry (schema/blocks/index.ts):
 * adding a block type = one folder under plugins/blocks/ + one line there (docs/plugins.md).
 */
export interface BlockDefinition<WireType extends string = string, Data = unknown, Element extends AnyBlockElement = AnyBlockElement> {
  wireType: WireType;
  slateType: Element['type'];
  dataSchema: z.ZodType<Data>;
  /** Typed at the start of a text block, then a space: the block becomes this type. */
  shortcuts: readonly string[];
  /**
   * A markdown fence (```): typed at the start of a text block, maybe followed by a word (```js),
   * then a space or Enter, it makes a block of this type; `fields` reads the word into the new
   * block's fields (an unknown word gives none: the defaults stay).
   */
  fence?: { marker: string; fields(info: string): Record<string, unknown> };
  /**
   * The data of a new, empty block of this type (slash menu, a shortcut turning a text block
   * into it). A type without it is not offered there (databases, until their feature).
   */
  defaultData?(): Data;
  /**
   * A bare link pasted into the text may become a block of this type: the paste's menu offers it
   * beside «Оставить ссылкой» when this gives data for the address (src/editor/PasteLinkMenu.tsx).
   */
  fromLink?(url: string): Data | null;
  /**
   * Items of their own in the slash menu instead of the type's one (the columns: «2 колонки» …
   * «5 колонок», named `blockTypes.<id>`): each makes the block with the blocks under it that
   * `children` lists (their type, fields and depth below it, in order).
   */
  menuVariants?: readonly MenuVariant[];
  /** What search finds it by when it holds no tokens (a file's name, a formula, a link's address and title); tokens are read without it. */
  searchText?(data: Data): string;
  /** A heading of this level (headings and toggle headings): the table of contents lists it. */
  headingLevel?: 1 | 2 | 3;
  /** Its group in the slash menu (absent: basic blocks). */
  menuGroup?: Exclude<MenuGroup, 'basic'>;
  /** A void element has no editable text: its one empty text child is a placeholder for Slate. */
  /**
   * Made by the web app's view rather than from default data (its View.tsx exports a
   * `blockMakers` entry): the slash menu offers it without `defaultData` (a synced block, whose
   * page the server makes first).
   */
  madeInEditor?: boolean;
  isVoid: boolean;
  /** How the editor's keys treat a block of the type that has text (absent: Slate's own, below). */
  editing?: BlockEditing;
  /**
   * The blocks nested under it fold away (a toggle): each reader opens and closes it for
   * themselves (kept by the server, closed by default: docs/api/blocks.md «Toggle folds»), Ctrl+Enter
   * in it does so from the keyboard, and Enter follows the folding rules (src/editor/folding.ts).
   */
  folds?: boolean;
  /**
   * Copy and paste as HTML (schema/html.ts has the token helpers). Optional while a type has no
   * HTML form (databases); every content block type has one.
   */
  html?: BlockHtml<Data>;
  /**
   * Its Markdown in an export (server/export/markdown.ts): the block's lines, its children left
   * out (they are indented under it). Without it a block with tokens is its text, one without
   * none is left out (the JSON export keeps every type whole).
   */
  markdown?: BlockMarkdown<Data>;
  /**
   * How this type's data changed shape, oldest first (schema/blocks/versions.ts): the data of a
   * type is at version 1 + the number of steps; step N takes version N's data to version N + 1.
   * A step is added, never changed or removed, once shipped. None yet for any type.
   */
  upgrades?: readonly BlockUpgrade[];
  /** The form the server stores (e.g. tokens joined), so every reader sees what Slate would keep. */
  canonicalize(data: Data): Data;
  toSlateFields(data: Data): ElementFields<Element>;
  toWireData(element: Element): Data;
}

/** The slash menu's groups, in the menu's order. */
export const MENU_GROUPS = ['basic', 'media', 'database', 'advanced'] as const;
export type MenuGroup = (typeof MENU_GROUPS)[number];

/** A slash-menu variant of a block type (`BlockDefinition.menuVariants`). */
export interface MenuVariant {
  id: string;
  children(): ReadonlyArray<{ type: string; fields: Record<string, unknown>; depth: number }>;
}

/** The Slate element of a definition's type. */
export type ElementOf<D> = D extends { toWireData(element: infer E): unknown } ? E : never;
/** The wire data of a definition's type. */
export type DataOf<D> = D extends { canonicalize(data: infer Data): unknown } ? Data : never;

/**
 * The editor's keys in a block with text (plugins/withStructure, plugins/withPageLinks). Without
 * `enter`, Enter splits the block into two of its type, its fields copied to the second.
 */
export interface BlockEditing {
  /**
   * Enter: `sameType` — the next block is another of the type with its default fields (a list's
   * next item, unchecked, counting on), and Enter in an empty one ends the list (one level up,
   * or text at the top level); `text` — a text block follows; `textInside` — a text block follows
   * one level down, inside it (a callout).
   */
  enter?: 'sameType' | 'text' | 'textInside';
  /** Backspace at its start makes it a text block (lists, quotes). */
  backspaceToText?: boolean;
  /** Page links (`[[`, `@`) may be typed in its text. */
  pageLinks?: boolean;
}

/** A named step that takes one block type's data from one version of its shape to the next. */
export interface BlockUpgrade {
  /** What changed, for the logs and the docs («code: language given to every block»). */
  name: string;
  up(data: Record<string, unknown>): Record<string, unknown>;
}

/**
 * A block type's HTML: `serialize` writes one block for the clipboard (`content` is the block's
 * tokens already as inline HTML, from tokensToHtml); `parse` lists the pasted elements the type
 * takes, tried in order over all types: `selector` is tested with Element.matches, `read` builds
 * the data (`tokens` are the element's inline content, from htmlToTokens) or returns null to pass.
 * HTML arrives sanitized (no scripts, handlers or unsafe links) before `read` sees it.
 */
export interface BlockHtml<Data> {
  /** `children`: the nested blocks' HTML, given when `nestsChildren` (else they follow the block's own HTML). */
  serialize(data: Data, content: string, children?: string): string;
  /** Its HTML holds its nested blocks (a toggle's <details>). */
  nestsChildren?: boolean;
  parse: readonly { selector: string; read(element: Element, tokens: Token[]): Data | null }[];
}

/**
 * A block type's Markdown: `serialize` writes its lines with the export's helpers; `list` makes
 * it a list item (no blank line between items of one list; `numbered` items are counted).
 */
export interface BlockMarkdown<Data> {
  serialize(data: Data, context: MarkdownContext): string[];
  list?: 'bullet' | 'numbered';
  /** Its children are written at its own level, not indented under it (a column list and its columns: Markdown has no columns). */
  childrenUnindented?: boolean;
  /** A numbered item that starts its count anew at this number (else its run's next). */
  startsAt?(data: Data): number | undefined;
}

/** What a block's Markdown may use of the export it is written into. */
export interface MarkdownContext {
  /** Tokens as inline Markdown (a line break is a `\` line end; page links by their paths in the export). */
  inline(tokens: readonly Token[]): string;
  /** The same inside a table's cell or another line-start-free place. */
  inlineMidLine(tokens: readonly Token[]): string;
  /** A file's address in the export (encoded for a link). */
  file(fileId: string, name: string): string;
  /** A page's path in the export (as is: `address` encodes it for a link), or null when the page is not in it. */
  page(pageId: string): string | null;
  /** A path as a link's address (`%`, spaces and parentheses encoded). */
  address(path: string): string;
  /** The block's number in its run of numbered list items (1 for the first). */
  number: number;
  /** The block's id. */
  blockId: string;
  /** What a database block reads as in this export (its first view as a table, a link to its CSV), or nothing. */
  database(blockId: string): string[];
  /** The headings of the document written (headings 1–3 and toggle headings, in order): a table of contents lists them. */
  headings(): { level: 1 | 2 | 3; tokens: Token[] }[];
}

/** What an element holds besides type, uid, version and depth (for a union of elements: for each). */
export type ElementFields<E> = E extends unknown ? Omit<E, 'type' | 'uid' | 'version' | 'depth'> : never;

/** Slate needs at least one text child; an empty block has one empty text. */
export function tokensToChildren(tokens: readonly Token[]): SlateText[] {
  return tokens.length > 0 ? tokens.map((t) => ({ ...t })) : [{ text: '' }];
}

/** Slate text children back to canonical wire tokens. */
export function childrenToTokens(children: readonly unknown[]): Token[] {
  return canonicalTokens((children as readonly (SlateText | object)[]).filter((c): c is SlateText => 'text' in c) as Token[]);
}

/** The element of a block that is nothing but tokens (text, headings, quotes, bulleted items). */
export interface TextLikeElement<T extends string> extends BlockElementBase {
  type: T;
}

/** A definition for a block that is nothing but tokens. */
export function textLikeBlock<W extends string, T extends string>(
  wireType: W,
  slateType: T,
  shortcuts: readonly string[] = [],
): BlockDefinition<W, TextData, TextLikeElement<T>> {
  return {
    wireType,
    slateType,
    dataSchema: textDataSchema,
    shortcuts,
    isVoid: false,
    editing: { pageLinks: true },
    defaultData: () => ({ tokens: [] }),
    canonicalize: (data) => ({ ...data, tokens: canonicalTokens(data.tokens) }),
    toSlateFields: (data) => ({ children: tokensToChildren(data.tokens) }),
    toWireData: (element) => ({ tokens: childrenToTokens(element.children) }),
  };
}

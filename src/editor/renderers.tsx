import { Node, Range, type Editor } from 'slate';
import { ReactEditor, useFocused, useSlateSelector, useSlateStatic, type RenderElementProps, type RenderLeafProps } from 'slate-react';
import { createContext, useContext, useLayoutEffect, useState, type CSSProperties, type ReactNode, type RefObject } from 'react';
import type { BlockElement, SlateElement } from '../../schema/slate';
import { isPageLink, isSafeHref } from '../../schema/token';
import { DateMentionView } from './DateMentionView';
import { PageLinkView } from './PageLinkView';
import { BLOCK_VIEWS } from './blocks';
import { editorT } from './blocks/textBlockParts';
import { useFoldedAway } from './folding';
import { useSelectionEdges } from './lazyChunks';

/** What every block's root element carries: its type class, its id, and its nesting depth. */
export function blockRootProps(element: SlateElement, extraClass = '') {
  const depth = element.depth ?? 0;
  return {
    className: `block block-${element.type}${extraClass ? ` ${extraClass}` : ''}`,
    'data-block-id': element.uid,
    'data-depth': depth > 0 ? depth : undefined,
    style: depth > 0 ? ({ '--depth': depth } as CSSProperties) : undefined,
  };
}

const TAGS = {
  pageHeadingBlock: 'h1',
  heading1Block: 'h2',
  heading2Block: 'h3',
  heading3Block: 'h4',
  textBlock: 'p',
} as const;

const PLACEHOLDERS = {
  pageHeadingBlock: 'titlePlaceholder',
  heading1Block: 'heading1Placeholder',
  heading2Block: 'heading2Placeholder',
  heading3Block: 'heading3Placeholder',
  textBlock: 'textPlaceholder',
} as const;

/** One block. Empty blocks show a placeholder: always for the title and headings, on the caret's line for text. */
export function BlockElementView(props: RenderElementProps) {
  const editor = useSlateStatic();
  // Folded away under a closed toggle (src/editor/folding.ts): search, copy, export and history
  // see it in the document as any other.
  if (useFoldedAway(editor, props.element.uid)) return <FoldedAwayBlock {...props} />;
  const View = BLOCK_VIEWS[props.element.type] ?? TextLikeView;
  return <View {...props} />;
}

/**
 * A block folded away: an empty hidden element in its place, without its text or its view (the
 * caret is never in it: plugins/withFolding) — unless an edge of a selection is in it (a closed
 * toggle selected as a block, with what it folds; select-all): then drawn whole and hidden, so the
 * browser's selection has its text to end in.
 */
function FoldedAwayBlock(props: RenderElementProps) {
  const editor = useSlateStatic();
  const edges = useSelectionEdges();
  let holdsEdge = false;
  if (edges !== '') {
    try {
      const index = ReactEditor.findPath(editor as ReactEditor, props.element)[0];
      holdsEdge = edges.split(':').some((edge) => Number(edge) === index);
    } catch {
      // Not in the document any more: drawn empty until it goes.
    }
  }
  if (!holdsEdge) return <div {...props.attributes} {...blockRootProps(props.element)} data-folded-away="" />;
  const View = BLOCK_VIEWS[props.element.type] ?? TextLikeView;
  return <View {...props} attributes={{ ...props.attributes, 'data-folded-away': '' } as RenderElementProps['attributes']} />;
}

/**
 * What a page shows between its title and its blocks (a database row's fields: docs/web-app.md);
 * drawn under the title line as a non-editable part of it.
 */
export const AfterTitleContext = createContext<ReactNode>(null);

function TextLikeView({ element, attributes, children }: RenderElementProps) {
  const afterTitle = useContext(AfterTitleContext);
  if (!(element.type in TAGS)) {
    // A block type without a view of its own: kept, shown as a non-editable void.
    return (
      <div {...attributes} contentEditable={false} {...blockRootProps(element, 'block-void')}>
        {children}
      </div>
    );
  }
  const type = element.type as keyof typeof TAGS;
  const Tag = TAGS[type];
  // The title and headings say what they are while empty; an empty paragraph shows its hint only
  // under the caret (TextPlaceholder), so no block subscribes to the selection or focus.
  const placeholder = type !== 'textBlock' && element.children.length === 1 && Node.string(element) === '' ? editorT(PLACEHOLDERS[type]) : undefined;
  if (type === 'pageHeadingBlock' && afterTitle) {
    return (
      <div {...attributes} className="page-title-group">
        <h1 {...blockRootProps(element)} data-placeholder={placeholder}>
          {children}
        </h1>
        <div contentEditable={false} className="page-after-title">
          {afterTitle}
        </div>
      </div>
    );
  }
  return (
    <Tag {...attributes} {...blockRootProps(element)} data-placeholder={placeholder}>
      {children}
    </Tag>
  );
}

interface EmptyParagraph {
  uid: string;
  /** Its place too: a paragraph moved by a drag has to be measured again. */
  index: number;
}

/**
 * The empty paragraph under a collapsed caret, or null. What TextPlaceholder follows: typing in
 * any other block leaves it null, so the hint neither renders nor measures for a keystroke.
 */
function emptyParagraphAtCaret(editor: Editor): EmptyParagraph | null {
  const { selection } = editor;
  if (!selection || !Range.isCollapsed(selection) || selection.anchor.path.length !== 2) return null;
  const index = selection.anchor.path[0];
  const node = editor.children[index] as BlockElement | undefined;
  if (node?.type !== 'textBlock' || node.children.length !== 1 || Node.string(node) !== '') return null;
  return { uid: node.uid, index };
}

const sameParagraph = (a: EmptyParagraph | null, b: EmptyParagraph | null) => a?.uid === b?.uid && a?.index === b?.index;

/**
 * The hint of the empty paragraph the caret is in ("Напишите что-нибудь…"), drawn over it. One
 * component for the whole editor: it alone follows the selection and the focus.
 */
export function TextPlaceholder({ container }: { container: RefObject<HTMLElement | null> }) {
  const at = useSlateSelector(emptyParagraphAtCaret, sameParagraph);
  const focused = useFocused();
  const [box, setBox] = useState<{ top: number; left: number; uid: string } | null>(null);
  const uid = focused && at ? at.uid : null;
  const index = at?.index;
  useLayoutEffect(() => {
    const frame = container.current;
    const block = uid && frame ? frame.querySelector<HTMLElement>(`[data-block-id="${CSS.escape(uid)}"]`) : null;
    if (!frame || !block || !uid) {
      setBox((was) => (was === null ? was : null));
      return;
    }
    const measure = () => {
      const outer = frame.getBoundingClientRect();
      const inner = block.getBoundingClientRect();
      const style = getComputedStyle(block);
      const top = inner.top - outer.top + parseFloat(style.paddingTop);
      const left = inner.left - outer.left + parseFloat(style.paddingLeft);
      setBox((was) => (was && was.uid === uid && was.top === top && was.left === left ? was : { uid, top, left }));
    };
    measure();
    // Blocks above may change height after this (a database inserted from the slash menu draws its
    // grid a moment later): the hint moves with its paragraph instead of staying behind over them.
    const editable = frame.querySelector('[data-slate-editor]');
    if (!editable || typeof ResizeObserver === 'undefined') return;
    const watch = new ResizeObserver(measure);
    watch.observe(editable);
    return () => watch.disconnect();
    // `index`: measured again when the paragraph moves (a drag, Ctrl+Shift+↑).
  }, [uid, index, container]);
  if (!box || box.uid !== uid) return null;
  return (
    <div className="block-text-placeholder" style={{ top: box.top, left: box.left }} aria-hidden="true">
      {editorT('textPlaceholder')}
    </div>
  );
}

/** A token: its modifiers as inline markup. */
export function TokenLeaf({ leaf, attributes, children }: RenderLeafProps) {
  let content = children;
  if ('code' in leaf && leaf.code) content = <code>{content}</code>;
  if ('bold' in leaf && leaf.bold) content = <strong>{content}</strong>;
  if ('italic' in leaf && leaf.italic) content = <em>{content}</em>;
  if ('underline' in leaf && leaf.underline) content = <u>{content}</u>;
  if ('struckOut' in leaf && leaf.struckOut) content = <s>{content}</s>;
  if ('link' in leaf && isPageLink(leaf.link)) {
    content = <PageLinkView pageId={leaf.link.pageId}>{content}</PageLinkView>;
  } else if ('link' in leaf && leaf.link && isSafeHref(leaf.link.href)) {
    content = (
      <a href={leaf.link.href} target="_blank" rel="noopener noreferrer">
        {content}
      </a>
    );
  }
  if ('date' in leaf && leaf.date) content = <DateMentionView date={leaf.date}>{content}</DateMentionView>;
  // The history view (decorateChanges) marks the words a version removed and added.
  const diff = (leaf as { diff?: 'added' | 'removed' }).diff;
  if (diff === 'added') content = <ins className="diff-added">{content}</ins>;
  else if (diff === 'removed') content = <del className="diff-removed">{content}</del>;
  // Code highlighting (decorateCode) marks runs of code with prism's classes.
  const prism = (leaf as { prism?: string }).prism;
  return (
    <span {...attributes} className={prism}>
      {content}
    </span>
  );
}

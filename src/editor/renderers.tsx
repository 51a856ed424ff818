import { useTranslation } from 'react-i18next';
import { Node } from 'slate';
import { useFocused, useSelected, type RenderElementProps, type RenderLeafProps } from 'slate-react';
import type { CSSProperties } from 'react';
import type { SlateElement } from '../../schema/slate';
import { isSafeHref } from '../../schema/token';
import { BLOCK_VIEWS } from './blocks';

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
  const View = BLOCK_VIEWS[props.element.type];
  if (View) return <View {...props} />;
  return <TextLikeView {...props} />;
}

function TextLikeView({ element, attributes, children }: RenderElementProps) {
  if (!(element.type in TAGS)) {
    // A block type this editor does not edit yet (databases, rows): kept, shown as a non-editable placeholder.
    return (
      <div {...attributes} contentEditable={false} {...blockRootProps(element, 'block-void')}>
        {children}
      </div>
    );
  }
  const type = element.type as keyof typeof TAGS;
  const isEmpty = element.children.length === 1 && Node.string(element) === '';
  // Only empty blocks need the translation and the focus state (for the placeholder): a page of
  // thousands of written blocks subscribes to neither.
  if (isEmpty) return <EmptyTextLikeView element={element} attributes={attributes} type={type}>{children}</EmptyTextLikeView>;
  const Tag = TAGS[type];
  return (
    <Tag {...attributes} {...blockRootProps(element)}>
      {children}
    </Tag>
  );
}

function EmptyTextLikeView({ element, attributes, children, type }: Omit<RenderElementProps, 'element'> & { element: RenderElementProps['element']; type: keyof typeof TAGS }) {
  const { t } = useTranslation('documentEditor');
  const selected = useSelected();
  const focused = useFocused();
  const Tag = TAGS[type];
  const showPlaceholder = type !== 'textBlock' || (selected && focused);
  return (
    <Tag {...attributes} {...blockRootProps(element)} data-placeholder={showPlaceholder ? t(PLACEHOLDERS[type]) : undefined}>
      {children}
    </Tag>
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
  if ('link' in leaf && leaf.link && isSafeHref(leaf.link.href)) {
    content = (
      <a href={leaf.link.href} target="_blank" rel="noopener noreferrer">
        {content}
      </a>
    );
  }
  // Code highlighting (decorateCode) marks runs of code with prism's classes.
  const prism = (leaf as { prism?: string }).prism;
  return (
    <span {...attributes} className={prism}>
      {content}
    </span>
  );
}

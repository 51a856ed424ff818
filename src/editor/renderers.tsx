import { useTranslation } from 'react-i18next';
import { Node } from 'slate';
import { useFocused, useSelected, type RenderElementProps, type RenderLeafProps } from 'slate-react';
import { isSafeHref } from '../../schema/token';

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
export function BlockElementView({ element, attributes, children }: RenderElementProps) {
  const { t } = useTranslation('documentEditor');
  const selected = useSelected();
  const focused = useFocused();
  if (!(element.type in TAGS)) {
    // A block type this editor does not edit yet (databases, rows): kept, shown as a non-editable placeholder.
    return (
      <div {...attributes} contentEditable={false} className={`block block-void block-${element.type}`} data-block-id={element.uid}>
        {children}
      </div>
    );
  }
  const type = element.type as keyof typeof TAGS;
  const Tag = TAGS[type];
  const isEmpty = Node.string(element) === '' && element.children.length === 1;
  const showPlaceholder = isEmpty && (type !== 'textBlock' || (selected && focused));
  return (
    <Tag
      {...attributes}
      className={`block block-${element.type}`}
      data-block-id={element.uid}
      data-placeholder={showPlaceholder ? t(PLACEHOLDERS[type]) : undefined}
    >
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
  return <span {...attributes}>{content}</span>;
}

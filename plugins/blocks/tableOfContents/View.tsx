import { Node, type Editor } from 'slate';
import { useSelected, useFocused, useSlateSelector, useSlateStatic, type RenderElementProps } from 'slate-react';
import type { BlockElement } from '../../../schema/slate';
import { blockRootProps, editorT, Icon, revealBlock, type BlockIcons, type BlockViews } from '../../../src/editor/blockView';
import { headingLevelOf } from '../../../schema/blocks';
import type { TableOfContentsElement } from './block';
import './tableOfContents.css';

interface Entry {
  uid: string;
  level: 1 | 2 | 3;
  text: string;
  index: number;
}

/** A heading's text as listed, kept by node: Slate gives an edited block a new node, so an entry is read again only when its heading changed. */
const headingTexts = new WeakMap<object, string>();

/** The page's headings, in order: one pass over the top-level blocks, reading only the headings' texts that changed. */
function headingsOf(children: readonly unknown[]): Entry[] {
  const out: Entry[] = [];
  for (let index = 0; index < children.length; index++) {
    const block = children[index] as BlockElement;
    const level = headingLevelOf(block.type);
    if (!level) continue;
    let text = headingTexts.get(block);
    if (text === undefined) headingTexts.set(block, (text = Node.string(block).replace(/\s+/g, ' ').trim()));
    out.push({ uid: block.uid, level, text, index });
  }
  return out;
}

/** Whether two lists are the same (slate-react asks with null before the first). */
const sameEntries = (a: Entry[] | null, b: Entry[] | null) =>
  a === b ||
  (!!a &&
    !!b &&
    a.length === b.length &&
    a.every((entry, i) => entry.uid === b[i].uid && entry.level === b[i].level && entry.text === b[i].text && entry.index === b[i].index));

const selectHeadings = (editor: Editor) => headingsOf(editor.children);

/**
 * A table of contents: the page's headings as links, indented by level (relative to the
 * shallowest), following every edit; a click scrolls to the heading (opening the toggles it is
 * folded in) and puts the caret there when the page is editable.
 */
export function TableOfContentsView({ element, attributes, children }: RenderElementProps) {
  // The headings, followed through a selector: typing outside them re-renders nothing here.
  const editor = useSlateStatic();
  const entries = useSlateSelector(selectHeadings, sameEntries);
  const selected = useSelected();
  const focused = useFocused();
  const top = entries.length > 0 ? Math.min(...entries.map((e) => e.level)) : 1;
  // Opens the toggles it is folded in, mounts its chunk if far away (lazyChunks), scrolls to it.
  const go = (entry: Entry) => requestAnimationFrame(() => revealBlock(editor, entry.uid));
  return (
    <div {...attributes} {...blockRootProps(element as TableOfContentsElement, `block-void block-toc${selected && focused ? ' is-selected' : ''}`)}>
      <nav contentEditable={false} className="toc" aria-label={editorT('tableOfContents.label')}>
        {entries.length === 0 ? (
          <p className="toc-empty">{editorT('tableOfContents.empty')}</p>
        ) : (
          <ul>
            {entries.map((entry) => (
              <li key={entry.uid} className={`toc-level-${entry.level - top + 1}`}>
                <a
                  href={`#${entry.uid}`}
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={(event) => {
                    event.preventDefault();
                    go(entry);
                  }}
                >
                  {entry.text || editorT('tableOfContents.untitled')}
                </a>
              </li>
            ))}
          </ul>
        )}
      </nav>
      {children}
    </div>
  );
}

export const blockViews: BlockViews = { tableOfContentsBlock: TableOfContentsView };

export const blockIcons: BlockIcons = {
  tableOfContents: () => (
    <Icon>
      <path d="M4 6h11M7 12h11M7 18h9" />
    </Icon>
  ),
};

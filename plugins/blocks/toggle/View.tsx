import { useCallback, useSyncExternalStore, type MouseEvent } from 'react';
import { ReactEditor, useSlateStatic, type RenderElementProps } from 'slate-react';
import { onFoldedAwayChange } from '../../../plugins/withFolding';
import { depthOf } from '../../../schema/slate';
import { usePageFolds, useFoldOpen } from '../../../src/editor/folding';
import { blockRootProps, editorPageId, editorT, Icon, isEmptyBlock, type BlockIcons, type BlockViews } from '../../../src/editor/blockView';
import type { ToggleElement } from './block';
import './toggle.css';

const LEVEL: Record<ToggleElement['type'], 0 | 1 | 2 | 3> = { toggleBlock: 0, toggleHeading1Block: 1, toggleHeading2Block: 2, toggleHeading3Block: 3 };

const unwatched = () => () => undefined;

/**
 * Whether anything is nested under the block (re-read when the page's shape changes), asked only
 * while `open` (the hint of an empty open toggle): a closed toggle neither reads nor subscribes,
 * which a page of many closed toggles pays for each at its opening.
 */
function useHasChildren(element: ToggleElement, open: boolean): boolean {
  const editor = useSlateStatic();
  const subscribe = useCallback((listener: () => void) => (open ? onFoldedAwayChange(editor, listener) : unwatched()), [editor, open]);
  const read = () => {
    if (!open) return true;
    try {
      const [index] = ReactEditor.findPath(editor, element);
      const next = editor.children[index + 1];
      return next !== undefined && depthOf(next as ToggleElement) > depthOf(element);
    } catch {
      return false;
    }
  };
  return useSyncExternalStore(subscribe, read, () => false);
}

/**
 * A toggle: its triangle (a button: click, or Ctrl+Enter in its text) opens and closes it for this
 * reader; its text, a heading's size for the toggle headings; when open with nothing inside, a hint.
 * A reader who may not edit opens and closes it too.
 */
export function ToggleView({ element, attributes, children }: RenderElementProps) {
  const editor = useSlateStatic();
  const toggle = element as ToggleElement;
  const level = LEVEL[toggle.type];
  const open = useFoldOpen(toggle.uid);
  const hasChildren = useHasChildren(toggle, open);
  usePageFolds(editorPageId(editor));
  const flip = (event: MouseEvent) => {
    event.preventDefault();
    editor.folds.setOpen(toggle.uid, !open);
  };
  const placeholder = isEmptyBlock(toggle) ? editorT('toggle.placeholder') : undefined;
  return (
    <div {...attributes} {...blockRootProps(toggle, `block-toggle toggle-level-${level}${open ? ' is-open' : ''}`)}>
      <div className="toggle-line">
        <button
          type="button"
          contentEditable={false}
          className="toggle-triangle"
          aria-expanded={open}
          aria-label={editorT(open ? 'toggle.close' : 'toggle.open')}
          // The caret stays where it was (a click on the triangle is not a click into the text).
          onMouseDown={(event) => event.preventDefault()}
          onClick={flip}
        />
        <div className="toggle-text" role={level > 0 ? 'heading' : undefined} aria-level={level > 0 ? level : undefined} data-placeholder={placeholder}>
          {children}
        </div>
      </div>
      {open && !hasChildren ? (
        <div className="toggle-empty" contentEditable={false}>
          {editorT('toggle.emptyHint')}
        </div>
      ) : null}
    </div>
  );
}

export const blockViews: BlockViews = {
  toggleBlock: ToggleView,
  toggleHeading1Block: ToggleView,
  toggleHeading2Block: ToggleView,
  toggleHeading3Block: ToggleView,
};

const Triangle = ({ heading }: { heading?: string }) => (
  <Icon>
    <path d="M5 7l4 3-4 3z" fill="currentColor" />
    {heading ? (
      <text x="16" y="15.5" textAnchor="middle" fontSize={9} fontWeight={700} fill="currentColor" stroke="none" fontFamily="inherit">
        {heading}
      </text>
    ) : (
      <path d="M12 10h8M12 16h8" />
    )}
  </Icon>
);

/** The slash menu's pictures: a triangle, with lines or a heading's level. */
export const blockIcons: BlockIcons = {
  toggle: () => <Triangle />,
  toggleHeading1: () => <Triangle heading="H1" />,
  toggleHeading2: () => <Triangle heading="H2" />,
  toggleHeading3: () => <Triangle heading="H3" />,
};

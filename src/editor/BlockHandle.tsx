import { useContext, useEffect, useRef, useState, type MutableRefObject, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { Editor, Element, Transforms } from 'slate';
import { ReactEditor } from 'slate-react';
import {
  canConvertBlock,
  canDropBeside,
  convertBlock,
  deleteBlocks,
  depthOf,
  dropBeside,
  duplicateBlock,
  moveBlock,
  moveBlockRange,
  subtreeEnd,
} from '../../plugins';
import type { BlockElement, BlockElementType } from '../../schema/slate';
import { MENU_DEFINITIONS } from './slashMenu';
import { DragHandleIcon } from '../ui/icons';
import { BLOCK_MENU_ITEMS } from './blocks';
import { HostBlockMenuContext, NestedEditorsContext, type BlockMakerContext } from './nestedEditors';
import './blockHandle.css';

interface Hovered {
  index: number;
  top: number;
  left: number;
}

/** The top-level index of a block element in the DOM (its root carries data-block-id). */
/** How near a block's left or right edge a drop puts the dragged block beside it (columns). */
const SIDE_ZONE_PX = 40;

function indexOfBlockElement(editor: Editor, element: HTMLElement): number {
  const uid = element.getAttribute('data-block-id');
  return editor.children.findIndex((n) => Element.isElement(n) && (n as BlockElement).uid === uid);
}

/** The block root under a point, if any (the title excluded). */
function blockRootAt(container: HTMLElement, target: EventTarget | null): HTMLElement | null {
  if (!(target instanceof HTMLElement)) return null;
  let node: HTMLElement | null = target.closest('[data-block-id]');
  // Nested roots (a table cell's block, if any) resolve to the top-level one.
  while (node && node.parentElement && node.parentElement.closest('[data-block-id]') && container.contains(node.parentElement)) {
    node = node.parentElement.closest('[data-block-id]');
  }
  if (!node || !container.contains(node) || node.classList.contains('block-pageHeadingBlock')) return null;
  return node;
}

/**
 * The handle at the left of the block under the mouse: click opens the block menu (turn into,
 * duplicate, move up/down, delete), drag moves the block with its subtree (a line shows where it
 * goes; the depth follows the block it lands under). One handle for the whole page: it follows
 * the mouse, so a 20,000-block page renders no handles.
 */
export function BlockHandle({
  editor,
  container,
  opener,
}: {
  editor: Editor;
  container: RefObject<HTMLElement | null>;
  /** Filled with a way to open the menu of a block by its index from the keyboard (Ctrl+/, the context-menu key, Shift+F10). */
  opener?: MutableRefObject<((index: number) => boolean) | null>;
}) {
  const { t } = useTranslation('documentEditor');
  const [hovered, setHovered] = useState<Hovered | null>(null);
  const [menu, setMenu] = useState<{ index: number; top: number; left: number } | null>(null);
  if (opener) {
    opener.current = (index: number) => {
      const root = container.current;
      const uid = (editor.children[index] as BlockElement | undefined)?.uid;
      const block = root && uid ? root.querySelector<HTMLElement>(`[data-block-id="${CSS.escape(uid)}"]`) : null;
      if (!root || !block || index < 1) return false;
      const rect = block.getBoundingClientRect();
      const box = root.getBoundingClientRect();
      setHovered(null);
      // At the block's left, under its first line (the text the caret is in stays in sight).
      const firstLine = Math.min(rect.height, 32);
      setMenu({ index, top: rect.top - box.top + root.scrollTop + firstLine + 2, left: Math.max(0, rect.left - box.left) });
      return true;
    };
  }
  const [drop, setDrop] = useState<{ top: number; left: number; width: number; height?: number } | null>(null);
  const drag = useRef<{
    index: number;
    startY: number;
    startX: number;
    active: boolean;
    to: number;
    depth: number;
    beside: { target: number; side: 'left' | 'right' } | null;
  } | null>(null);

  useEffect(() => {
    const root = container.current;
    if (!root) return;
    let last: HTMLElement | null = null;
    const onMove = (event: MouseEvent) => {
      if (drag.current?.active || menu) return;
      // Over the blocks of an editor drawn inside this one (a synced block's): its own handle serves them.
      const frame = (event.target as HTMLElement | null)?.closest?.('.document-editor-frame');
      if (frame && frame !== root) {
        last = null;
        setHovered(null);
        return;
      }
      const block = blockRootAt(root, event.target);
      if (!block || block === last) return;
      last = block;
      const rect = block.getBoundingClientRect();
      const box = root.getBoundingClientRect();
      const index = indexOfBlockElement(editor, block);
      if (index > 0) setHovered({ index, top: rect.top - box.top + root.scrollTop, left: rect.left - box.left - 26 });
    };
    const onLeave = () => {
      last = null;
      if (!drag.current?.active && !menu) setHovered(null);
    };
    root.addEventListener('mousemove', onMove);
    root.addEventListener('mouseleave', onLeave);
    return () => {
      root.removeEventListener('mousemove', onMove);
      root.removeEventListener('mouseleave', onLeave);
    };
  }, [editor, container, menu]);

  /**
   * Where a drop at (clientX, clientY) lands: before block `to` (an index), at `depth`; or, near
   * the left or right edge of a block, beside it (`beside`: the two become columns, or the
   * dropped one a new column of the target's list). The block under the pointer is found with
   * elementFromPoint (no walk over the page's blocks): the one at the pointer when it is in a
   * column, else the one at the column's right edge (every block, nested ones too, reaches there).
   */
  const dropTarget = (clientX: number, clientY: number, dragged: number) => {
    const root = container.current;
    if (!root) return null;
    const box = root.getBoundingClientRect();
    const editable = root.querySelector<HTMLElement>('[data-slate-editor]');
    const under = blockRootAt(root, document.elementFromPoint(clientX, clientY));
    const x = (editable?.getBoundingClientRect().right ?? box.right) - 60;
    const block =
      under && (under.classList.contains('is-in-column') || under.classList.contains('block-columns'))
        ? under
        : blockRootAt(root, document.elementFromPoint(x, clientY));
    if (!block) return null;
    const index = indexOfBlockElement(editor, block);
    if (index < 1) return null;
    const rect = block.getBoundingClientRect();
    const top = rect.top - box.top + root.scrollTop;
    if (under === block || under?.classList.contains('is-in-column')) {
      const side: 'left' | 'right' | null = clientX < rect.left + SIDE_ZONE_PX ? 'left' : clientX > rect.right - SIDE_ZONE_PX ? 'right' : null;
      const target = under ? indexOfBlockElement(editor, under) : -1;
      if (side && target > 0 && canDropBeside(editor, dragged, target)) {
        const edge = side === 'left' ? rect.left - box.left - 6 : rect.right - box.left + 3;
        return { beside: { target, side }, to: target, depth: 0, top, left: edge, width: 3, height: rect.height };
      }
    }
    const depth = depthOf(editor.children[index] as BlockElement);
    const common = { left: rect.left - box.left, width: rect.width, depth, beside: null as { target: number; side: 'left' | 'right' } | null };
    return clientY < rect.top + rect.height / 2
      ? { ...common, to: index, top }
      : { ...common, to: subtreeEnd(editor, index), top: rect.bottom - box.top + root.scrollTop };
  };

  const onPointerDown = (event: React.PointerEvent) => {
    if (!hovered || event.button !== 0) return;
    event.currentTarget.setPointerCapture?.(event.pointerId);
    drag.current = { index: hovered.index, startY: event.clientY, startX: event.clientX, active: false, to: hovered.index, depth: 0, beside: null };
  };
  const onPointerMove = (event: React.PointerEvent) => {
    const state = drag.current;
    if (!state) return;
    if (!state.active && Math.abs(event.clientY - state.startY) < 4 && Math.abs(event.clientX - state.startX) < 4) return;
    state.active = true;
    const target = dropTarget(event.clientX, event.clientY, state.index);
    if (!target) return;
    state.to = target.to;
    state.depth = target.depth;
    state.beside = target.beside;
    setDrop({ top: target.top, left: target.left, width: target.width, height: 'height' in target ? target.height : undefined });
  };
  const onPointerUp = (event: React.PointerEvent) => {
    const state = drag.current;
    drag.current = null;
    setDrop(null);
    if (!state) return;
    if (!state.active) {
      // A click: the block menu.
      if (hovered) setMenu({ index: hovered.index, top: hovered.top, left: hovered.left + 26 });
      return;
    }
    event.preventDefault();
    if (state.beside) {
      const at = dropBeside(editor, state.index, state.beside.target, state.beside.side);
      if (at >= 0) Transforms.select(editor, Editor.end(editor, [at]));
      setHovered(null);
      return;
    }
    const end = subtreeEnd(editor, state.index);
    if (state.to >= state.index && state.to <= end) return;
    const at = moveBlockRange(editor, state.index, end, state.to, state.depth);
    Transforms.select(editor, Editor.end(editor, [at]));
    setHovered(null);
  };

  const act = (action: () => void) => {
    action();
    setMenu(null);
    ReactEditor.focus(editor as ReactEditor);
  };

  const menuBlock = menu ? (editor.children[menu.index] as BlockElement | undefined) : undefined;
  // The items the block types' views add (a synced block's «Копировать и синхронизировать», «Отвязать»).
  const nested = useContext(NestedEditorsContext);
  const host = useContext(HostBlockMenuContext);
  const menuContext: BlockMakerContext | null =
    menu && nested ? { path: [menu.index], pageId: nested.pageId, workspaceId: nested.workspaceId, nested: nested.depth > 0 } : null;
  const addedItems =
    menu && menuBlock && menuContext
      ? [...(BLOCK_MENU_ITEMS[menuBlock.type] ?? []), ...(BLOCK_MENU_ITEMS.any ?? [])].filter((item) => item.shows?.(editor, menu.index, menuContext) ?? true)
      : [];
  const menuElement = useRef<HTMLDivElement>(null);
  const menuOpen = menu !== null;
  const menuIndex = menu?.index;

  // The open menu takes the keyboard: its first item has the focus, ↑/↓ move between items,
  // Escape (or Tab away) closes it and gives the focus back to the editor, on the block.
  useEffect(() => {
    if (!menuOpen) return;
    const items = () => Array.from(menuElement.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);
    items()[0]?.focus();
    const close = () => {
      setMenu(null);
      if (!editor.selection && menuIndex !== undefined && editor.children[menuIndex]) Transforms.select(editor, Editor.start(editor, [menuIndex]));
      ReactEditor.focus(editor as ReactEditor);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        event.stopPropagation();
        close();
        return;
      }
      if (event.key === 'Tab') {
        // Tab leaves the menu as Escape does (a menu is one Tab stop: its items are reached with the arrows).
        event.preventDefault();
        close();
        return;
      }
      if (!['ArrowDown', 'ArrowUp', 'Home', 'End'].includes(event.key)) return;
      const all = items();
      if (all.length === 0) return;
      event.preventDefault();
      const at = all.indexOf(document.activeElement as HTMLElement);
      const next =
        event.key === 'Home' ? 0 : event.key === 'End' ? all.length - 1 : event.key === 'ArrowDown' ? (at + 1) % all.length : (at <= 0 ? all.length : at) - 1;
      all[next].focus();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [menuOpen, menuIndex, editor]);

  return (
    <>
      {hovered && !menu ? (
        <button
          type="button"
          className="block-handle"
          style={{ top: hovered.top, left: Math.max(0, hovered.left) }}
          aria-label={t('blockMenu.handle')}
          title={t('blockMenu.handleHint')}
          contentEditable={false}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
        >
          <DragHandleIcon size={16} />
        </button>
      ) : null}
      {drop ? (
        <div
          className={`block-drop-line${drop.height ? ' is-beside' : ''}`}
          style={drop.height ? { top: drop.top, left: drop.left, height: drop.height } : { top: drop.top - 1, left: drop.left, width: drop.width }}
        />
      ) : null}
      {menu && menuBlock ? (
        <>
          <div className="block-menu-backdrop" onMouseDown={() => setMenu(null)} />
          <div ref={menuElement} className="block-menu editor-panel" role="menu" style={{ top: menu.top, left: menu.left }} aria-label={t('blockMenu.label')}>
            {/* Only a block that holds text turns into another type (a database, an image… would lose their data). */}
            {canConvertBlock(menuBlock) ? (
              <>
                <div className="block-menu-section">{t('blockMenu.turnInto')}</div>
                <div className="block-menu-types">
                  {MENU_DEFINITIONS.filter((d) => d.slateType !== 'documentBlock' && !d.menuVariants && !d.madeInEditor).map((d) => (
                    <button
                      key={d.slateType}
                      type="button"
                      role="menuitem"
                      tabIndex={-1}
                      className={menuBlock.type === d.slateType ? 'is-current' : undefined}
                      onClick={() => act(() => convertBlock(editor, [menu.index], d.slateType as BlockElementType))}
                    >
                      {t(`blockTypes.${d.wireType}`)}
                    </button>
                  ))}
                </div>
                <div className="block-menu-divider" />
              </>
            ) : null}
            {addedItems.map((item) => (
              <button key={item.id} type="button" role="menuitem" tabIndex={-1} onClick={() => act(() => item.run(editor, menu.index, menuContext!))}>
                {t(item.label)}
              </button>
            ))}
            <button
              type="button"
              role="menuitem"
              tabIndex={-1}
              onClick={() => act(() => Transforms.select(editor, Editor.end(editor, [duplicateBlock(editor, menu.index)])))}
            >
              {t('blockMenu.duplicate')} <kbd>Ctrl+D</kbd>
            </button>
            <button type="button" role="menuitem" tabIndex={-1} onClick={() => act(() => void moveBlock(editor, menu.index, -1))}>
              {t('blockMenu.moveUp')} <kbd>Ctrl+Shift+↑</kbd>
            </button>
            <button type="button" role="menuitem" tabIndex={-1} onClick={() => act(() => void moveBlock(editor, menu.index, 1))}>
              {t('blockMenu.moveDown')} <kbd>Ctrl+Shift+↓</kbd>
            </button>
            <button type="button" role="menuitem" tabIndex={-1} className="is-danger" onClick={() => act(() => deleteBlocks(editor, menu.index, menu.index))}>
              {t('blockMenu.delete')} <kbd>Del</kbd>
            </button>
            {host && host.items.length > 0 ? (
              <>
                <div className="block-menu-divider" />
                <div className="block-menu-section">{host.title}</div>
                {host.items.map((item) => (
                  <button
                    key={item.id}
                    type="button"
                    role="menuitem"
                    tabIndex={-1}
                    onClick={() => {
                      setMenu(null);
                      item.run();
                    }}
                  >
                    {item.label}
                  </button>
                ))}
              </>
            ) : null}
          </div>
        </>
      ) : null}
    </>
  );
}

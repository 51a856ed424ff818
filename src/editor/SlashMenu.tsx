import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { Editor, Transforms, type Path } from 'slate';
import { HistoryEditor } from 'slate-history';
import { ReactEditor } from 'slate-react';
import { convertBlock } from '../../plugins';
import type { BlockElement, BlockElementType } from '../../schema/slate';
import { slashAiItems, slashItems, slashQueryAt, type SlashAiAction, type SlashItem, type SlashQuery } from './slashMenu';
import './slashMenu.css';

export interface SlashMenuProps {
  editor: Editor;
  query: SlashQuery;
  items: SlashItem[];
  active: number;
  onHover(index: number): void;
  onChoose(item: SlashItem): void;
}

/**
 * The block-type menu under a block that holds `/query`: the items filtered by the query, the
 * active one highlighted (arrow keys and Enter are handled by the editor's key handler; the
 * mouse works too). Drawn in a portal, placed under the block.
 */
export function SlashMenu({ editor, query, items, active, onHover, onChoose }: SlashMenuProps) {
  const { t } = useTranslation('documentEditor');
  const [position, setPosition] = useState<{ top: number; left: number } | null>(null);
  const list = useRef<HTMLDivElement>(null);

  useLayoutEffect(() => {
    try {
      // Found by its id: the block's node object is new after each keystroke, and Slate maps the
      // new one to its DOM element only after this effect.
      const uid = (editor.children[query.path[0]] as BlockElement).uid;
      const root = ReactEditor.toDOMNode(editor as ReactEditor, editor);
      const element = root.querySelector(`[data-block-id="${CSS.escape(uid)}"]`);
      if (!element) throw new Error('block not in the DOM');
      const rect = element.getBoundingClientRect();
      const below = rect.bottom + 4;
      // Above the block when there is no room below.
      const top = below + 320 > window.innerHeight && rect.top > 330 ? rect.top - 324 : below;
      setPosition({ top, left: rect.left });
    } catch {
      setPosition(null);
    }
  }, [editor, query]);

  useLayoutEffect(() => {
    list.current?.querySelector('[aria-selected="true"]')?.scrollIntoView?.({ block: 'nearest' });
  }, [active]);

  if (!position) return null;
  return createPortal(
    <div className="slash-menu editor-panel" style={{ top: position.top, left: position.left }} role="listbox" aria-label={t('slashMenu.label')} ref={list}>
      {items.length === 0 ? (
        <div className="slash-menu-empty">{t('slashMenu.nothing')}</div>
      ) : (
        items.map((item, index) => [
          item.ai && !items[index - 1]?.ai ? (
            <div key="ai-group" className="slash-menu-group" role="presentation">
              {t('ai.group', { ns: 'common' })}
            </div>
          ) : null,
          <div
            key={item.ai ? `ai-${item.ai}` : item.type}
            role="option"
            aria-selected={index === active}
            className={`slash-menu-item${index === active ? ' is-active' : ''}`}
            onMouseEnter={() => onHover(index)}
            onMouseDown={(event) => {
              // Keep the caret in the editor.
              event.preventDefault();
              onChoose(item);
            }}
          >
            {item.label}
          </div>,
        ])
      )}
    </div>,
    document.body,
  );
}

export interface SlashMenuControl {
  /** Call on every editor change (Slate's onChange): opens, filters or closes the menu. */
  onChange(): void;
  /** Arrow keys, Enter, Tab and Escape while the menu is open; true when handled. */
  handleKey(event: { key: string }): boolean;
  /** The menu (or nothing), to render inside <Slate>. */
  menu: ReactNode;
}

/**
 * The slash menu of an editor: `/` at the start of an empty text block opens it, typing filters
 * it, arrows move, Enter (or a click) turns the block into the chosen type; Escape closes it
 * until the text changes. `insertSpecial` handles types that need more than a conversion (a
 * nested page must first be created on the server); it returns true when it took the choice.
 */
export function useSlashMenu(
  editor: Editor,
  enabled: boolean,
  insertSpecial?: (type: BlockElementType, path: Path) => boolean,
  /** The AI group's choice (src/features/ai): the "/query" text is gone, the assistant opens at `path`. */
  onAi?: (action: SlashAiAction, path: Path) => void,
): SlashMenuControl {
  const { t } = useTranslation('documentEditor');
  const [query, setQuery] = useState<SlashQuery | null>(null);
  const [active, setActive] = useState(0);
  const dismissed = useRef<string | null>(null);
  const labelOf = (wireType: string) => t(`blockTypes.${wireType}`);
  const items = query ? [...slashItems(query.query, labelOf), ...(onAi ? slashAiItems(query.query, (action) => t(`ai.slash.${action}`, { ns: 'common' })) : [])] : [];

  const onChange = () => {
    const next = enabled ? slashQueryAt(editor) : null;
    const key = next ? `${next.path[0]}:${next.query}` : null;
    if (key !== null && key === dismissed.current) return;
    dismissed.current = null;
    setQuery((previous) => {
      if (previous?.query !== next?.query || previous?.path[0] !== next?.path[0]) setActive(0);
      return next;
    });
  };

  const choose = (item: SlashItem) => {
    const current = slashQueryAt(editor);
    setQuery(null);
    if (!current) return;
    if (item.ai && onAi) {
      HistoryEditor.withNewBatch(editor as HistoryEditor, () => Transforms.delete(editor, { at: Editor.range(editor, current.path) }));
      onAi(item.ai, current.path);
      return;
    }
    HistoryEditor.withNewBatch(editor as HistoryEditor, () => {
      Transforms.delete(editor, { at: Editor.range(editor, current.path) });
      if (insertSpecial?.(item.type, current.path)) return;
      convertBlock(editor, current.path, item.type);
    });
    ReactEditor.focus(editor as ReactEditor);
  };

  const handleKey = (event: { key: string }): boolean => {
    if (!query) return false;
    if (event.key === 'Escape') {
      dismissed.current = `${query.path[0]}:${query.query}`;
      setQuery(null);
      return true;
    }
    if (items.length === 0) return false;
    if (event.key === 'ArrowDown') setActive((i) => (i + 1) % items.length);
    else if (event.key === 'ArrowUp') setActive((i) => (i - 1 + items.length) % items.length);
    else if (event.key === 'Enter' || event.key === 'Tab') choose(items[Math.min(active, items.length - 1)]);
    else return false;
    return true;
  };

  const menu = query ? <SlashMenu editor={editor} query={query} items={items} active={Math.min(active, Math.max(0, items.length - 1))} onHover={setActive} onChoose={choose} /> : null;
  return { onChange, handleKey, menu };
}

import { useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { Editor, Transforms, type Path } from 'slate';
import { HistoryEditor } from 'slate-history';
import { ReactEditor } from 'slate-react';
import { convertBlock, convertToVariant } from '../../plugins';
import { useAiInstallation } from '../app/appConfig';
import type { BlockElement, BlockElementType } from '../../schema/slate';
import { descriptionKey, slashAiItems, slashItems, slashQueryAt, type SlashAiAction, type SlashItem, type SlashQuery } from './slashMenu';
import { slashItemIcon } from './blockTypeIcons';
import './slashMenu.css';

/** An item as the menu offers it: disabled ones are shown greyed, with the reason, and cannot be chosen. */
export interface SlashMenuItem extends SlashItem {
  /** «Написать с ИИ» / «Продолжить текст» when the server has no model (GET /api/config `ai.model`). */
  disabled?: boolean;
}

/** The item keyboard and mouse act on: `wanted` when it can be chosen, else the next one that can (-1: none can). */
export function choosableIndex(items: readonly SlashMenuItem[], wanted: number, step: 1 | -1 = 1): number {
  const n = items.length;
  for (let k = 0; k < n; k += 1) {
    const i = (((wanted + k * step) % n) + n) % n;
    if (!items[i].disabled) return i;
  }
  return -1;
}

export interface SlashMenuProps {
  editor: Editor;
  query: SlashQuery;
  items: SlashMenuItem[];
  /** The highlighted item (-1: none, all that match are disabled). */
  active: number;
  onHover(index: number): void;
  onChoose(item: SlashMenuItem): void;
  /** The listbox's id; its options are `${id}-${index}` (the editor names the highlighted one with aria-activedescendant). */
  id: string;
}

/**
 * The block-type menu under a block that holds `/query`: the items filtered by the query, the
 * active one highlighted (arrow keys and Enter are handled by the editor's key handler; the
 * mouse works too). Drawn in a portal, placed under the block.
 */
export function SlashMenu({ editor, query, items, active, onHover, onChoose, id }: SlashMenuProps) {
  const { t } = useTranslation('documentEditor');
  const [position, setPosition] = useState<{ top: number; left: number } | null>(null);
  const list = useRef<HTMLDivElement>(null);
  const hintId = useId();

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
    <div
      className="slash-menu editor-panel"
      style={{ top: position.top, left: position.left }}
      role="listbox"
      id={id}
      aria-label={t('slashMenu.label')}
      ref={list}
      // A scrolling list is in the tab order (axe's scrollable-region-focusable: scrolled with the
      // keys once focused); a press on it keeps the caret in the editor, where ↑/↓ and Enter work.
      tabIndex={0}
      onMouseDown={(event) => event.preventDefault()}
      onFocus={() => ReactEditor.focus(editor as ReactEditor)}
    >
      {items.length === 0 ? (
        <div className="slash-menu-empty">{t('slashMenu.nothing')}</div>
      ) : (
        items.map((item, index) => [
          item.ai && !items[index - 1]?.ai ? (
            <div key="ai-group" className="slash-menu-group" role="presentation">
              {t('ai.group', { ns: 'common' })}
            </div>
          ) : // The groups' names when nothing is typed after the slash (a filtered list is one list).
          !item.ai && query.query === '' && item.group && item.group !== items[index - 1]?.group ? (
            <div key={`group-${item.group}`} className="slash-menu-group" role="presentation">
              {t(`slashMenu.groups.${item.group}`)}
            </div>
          ) : null,
          <div
            key={item.ai ? `ai-${item.ai}` : (item.id ?? item.type)}
            id={`${id}-${index}`}
            role="option"
            aria-selected={index === active}
            aria-disabled={item.disabled || undefined}
            // Named by all it shows (its label and what it does: WCAG 2.5.3); a disabled one says why.
            aria-describedby={item.disabled ? hintId : undefined}
            title={item.disabled ? t('ai.slash.noModelAdmin', { ns: 'common' }) : undefined}
            className={`slash-menu-item${index === active ? ' is-active' : ''}${item.disabled ? ' is-disabled' : ''}`}
            onMouseEnter={() => !item.disabled && onHover(index)}
            onMouseDown={(event) => {
              // Keep the caret in the editor.
              event.preventDefault();
              if (!item.disabled) onChoose(item);
            }}
          >
            <span className="slash-menu-icon" aria-hidden>
              {slashItemIcon(descriptionKey(item))}
            </span>
            <span className="slash-menu-text">
              <span className="slash-menu-label">{item.label}</span>
              <span className="slash-menu-about">{t(`blockDescriptions.${descriptionKey(item)}`)}</span>
            </span>
          </div>,
          // After the AI group, when its items are disabled: why.
          item.ai && item.disabled && !items[index + 1]?.ai ? (
            <div key="ai-hint" id={hintId} className="slash-menu-hint" role="presentation">
              {t('ai.slash.noModel', { ns: 'common' })}
            </div>
          ) : null,
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
  /** While open: the list's id and the highlighted option's (for the editor's aria-controls and aria-activedescendant). */
  popup: { listId: string; activeId: string | undefined } | null;
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
  const listId = useId();
  // Without a model on the server, «Написать с ИИ» and «Продолжить текст» are shown disabled (improve, in the toolbar, works offline).
  const { model } = useAiInstallation();
  const labelOf = (wireType: string) => t(`blockTypes.${wireType}`);
  const aiItems: SlashMenuItem[] =
    query && onAi
      ? slashAiItems(query.query, (action) => t(`ai.slash.${action}`, { ns: 'common' })).map((item) => (model ? item : { ...item, disabled: true }))
      : [];
  const items: SlashMenuItem[] = query ? [...slashItems(query.query, labelOf), ...aiItems] : [];
  // The highlighted item: never a disabled one (the keys skip them).
  const current = items.length > 0 ? choosableIndex(items, Math.min(active, items.length - 1)) : -1;

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

  const choose = (item: SlashMenuItem) => {
    if (item.disabled) return;
    const at = slashQueryAt(editor);
    setQuery(null);
    if (!at) return;
    if (item.ai && onAi) {
      HistoryEditor.withNewBatch(editor as HistoryEditor, () => Transforms.delete(editor, { at: Editor.range(editor, at.path) }));
      onAi(item.ai, at.path);
      return;
    }
    HistoryEditor.withNewBatch(editor as HistoryEditor, () => {
      Transforms.delete(editor, { at: Editor.range(editor, at.path) });
      if (insertSpecial?.(item.type, at.path)) return;
      if (item.id && convertToVariant(editor, at.path, item.type, item.id)) return;
      convertBlock(editor, at.path, item.type);
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
    // Disabled items are skipped; with only disabled ones, the keys do nothing (Enter does not break the line either).
    if (event.key === 'ArrowDown') {
      if (current >= 0) setActive(choosableIndex(items, current + 1, 1));
    } else if (event.key === 'ArrowUp') {
      if (current >= 0) setActive(choosableIndex(items, current - 1, -1));
    } else if (event.key === 'Enter' || event.key === 'Tab') {
      if (current >= 0) choose(items[current]);
    } else return false;
    return true;
  };

  const menu = query ? <SlashMenu editor={editor} query={query} items={items} active={current} onHover={setActive} onChoose={choose} id={listId} /> : null;
  const popup = query ? { listId, activeId: current >= 0 ? `${listId}-${current}` : undefined } : null;
  return { onChange, handleKey, menu, popup };
}

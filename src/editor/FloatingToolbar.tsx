import { useCallback, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { Editor, Range, Transforms, type BaseRange } from 'slate';
import { ReactEditor, useFocused, useSlate, useSlateSelector } from 'slate-react';
import { activeLink, selectionMarks, setLink, toggleMark, type ToggleMark } from '../../plugins';
import { LinkIcon, SparklesIcon } from '../ui/icons';
import { placeNowOrAfterFrame, syncSelectionFromDom } from './domSelection';
import './floatingToolbar.css';

const MARK_BUTTONS: { mark: ToggleMark; label: string; glyph: ReactNode; hotkey: string }[] = [
  { mark: 'bold', label: 'toolbar.bold', glyph: <b>Ж</b>, hotkey: 'B' },
  { mark: 'italic', label: 'toolbar.italic', glyph: <i>К</i>, hotkey: 'I' },
  { mark: 'underline', label: 'toolbar.underline', glyph: <u>Ч</u>, hotkey: 'U' },
  { mark: 'struckOut', label: 'toolbar.struckOut', glyph: <s>З</s>, hotkey: 'Shift+S' },
  { mark: 'code', label: 'toolbar.code', glyph: <code>{'</>'}</code>, hotkey: 'E' },
];

/** The selection is worth a toolbar: expanded, and not inside the title. */
function selectionForToolbar(editor: Editor): BaseRange | null {
  const { selection } = editor;
  if (!selection || Range.isCollapsed(selection)) return null;
  const [start] = Range.edges(selection);
  if (start.path[0] === 0) return null;
  return selection;
}

interface ToolbarState {
  linkOpen: boolean;
  setLinkOpen(open: boolean): void;
  /** «Улучшить с ИИ» for the selection (src/features/ai). */
  onImprove?(selection: BaseRange): void;
}

function Toolbar({ linkOpen, setLinkOpen, onImprove }: ToolbarState) {
  const editor = useSlate();
  const { t } = useTranslation('documentEditor');
  const [position, setPosition] = useState<{ top: number; left: number } | null>(null);
  const [href, setHref] = useState('');
  const [invalid, setInvalid] = useState(false);
  /** The selection the link input works on (focusing the input takes the selection away). */
  const saved = useRef<BaseRange | null>(null);
  // Only while the editor has the focus: Slate keeps its selection after a click elsewhere (the
  // sidebar, a panel), and the toolbar would float there over nothing being edited.
  const focused = useFocused();
  const selection = focused ? selectionForToolbar(editor) : null;
  const visible = selection !== null || linkOpen;

  useLayoutEffect(() => {
    if (!selection) {
      if (!linkOpen) setPosition(null);
      return;
    }
    const place = () => {
      const rect = ReactEditor.toDOMRange(editor as ReactEditor, selection).getBoundingClientRect();
      setPosition({ top: Math.max(8, rect.top - 44), left: Math.max(8, rect.left + rect.width / 2 - 130) });
    };
    // The selection's text nodes may not be known to slate-react yet: a mark just split the text,
    // and the editor registers its new leaves in effects that run after this one (the toolbar
    // went away after its first button). Once more after them.
    return placeNowOrAfterFrame(place, () => setPosition(null));
  }, [editor, selection, linkOpen]);

  useLayoutEffect(() => {
    if (linkOpen) {
      saved.current = editor.selection;
      setHref(activeLink(editor) ?? '');
      setInvalid(false);
    }
  }, [linkOpen, editor]);

  if (!visible || !position) return null;
  // One pass over the selected texts for all the buttons.
  const { marks: active, link: currentLink } = selectionMarks(editor);

  const applyLink = () => {
    if (saved.current) Transforms.select(editor, saved.current);
    if (!setLink(editor, href)) {
      setInvalid(true);
      return;
    }
    setLinkOpen(false);
    ReactEditor.focus(editor as ReactEditor);
  };

  return createPortal(
    <div
      className="floating-toolbar editor-panel"
      style={{ top: position.top, left: position.left }}
      role="toolbar"
      aria-label={t('toolbar.label')}
      onMouseDown={(e) => {
        // Buttons must not take the selection away from the editor, and act on the one the person
        // sees (Slate may not have heard of the last Shift+arrow yet).
        if (!(e.target instanceof HTMLInputElement)) {
          e.preventDefault();
          if (!linkOpen) syncSelectionFromDom(editor);
        }
      }}
    >
      {linkOpen ? (
        <form
          className="floating-toolbar-link"
          onSubmit={(event) => {
            event.preventDefault();
            applyLink();
          }}
        >
          <input
            className="input-compact"
            autoFocus
            type="text"
            inputMode="url"
            value={href}
            placeholder={t('toolbar.linkPlaceholder')}
            aria-label={t('toolbar.link')}
            aria-invalid={invalid}
            onChange={(event) => {
              setHref(event.target.value);
              setInvalid(false);
            }}
            onKeyDown={(event) => {
              if (event.key === 'Escape') {
                event.preventDefault();
                setLinkOpen(false);
                if (saved.current) Transforms.select(editor, saved.current);
                ReactEditor.focus(editor as ReactEditor);
              }
            }}
          />
          <button type="submit">{t('toolbar.apply')}</button>
          {invalid ? <span className="floating-toolbar-error">{t('toolbar.linkInvalid')}</span> : null}
        </form>
      ) : (
        <>
          {MARK_BUTTONS.map(({ mark, label, glyph, hotkey }) => (
            <button
              key={mark}
              type="button"
              className={active.has(mark) ? 'is-active' : undefined}
              aria-pressed={active.has(mark)}
              title={`${t(label)} (Ctrl+${hotkey})`}
              aria-label={t(label)}
              onClick={() => toggleMark(editor, mark)}
            >
              {glyph}
            </button>
          ))}
          <button
            type="button"
            className={currentLink ? 'is-active' : undefined}
            title={`${t('toolbar.link')} (Ctrl+K)`}
            aria-label={t('toolbar.link')}
            onClick={() => setLinkOpen(true)}
          >
            <LinkIcon size={16} />
          </button>
          {onImprove && selection ? (
            <button
              type="button"
              className="floating-toolbar-ai"
              title={t('ai.toolbar.improve', { ns: 'common' })}
              aria-label={t('ai.toolbar.improve', { ns: 'common' })}
              onClick={() => onImprove(selectionForToolbar(editor) ?? selection)}
            >
              <SparklesIcon size={16} />
              <span className="floating-toolbar-ai-label">{t('ai.toolbar.short', { ns: 'common' })}</span>
            </button>
          ) : null}
        </>
      )}
    </div>,
    document.body,
  );
}

/**
 * The toolbar while it is wanted: a selection for it in the focused editor, or its link field open.
 * Typing (a collapsed caret) changes nothing here, so the toolbar neither renders nor measures for
 * a keystroke; once shown, it follows every change (useSlate) for its buttons' states.
 */
function FloatingToolbar(props: ToolbarState) {
  const focused = useFocused();
  const wanted = useSlateSelector((editor) => selectionForToolbar(editor) !== null);
  return props.linkOpen || (focused && wanted) ? <Toolbar {...props} /> : null;
}

/**
 * The floating toolbar over a text selection (marks and a link), and Ctrl/Cmd+K, which opens its
 * link field for the selection. Render `toolbar` inside <Slate>.
 */
export function useFloatingToolbar(editor: Editor, enabled: boolean, onImprove?: (selection: BaseRange) => void) {
  const [linkOpen, setLinkOpen] = useState(false);
  const handleKey = (event: { key: string; ctrlKey?: boolean; metaKey?: boolean; altKey?: boolean; shiftKey?: boolean }): boolean => {
    if (!enabled || !(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return false;
    const key = event.key.toLowerCase();
    if ((key === 'k' || key === 'л') && selectionForToolbar(editor)) {
      setLinkOpen(true);
      return true;
    }
    return false;
  };
  const toolbar = enabled ? <FloatingToolbar linkOpen={linkOpen} setLinkOpen={setLinkOpen} onImprove={onImprove} /> : null;
  /** Opens the link field for the editor's selection (the link card's «Изменить»). */
  const openLink = useCallback(() => setLinkOpen(true), []);
  return { handleKey, toolbar, openLink };
}

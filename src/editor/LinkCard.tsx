import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { createPortal, flushSync } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { Editor, Path, Transforms } from 'slate';
import { ReactEditor } from 'slate-react';
import { linkAtCaret as anyLinkAtCaret, linkRangeAt as anyLinkRangeAt, removeLinkAt } from '../../plugins';
import { isSafeHref } from '../../schema/token';
import { LINK_TOOLTIP_DEBOUNCE_MS } from '../../schema/constants';
import './linkCard.css';

/** How long the card waits once the pointer left the link (time to reach the card itself). */
const HIDE_DELAY_MS = 200;

interface Shown {
  href: string;
  /** The first text of the link (its range is found again from here when a button acts). */
  path: Path;
  top: number;
  left: number;
  /** The pointer rests on the link, or the caret is in it. */
  source: 'hover' | 'caret';
}

/** The card is for web links: a page link (its href is the page's address) has its own view (PageLinkView). */
const webLink = <T extends { href: string }>(link: T | null): T | null => (link && isSafeHref(link.href) ? link : null);
const linkRangeAt = (editor: Editor, path: Path) => webLink(anyLinkRangeAt(editor, path));
const linkAtCaret = (editor: Editor) => webLink(anyLinkAtCaret(editor));

/** Where the card goes for the link around the text at `path`: under the link, kept in the window. */
function place(editor: Editor, path: Path): { href: string; path: Path; top: number; left: number } | null {
  const link = linkRangeAt(editor, path);
  if (!link) return null;
  try {
    const rect = ReactEditor.toDOMRange(editor as ReactEditor, link.range).getClientRects()[0];
    if (!rect) return null;
    return { href: link.href, path: link.range.anchor.path, top: rect.bottom + 6, left: Math.max(8, rect.left) };
  } catch {
    return null;
  }
}

/**
 * The card of a link in the text: its address, «Открыть» (a new tab), «Изменить» (the toolbar's
 * link field, for the whole link) and «Удалить ссылку» (the text stays). It shows once the pointer
 * rests on a link for LINK_TOOLTIP_DEBOUNCE_MS (spec: link tooltip debounce), or the caret does;
 * Ctrl/Cmd+K with the caret in a link takes the focus into it (←/→ between the buttons, Escape
 * back to the text). Readers get the address and «Открыть». `onEdit` opens the link field for
 * the editor's selection.
 */
export function useLinkCard(editor: Editor, canEdit: boolean, frame: RefObject<HTMLElement | null>, onEdit: () => void) {
  const { t } = useTranslation('documentEditor');
  const [shown, setShown] = useState<Shown | null>(null);
  const showTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  /** The caret's own timer: an edit elsewhere (a save bumping a version) must not stop a hover's. */
  const caretTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const hideTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const card = useRef<HTMLDivElement>(null);
  const shownRef = useRef(shown);
  shownRef.current = shown;

  const hide = useCallback(() => {
    clearTimeout(showTimer.current);
    clearTimeout(caretTimer.current);
    clearTimeout(hideTimer.current);
    setShown(null);
  }, []);
  const hideSoon = useCallback(() => {
    clearTimeout(hideTimer.current);
    hideTimer.current = setTimeout(() => setShown(null), HIDE_DELAY_MS);
  }, []);
  useEffect(
    () => () => {
      clearTimeout(showTimer.current);
      clearTimeout(caretTimer.current);
      clearTimeout(hideTimer.current);
    },
    [],
  );

  // The pointer on a link in the text.
  useEffect(() => {
    const root = frame.current;
    if (!root) return;
    // A link in an editor drawn inside this one (a synced block's) is that editor's own card's.
    const linkOf = (target: EventTarget | null) =>
      target instanceof Element && target.closest('.document-editor-frame') === root
        ? target.closest<HTMLAnchorElement>('[data-slate-editor] a[href]:not(.page-link)')
        : null;
    const onOver = (event: MouseEvent) => {
      const anchor = linkOf(event.target);
      if (!anchor) return;
      clearTimeout(hideTimer.current);
      clearTimeout(showTimer.current);
      showTimer.current = setTimeout(() => {
        let path: Path;
        try {
          path = ReactEditor.findPath(editor as ReactEditor, ReactEditor.toSlateNode(editor as ReactEditor, anchor));
        } catch {
          return;
        }
        const at = place(editor, path);
        if (at) setShown({ ...at, source: 'hover' });
      }, LINK_TOOLTIP_DEBOUNCE_MS);
    };
    const onOut = (event: MouseEvent) => {
      const anchor = linkOf(event.target);
      if (!anchor || (event.relatedTarget instanceof Node && anchor.contains(event.relatedTarget))) return;
      clearTimeout(showTimer.current);
      if (shownRef.current?.source === 'hover') hideSoon();
    };
    // The page (or a panel) scrolled: the card follows its link, or goes when the link is gone.
    const onScroll = () => {
      const current = shownRef.current;
      if (!current) return;
      const at = place(editor, current.path);
      if (!at) hide();
      else if (at.top !== current.top || at.left !== current.left) setShown({ ...current, top: at.top, left: at.left });
    };
    root.addEventListener('mouseover', onOver);
    root.addEventListener('mouseout', onOut);
    window.addEventListener('scroll', onScroll, true);
    return () => {
      root.removeEventListener('mouseover', onOver);
      root.removeEventListener('mouseout', onOut);
      window.removeEventListener('scroll', onScroll, true);
    };
  }, [editor, frame, hide, hideSoon]);

  /** Call on every editor change: the caret resting in a link shows its card; leaving it hides it. */
  const onChange = useCallback(() => {
    const link = ReactEditor.isFocused(editor as ReactEditor) ? linkAtCaret(editor) : null;
    const current = shownRef.current;
    if (!link) {
      clearTimeout(caretTimer.current);
      if (current?.source === 'caret' && !card.current?.contains(document.activeElement)) setShown(null);
      return;
    }
    if (current && current.href === link.href && Path.equals(current.path, link.range.anchor.path)) {
      // The card the pointer opened is the caret's now: the pointer leaving must not take it away.
      if (current.source === 'hover') {
        clearTimeout(hideTimer.current);
        setShown({ ...current, source: 'caret' });
      }
      return;
    }
    clearTimeout(caretTimer.current);
    caretTimer.current = setTimeout(() => {
      const at = place(editor, link.range.anchor.path);
      if (at) setShown({ ...at, source: 'caret' });
    }, LINK_TOOLTIP_DEBOUNCE_MS);
  }, [editor]);

  /** Ctrl/Cmd+K with the caret in a link: into the card. True when handled. */
  const handleKey = (event: { key: string; ctrlKey?: boolean; metaKey?: boolean; altKey?: boolean; shiftKey?: boolean }): boolean => {
    if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return false;
    const key = event.key.toLowerCase();
    if (key !== 'k' && key !== 'л') return false;
    const link = linkAtCaret(editor);
    if (!link) return false;
    clearTimeout(caretTimer.current);
    const at = place(editor, link.range.anchor.path);
    if (!at) return false;
    // Drawn and focused at once, not in the next frame: the keys typed before it (late on a loaded
    // machine) went to the text, an arrow moving the caret instead of between the buttons.
    flushSync(() => setShown({ ...at, source: 'caret' }));
    card.current?.querySelector<HTMLElement>('button')?.focus();
    return true;
  };

  const backToText = () => {
    hide();
    ReactEditor.focus(editor as ReactEditor);
  };

  /** The link's range now, if the text there still carries the same address. */
  const currentLink = () => {
    if (!shown) return null;
    const link = linkRangeAt(editor, shown.path);
    return link && link.href === shown.href ? link : null;
  };

  const view = shown
    ? createPortal(
        <div
          ref={card}
          className="link-card editor-panel"
          role="dialog"
          aria-label={t('linkCard.label')}
          style={{ top: shown.top, left: Math.min(shown.left, Math.max(8, window.innerWidth - 368)) }}
          onMouseEnter={() => clearTimeout(hideTimer.current)}
          onMouseLeave={() => {
            if (shown.source === 'hover' && !card.current?.contains(document.activeElement)) hideSoon();
          }}
          // The buttons act on the link without taking the caret from the text.
          onMouseDown={(event) => event.preventDefault()}
          onBlur={(event) => {
            if (!(event.relatedTarget instanceof Node && card.current?.contains(event.relatedTarget))) hideSoon();
          }}
          onKeyDown={(event) => {
            if (event.key === 'Escape') {
              event.preventDefault();
              backToText();
              return;
            }
            if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
            const buttons = Array.from(card.current?.querySelectorAll<HTMLElement>('button') ?? []);
            const at = buttons.indexOf(document.activeElement as HTMLElement);
            if (at < 0) return;
            event.preventDefault();
            buttons[(at + (event.key === 'ArrowRight' ? 1 : buttons.length - 1)) % buttons.length].focus();
          }}
        >
          <span className="link-card-address" title={shown.href}>
            {shown.href}
          </span>
          <span className="link-card-actions">
            <button
              type="button"
              onClick={() => {
                window.open(shown.href, '_blank', 'noopener,noreferrer');
                hide();
              }}
            >
              {t('linkCard.open')}
            </button>
            {canEdit ? (
              <>
                <button
                  type="button"
                  onClick={() => {
                    const link = currentLink();
                    hide();
                    if (!link) return;
                    Transforms.select(editor, link.range);
                    ReactEditor.focus(editor as ReactEditor);
                    onEdit();
                  }}
                >
                  {t('linkCard.edit')}
                </button>
                <button
                  type="button"
                  className="is-danger"
                  onClick={() => {
                    if (currentLink()) removeLinkAt(editor, shown.path);
                    backToText();
                  }}
                >
                  {t('linkCard.remove')}
                </button>
              </>
            ) : null}
          </span>
        </div>,
        document.body,
      )
    : null;

  return { card: view, onChange, handleKey };
}

import { useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { Range, type Editor } from 'slate';
import { HistoryEditor } from 'slate-history';
import { ReactEditor } from 'slate-react';
import { linkBlockChoices, pastedLinkRange, turnPastedLink } from '../../plugins';
import type { RegisteredBlock } from '../../schema/blocks';
import type { BlockElement } from '../../schema/slate';
import { LinkIcon } from '../ui/icons';
import { slashItemIcon } from './blockTypeIcons';
import { placeNowOrAfterFrame } from './domSelection';
import './slashMenu.css';

interface Offer {
  url: string;
  /** The block the link was pasted into. */
  uid: string;
  choices: { definition: RegisteredBlock; data: unknown }[];
}

export interface PasteLinkMenuControl {
  /** After a paste: the clipboard held `url` alone, and it went into the text as a link. */
  offer(url: string): void;
  /** On every editor change: the menu goes when the caret leaves the line or the link is gone. */
  onChange(): void;
  /** ↑/↓ move, Enter takes the highlighted choice (on «Оставить ссылкой» it only closes, and the line breaks), Escape closes; any other key closes it and goes on. */
  handleKey(event: { key: string }): boolean;
  menu: ReactNode;
  popup: { listId: string; activeId: string | undefined } | null;
}

/**
 * The menu after a bare link is pasted (issue 39 §2): «Оставить ссылкой» (highlighted: what
 * was pasted stays), then every block type that takes a link — «Закладка», and «Встроить» for
 * an allowed host (plugins/withClipboard/pastedLink.ts). Shown under the caret; the mouse works too.
 */
export function usePasteLinkMenu(editor: Editor, enabled: boolean): PasteLinkMenuControl {
  const { t } = useTranslation('documentEditor');
  const [offer, setOffer] = useState<Offer | null>(null);
  const [active, setActive] = useState(0);
  const listId = useId();
  const count = offer ? offer.choices.length + 1 : 0;

  const close = () => setOffer(null);
  const choose = (index: number) => {
    if (!offer) return;
    setOffer(null);
    const choice = offer.choices[index - 1];
    if (!choice) return;
    HistoryEditor.withNewBatch(editor as HistoryEditor, () => turnPastedLink(editor, offer.uid, offer.url, choice.definition, choice.data));
    ReactEditor.focus(editor as ReactEditor);
  };

  const control: PasteLinkMenuControl = {
    offer(url) {
      if (!enabled || !editor.selection) return;
      const uid = (editor.children[Range.end(editor.selection).path[0]] as BlockElement | undefined)?.uid;
      const choices = linkBlockChoices(url);
      if (!uid || choices.length === 0 || !pastedLinkRange(editor, uid, url)) return;
      setActive(0);
      setOffer({ url, uid, choices });
    },
    onChange() {
      if (!offer) return;
      const at = pastedLinkRange(editor, offer.uid, offer.url);
      if (!at || !editor.selection || Range.end(editor.selection).path[0] !== at.path[0]) close();
    },
    handleKey(event) {
      if (!offer) return false;
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        setActive((active + (event.key === 'ArrowDown' ? 1 : count - 1)) % count);
        return true;
      }
      if (event.key === 'Escape') {
        close();
        return true;
      }
      if (event.key === 'Enter' && active > 0) {
        choose(active);
        return true;
      }
      close();
      return false;
    },
    menu: offer ? (
      <PasteLinkList
        editor={editor}
        id={listId}
        active={active}
        onHover={setActive}
        onChoose={choose}
        items={[
          { key: 'link', label: t('pasteLink.keep'), about: t('pasteLink.keepAbout'), icon: <LinkIcon size={20} /> },
          ...offer.choices.map(({ definition }) => ({
            key: definition.wireType,
            label: t(`pasteLink.as.${definition.wireType}`, { defaultValue: t(`blockTypes.${definition.wireType}`) }),
            about: t(`blockDescriptions.${definition.wireType}`),
            icon: slashItemIcon(definition.wireType),
          })),
        ]}
      />
    ) : null,
    popup: offer ? { listId, activeId: `${listId}-${active}` } : null,
  };
  return control;
}

interface Item {
  key: string;
  label: string;
  about: string;
  icon: ReactNode;
}

function PasteLinkList({
  editor,
  id,
  items,
  active,
  onHover,
  onChoose,
}: {
  editor: Editor;
  id: string;
  items: Item[];
  active: number;
  onHover(index: number): void;
  onChoose(index: number): void;
}) {
  const { t } = useTranslation('documentEditor');
  const [position, setPosition] = useState<{ top: number; left: number } | null>(null);
  const list = useRef<HTMLDivElement>(null);
  // Placed under the caret once the pasted text is drawn (the offer is made before Slate draws it).
  useLayoutEffect(() => {
    const place = () => {
      const selection = editor.selection;
      if (!selection) throw new Error('no caret');
      const caret = ReactEditor.toDOMRange(editor as ReactEditor, { anchor: selection.focus, focus: selection.focus });
      // A collapsed range at the end of a link may have no rectangle of its own: its line's then.
      const rect = caret.getClientRects()[0] ?? (caret.startContainer.parentElement ?? (caret.startContainer as Element)).getBoundingClientRect();
      const below = rect.bottom + 6;
      const height = list.current?.offsetHeight ?? 160;
      const top = below + height > window.innerHeight && rect.top > height + 12 ? rect.top - height - 6 : below;
      setPosition({ top, left: Math.max(8, Math.min(rect.left, window.innerWidth - 288)) });
    };
    return placeNowOrAfterFrame(place, () => setPosition(null));
  }, [editor]);
  return createPortal(
    <div
      className="slash-menu editor-panel paste-link-menu"
      style={position ? { top: position.top, left: position.left } : { visibility: 'hidden' }}
      role="listbox"
      id={id}
      aria-label={t('pasteLink.label')}
      ref={list}
      onMouseDown={(event) => event.preventDefault()}
    >
      {items.map((item, index) => (
        <div
          key={item.key}
          id={`${id}-${index}`}
          role="option"
          aria-selected={index === active}
          className={`slash-menu-item${index === active ? ' is-active' : ''}`}
          onMouseEnter={() => onHover(index)}
          onMouseDown={(event) => {
            event.preventDefault();
            onChoose(index);
          }}
        >
          <span className="slash-menu-icon" aria-hidden>
            {item.icon}
          </span>
          <span className="slash-menu-text">
            <span className="slash-menu-label">{item.label}</span>
            <span className="slash-menu-about">{item.about}</span>
          </span>
        </div>
      ))}
    </div>,
    document.body,
  );
}

import { useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { Editor, type BaseRange } from 'slate';
import { ReactEditor } from 'slate-react';
import { placeNowOrAfterFrame } from './domSelection';
import { insertDateMention, insertPageLink, pageLinkQuery, type PageLinkQuery } from '../../plugins';
import { dateParser, dateSuggestions, loadDateParser, type DateSuggestion } from './dateMentions';
import { wireElementSchema, type WireElement } from '../../schema/element';
import { api } from '../app/api';
import { BellIcon, CalendarIcon, PageIcon, PlusIcon } from '../ui/icons';
import './pageLink.css';
import './slashMenu.css';

/** How long typing must pause before the search is asked (issue 15: search as you type). */
export const PAGE_SEARCH_DEBOUNCE_MS = 150;
const RESULTS = 8;

/** Pages whose title holds `query` (GET search), or the recent pages for an empty query. */
async function findPages(query: string): Promise<WireElement[]> {
  const path =
    query.trim() === ''
      ? `/api/v3/spaces/recents?limit=${RESULTS}`
      : `/api/v3/spaces/search?q=${encodeURIComponent(JSON.stringify(query.trim()))}&limit=${RESULTS}`;
  const { data } = await api<unknown[]>(path);
  return data.flatMap((item) => {
    const parsed = wireElementSchema.safeParse(item);
    return parsed.success && !parsed.data.inTrash ? [parsed.data] : [];
  });
}

export interface PagePickerControl {
  onChange(): void;
  handleKey(event: { key: string }): boolean;
  picker: ReactNode;
  /** While open: the list's id and the highlighted option's (for the editor's aria-controls and aria-activedescendant). */
  popup: { listId: string; activeId: string | undefined } | null;
}

/**
 * The page picker (docs/plugins.md, «Page links»): `[[` or `@` in a text block opens it at the
 * caret; what is typed after it searches page titles the reader may read (debounced); ↑/↓ and
 * Enter or a click insert a link to the page in place of the typed text (one undo step); Escape
 * closes it and leaves the text as typed (until another trigger is typed).
 */
export function usePagePicker(
  editor: Editor,
  enabled: boolean,
  /** «Создать страницу «…»», the last option: makes the page (a child of this one) and answers it. */
  createPage?: (title: string) => Promise<WireElement>,
): PagePickerControl {
  const { t } = useTranslation('documentEditor');
  const [query, setQuery] = useState<PageLinkQuery | null>(null);
  const [results, setResults] = useState<{ for: string; pages: WireElement[] } | { for: string; failed: true } | null>(null);
  const [active, setActive] = useState(0);
  const dismissed = useRef<string | null>(null);
  const listId = useId();
  const text = query?.query ?? null;

  const onChange = () => {
    const next = enabled ? pageLinkQuery(editor) : null;
    const key = next ? `${next.range.anchor.path.join('.')}:${next.range.anchor.offset}` : null;
    if (key !== null && key === dismissed.current) return;
    dismissed.current = null;
    setQuery((previous) => {
      if (previous?.query !== next?.query) setActive(0);
      return next;
    });
  };

  useEffect(() => {
    if (text === null) return;
    let live = true;
    const timer = setTimeout(() => {
      findPages(text).then(
        (pages) => live && setResults({ for: text, pages }),
        () => live && setResults({ for: text, failed: true }),
      );
    }, PAGE_SEARCH_DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [text]);

  // After `@`, a date or a reminder when what is typed reads as one (the parser is loaded on the first `@`).
  const [, setParserReady] = useState(dateParser() !== null);
  const wantsDates = query?.trigger === '@' && text !== null && text.trim() !== '';
  useEffect(() => {
    if (wantsDates && !dateParser()) void loadDateParser().then(() => setParserReady(true));
  }, [wantsDates]);
  const dates = wantsDates ? dateSuggestions(text, new Date()) : [];

  const pages = results && 'pages' in results ? results.pages : [];
  const newTitle = text?.trim() ?? '';
  const options: PickerOption[] = [
    ...dates.map((suggestion) => ({ kind: 'date' as const, suggestion })),
    ...pages.map((page) => ({ kind: 'page' as const, page })),
    ...(createPage && newTitle !== '' && results?.for === text ? [{ kind: 'create' as const, title: newTitle }] : []),
  ];
  const current = Math.min(active, options.length - 1);

  const choose = (option: PickerOption) => {
    const at = pageLinkQuery(editor);
    setQuery(null);
    if (!at) return;
    if (option.kind === 'date') {
      insertDateMention(editor, at.range, option.suggestion.label, option.suggestion.date);
      ReactEditor.focus(editor as ReactEditor);
      return;
    }
    if (option.kind === 'page') {
      insertPageLink(editor, at.range, option.page.id);
      ReactEditor.focus(editor as ReactEditor);
      return;
    }
    // The typed text stays until the page exists; then it becomes the link, if it is still there.
    const typed = Editor.string(editor, at.range);
    dismissed.current = `${at.range.anchor.path.join('.')}:${at.range.anchor.offset}`;
    void createPage?.(option.title).then(
      (page) => {
        const range: BaseRange = at.range;
        try {
          if (Editor.string(editor, range) === typed) insertPageLink(editor, range, page.id);
        } catch {
          // The block went away meanwhile: the page is made, nothing is linked.
        }
      },
      () => undefined,
    );
    ReactEditor.focus(editor as ReactEditor);
  };

  const handleKey = (event: { key: string }): boolean => {
    if (!query) return false;
    if (event.key === 'Escape') {
      dismissed.current = `${query.range.anchor.path.join('.')}:${query.range.anchor.offset}`;
      setQuery(null);
      return true;
    }
    if (options.length === 0) return false;
    if (event.key === 'ArrowDown') setActive((current + 1) % options.length);
    else if (event.key === 'ArrowUp') setActive((current - 1 + options.length) % options.length);
    else if (event.key === 'Enter' || event.key === 'Tab') choose(options[current]);
    else return false;
    return true;
  };

  const picker = query ? (
    <PagePickerList
      editor={editor}
      query={query}
      options={options}
      active={current}
      state={results === null || results.for !== text ? 'searching' : 'failed' in results ? 'failed' : 'ready'}
      onHover={setActive}
      onChoose={choose}
      id={listId}
      label={t('pagePicker.label')}
      texts={{
        nothing: t('pagePicker.nothing'),
        searching: t('pagePicker.searching'),
        failed: t('pagePicker.failed'),
        untitled: t('document.untitled'),
        recent: query.query.trim() === '' ? t('pagePicker.recent') : null,
        create: (title) => t('pagePicker.create', { title }),
        dates: t('pagePicker.dates'),
        date: (label) => t('pagePicker.date', { label }),
        reminder: (label) => t('pagePicker.reminder', { label }),
      }}
    />
  ) : null;
  const popup = query ? { listId, activeId: current >= 0 ? `${listId}-${current}` : undefined } : null;
  return { onChange, handleKey, picker, popup };
}

/** A choice of the picker: a date or a reminder (after `@`), a page found, or a new page of the typed title. */
type PickerOption = { kind: 'date'; suggestion: DateSuggestion } | { kind: 'page'; page: WireElement } | { kind: 'create'; title: string };

interface ListProps {
  editor: Editor;
  query: PageLinkQuery;
  options: PickerOption[];
  active: number;
  state: 'searching' | 'ready' | 'failed';
  label: string;
  id: string;
  texts: {
    nothing: string;
    searching: string;
    failed: string;
    untitled: string;
    recent: string | null;
    create(title: string): string;
    dates: string;
    date(label: string): string;
    reminder(label: string): string;
  };
  onHover(index: number): void;
  onChoose(option: PickerOption): void;
}

function PagePickerList({ editor, query, options, active, state, label, id, texts, onHover, onChoose }: ListProps) {
  const [position, setPosition] = useState<{ top: number; left: number } | null>(null);
  const list = useRef<HTMLDivElement>(null);

  useLayoutEffect(() => {
    const place = () => {
      const rect = ReactEditor.toDOMRange(editor as ReactEditor, query.range).getBoundingClientRect();
      const below = rect.bottom + 4;
      const top = below + 320 > window.innerHeight && rect.top > 330 ? rect.top - 324 : below;
      setPosition({ top, left: Math.max(8, Math.min(rect.left, window.innerWidth - 268)) });
    };
    // The texts just changed: Slate maps the new nodes to the DOM only after this effect.
    return placeNowOrAfterFrame(place, () => setPosition(null));
  }, [editor, query]);

  useLayoutEffect(() => {
    list.current?.querySelector('[aria-selected="true"]')?.scrollIntoView?.({ block: 'nearest' });
  }, [active]);

  if (!position) return null;
  const found = options.filter((option) => option.kind === 'page').length;
  const dated = options.some((option) => option.kind === 'date');
  const empty =
    state === 'searching' && options.length === 0 ? texts.searching : state === 'failed' ? texts.failed : found === 0 && !dated ? texts.nothing : null;
  return createPortal(
    <div
      className="slash-menu page-picker editor-panel"
      style={{ top: position.top, left: position.left }}
      role="listbox"
      id={id}
      aria-label={label}
      ref={list}
      // As the slash menu: a scrolling list in the tab order, worked from the editor (the focus goes back there).
      tabIndex={0}
      onMouseDown={(event) => event.preventDefault()}
      onFocus={() => ReactEditor.focus(editor as ReactEditor)}
    >
      {empty !== null ? <div className="slash-menu-empty">{empty}</div> : null}
      {dated ? (
        <div className="slash-menu-group" role="presentation">
          {texts.dates}
        </div>
      ) : null}
      {found > 0 && texts.recent ? (
        <div className="slash-menu-group" role="presentation">
          {texts.recent}
        </div>
      ) : null}
      {options.map((option, index) => (
        <div
          key={option.kind === 'page' ? option.page.id : option.kind === 'date' ? `date-${option.suggestion.kind}` : 'create'}
          id={`${id}-${index}`}
          role="option"
          aria-selected={index === active}
          className={`slash-menu-item${index === active ? ' is-active' : ''}${option.kind === 'create' ? ' page-picker-create' : ''}`}
          onMouseEnter={() => onHover(index)}
          onMouseDown={(event) => {
            // Keep the caret in the editor.
            event.preventDefault();
            onChoose(option);
          }}
        >
          {option.kind === 'date' ? (
            <>
              <span className="page-picker-icon" aria-hidden="true">
                {option.suggestion.kind === 'reminder' ? <BellIcon size={16} /> : <CalendarIcon size={16} />}
              </span>{' '}
              {option.suggestion.kind === 'reminder' ? texts.reminder(option.suggestion.label) : texts.date(option.suggestion.label)}
            </>
          ) : option.kind === 'page' ? (
            <>
              <span className="page-picker-icon" aria-hidden="true">
                {option.page.icon ?? <PageIcon size={16} />}
              </span>{' '}
              {option.page.title.trim() || texts.untitled}
            </>
          ) : (
            <>
              <span className="page-picker-icon" aria-hidden="true">
                <PlusIcon size={16} />
              </span>{' '}
              {texts.create(option.title)}
            </>
          )}
        </div>
      ))}
    </div>,
    document.body,
  );
}

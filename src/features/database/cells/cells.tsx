import {
  memo,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent as ReactKeyboardEvent,
  type ReactNode,
  type RefObject,
} from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import {
  COMPUTED_FIELD_TYPES,
  MAIN_FIELD_ID,
  hasOptions,
  type DatabaseField,
  type DateRange,
  type FileRef,
  type OptionField,
  type RowValue,
  type SelectOption,
} from '../../../../schema/blocks/database';
import { dateStartMs, parseNumber } from '../../../../schema/database';
import { LIMITS } from '../../../../schema/constants';
import { foldText } from '../../../../schema/database';
import type { WireUser } from '../../../../schema/user';
import { displayName, useUsers } from '../../comments/userLookup';
import { uploadFile } from '../../../editor/upload';
import { PaperclipIcon } from '../../../ui/icons';
import { databaseApi, type RowTitle } from '../api';
import { rememberTitles, useRowTitles } from '../rows/relationTitles';
import { displayText, linkOf } from '../fields/format';
import { DateCalendar, DateInput, dateProblemText, pickedText, typedDate } from './DateInput';
import { dateText, localToday, readDateText, storedDate } from './dateText';
import { FilePicker } from '../../../ui/FilePicker';
import { showToast } from '../../../ui/Toast';

/** A file's bytes (docs/api/files.md): its link, and a picture's source. */
export const fileHref = (id: string): string => `/api/file/${encodeURIComponent(id)}`;

/** The chip of a select, multi-select or status option. */
export function OptionChip({ option }: { option: Pick<SelectOption, 'name' | 'color'> }) {
  return (
    <span className="db-chip" data-color={option.color ?? 'default'}>
      {option.name}
    </span>
  );
}

/** A relation's rows by their titles (rows no longer there left out). */
function RelatedRows({ databaseId, ids }: { databaseId?: string; ids: string[] }) {
  const { t } = useTranslation('automation');
  const titleOf = useRowTitles(databaseId, ids);
  return (
    <span className="db-chips">
      {ids.map((id) => {
        const row = titleOf(id);
        if (row === null) return null;
        return (
          <span key={id} className="db-relation">
            {row?.icon && <span aria-hidden>{row.icon} </span>}
            {row === undefined ? '…' : row.title || t('database.untitledRow')}
          </span>
        );
      })}
    </span>
  );
}

/** People by name (e-mail, «Кто-то»), joined by commas; looked up when not known yet. */
export function PeopleNames({ ids }: { ids: string[] }) {
  const { t } = useTranslation('automation');
  const users = useUsers(ids);
  return <>{users.map((user) => displayName(user, t('database.someone'))).join(', ') || (ids.length ? '…' : '')}</>;
}

/** A cell's content as shown (not edited). */
export const CellContent = memo(function CellContent({
  field,
  fieldId,
  value,
  databaseId,
}: {
  field: DatabaseField;
  fieldId: string;
  value: RowValue | undefined;
  databaseId?: string;
}) {
  if (value === undefined || value === null || value === '') return null;
  switch (field.type) {
    case 'checkbox':
      return null;
    case 'select':
    case 'status': {
      const option = field.options.find((o) => o.id === value);
      return option ? <OptionChip option={option} /> : null;
    }
    case 'multiSelect':
      return (
        <span className="db-chips">
          {(Array.isArray(value) ? (value as string[]) : []).map((id) => {
            const option = field.options.find((o) => o.id === id);
            return option ? <OptionChip key={id} option={option} /> : null;
          })}
        </span>
      );
    case 'person':
    case 'createdBy':
    case 'editedBy':
      return <PeopleNames ids={Array.isArray(value) ? (value as string[]) : []} />;
    case 'relation':
      return <RelatedRows databaseId={field.databaseId ?? databaseId} ids={Array.isArray(value) ? (value as string[]) : []} />;
    case 'url':
    case 'email':
    case 'phone': {
      const text = typeof value === 'string' ? value : '';
      const href = linkOf(field.type, text);
      return href ? (
        <a
          className="db-link"
          href={href}
          target={field.type === 'url' ? '_blank' : undefined}
          rel="noreferrer noopener"
          onMouseDown={(e) => e.stopPropagation()}
        >
          {text}
        </a>
      ) : (
        <>{text}</>
      );
    }
    case 'files':
      return (
        <span className="db-files">
          {(Array.isArray(value) ? (value as FileRef[]) : []).map((file) => (
            <span key={file.id} className="db-file">
              <PaperclipIcon size={12} aria-hidden />
              {file.name}
            </span>
          ))}
        </span>
      );
    case 'number':
      return <span className="db-number">{displayText(field, value)}</span>;
    case 'formula':
    case 'rollup':
      // A row where the formula (or rollup) fails says so (its message on hover and to screen readers).
      if (typeof value === 'object' && !Array.isArray(value) && 'error' in value)
        return (
          <span className="db-formula-error" title={displayText(field, value)}>
            ⚠ {displayText(field, value)}
          </span>
        );
      return <span className={typeof value === 'number' ? 'db-number' : undefined}>{displayText(field, value)}</span>;
    default:
      return <>{fieldId === MAIN_FIELD_ID ? String(value) : displayText(field, value)}</>;
  }
});

/** An editor's answer: a value to write, or undefined (nothing changes), and where the active cell goes next. */
export type EditorMove = 'down' | 'right' | 'left' | 'stay';
export interface CellEditorProps {
  field: DatabaseField;
  fieldId: string;
  value: RowValue | undefined;
  /** The character that started the edit (it replaces the value). */
  initial?: string;
  /** The cell on screen, to place the editor over. */
  anchor: HTMLElement;
  members: WireUser[];
  done(value: RowValue | undefined, move: EditorMove): void;
  /**
   * A new option for a select, multi-select or status field; its id. At once (the grid: the field
   * is saved meanwhile, and the cell's write waits for it — keys typed after Enter go on to the
   * next cell), or once the field is saved.
   */
  addOption(fieldId: string, name: string): string | null | Promise<string | null>;
  /** The row being edited: files are uploaded to its page (they are read by its readers). */
  rowId: string;
  /** The database: a relation's rows are looked for in it. */
  databaseId?: string;
}

/**
 * The editor floats over its cell (a portal: the grid's scroll box would clip it); one taller
 * than the room below its cell (the date editor's calendar near the window's bottom) is lifted
 * to end inside the window.
 */
function Floating({ anchor, children, minWidth, className }: { anchor: HTMLElement; children: ReactNode; minWidth?: number; className?: string }) {
  const [box, setBox] = useState(() => anchor.getBoundingClientRect());
  const panel = useRef<HTMLDivElement>(null);
  const [lift, setLift] = useState(0);
  useLayoutEffect(() => setBox(anchor.getBoundingClientRect()), [anchor]);
  useLayoutEffect(() => {
    const height = panel.current?.offsetHeight ?? 0;
    setLift(Math.max(0, Math.min(box.top - 4, box.top + height - (window.innerHeight - 4))));
  }, [box]);
  const width = Math.max(box.width, minWidth ?? 0);
  const left = Math.max(4, Math.min(box.left, window.innerWidth - width - 4));
  return createPortal(
    <div
      ref={panel}
      className={['db-editor', className].filter(Boolean).join(' ')}
      style={{ top: box.top - lift, left, width, minHeight: box.height }}
      onMouseDown={(e) => e.stopPropagation()}
    >
      {children}
    </div>,
    document.body,
  );
}

/** The editor's field takes the focus once drawn, the caret at the end of what it holds. */
function useFocusAtEnd(field: RefObject<HTMLInputElement | HTMLTextAreaElement | null>) {
  useLayoutEffect(() => {
    const el = field.current;
    if (!el) return;
    el.focus();
    el.setSelectionRange(el.value.length, el.value.length);
  }, []); // eslint-disable-line react-hooks/exhaustive-deps
}

/**
 * An editor closed from outside (a click on another cell, the grid scrolled) while its text stood
 * refused: the text is not written, and `note` (the last render's words) says so rather than
 * dropping it silently. `finished`: the editor ended itself.
 */
function useDroppedNote(note: string | null, finished: RefObject<boolean>) {
  const last = useRef(note);
  last.current = note;
  useEffect(
    () => () => {
      if (!finished.current && last.current !== null) showToast(last.current, 'error');
    },
    [], // eslint-disable-line react-hooks/exhaustive-deps
  );
}

/** Enter, Tab and Escape in a text editor (the grid's keys while editing). */
function editKeys(event: ReactKeyboardEvent, commit: (move: EditorMove) => void, cancel: () => void) {
  if (event.key === 'Enter' && !event.altKey && !event.nativeEvent.isComposing) {
    event.preventDefault();
    commit(event.shiftKey ? 'stay' : 'down');
  } else if (event.key === 'Tab') {
    event.preventDefault();
    commit(event.shiftKey ? 'left' : 'right');
  } else if (event.key === 'Escape') {
    event.preventDefault();
    cancel();
  }
  event.stopPropagation();
}

function TextEditor({ field, fieldId, value, initial, anchor, done }: CellEditorProps) {
  const { t } = useTranslation('automation');
  const start = initial ?? (typeof value === 'number' ? String(value) : typeof value === 'string' ? value : '');
  const [text, setText] = useState(start);
  const hintId = useId();
  // The text refused (it is no number): said under it until it changes; nothing is written.
  const [refused, setRefused] = useState<string | null>(null);
  const invalid = refused !== null;
  const input = useRef<HTMLTextAreaElement>(null);
  const finished = useRef(false);
  useFocusAtEnd(input);
  useDroppedNote(refused === null ? null : t('database.notANumberDropped', { text: refused }), finished);
  const commit = (move: EditorMove) => {
    if (finished.current) return;
    if (field.type === 'number') {
      const n = text.trim() === '' ? null : parseNumber(text);
      if (n === null && text.trim() !== '') {
        setRefused(text.trim());
        return;
      }
      finished.current = true;
      done(n === value ? undefined : n, move);
      return;
    }
    finished.current = true;
    const next = fieldId === MAIN_FIELD_ID ? text : field.type === 'text' ? (text === '' ? null : text) : text.trim() === '' ? null : text.trim();
    done(next === (value ?? (fieldId === MAIN_FIELD_ID ? '' : null)) ? undefined : next, move);
  };
  const cancel = () => {
    finished.current = true;
    done(undefined, 'stay');
  };
  return (
    <Floating anchor={anchor}>
      <textarea
        ref={input}
        className={`db-editor-text${invalid ? ' is-invalid' : ''}`}
        value={text}
        rows={1}
        // A title has at most LIMITS.titleLength characters wherever it is written (the server refuses more).
        maxLength={fieldId === MAIN_FIELD_ID ? LIMITS.titleLength : undefined}
        aria-label={t('database.editCell')}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? hintId : undefined}
        inputMode={
          field.type === 'number' ? 'decimal' : field.type === 'email' ? 'email' : field.type === 'phone' ? 'tel' : field.type === 'url' ? 'url' : undefined
        }
        onChange={(e) => {
          setRefused(null);
          setText(e.target.value);
        }}
        onKeyDown={(e) => editKeys(e, commit, cancel)}
        onBlur={() => commit('stay')}
      />
      {invalid && (
        <div id={hintId} className="db-editor-hint is-error" role="alert">
          {t('database.notANumber', { text: refused })}
        </div>
      )}
    </Floating>
  );
}

/**
 * The highlighted entry of an option list (issue 34 §2): none until ↑/↓ or typing (typing
 * highlights the first match: `setActive(0)`); ↑/↓ go round the list; Enter takes it. Shown by
 * `is-active` and named by the search box's `aria-activedescendant`.
 */
interface Highlight {
  /** The entry highlighted (kept within the list as it shrinks); null: none. */
  active: number | null;
  setActive(index: number | null): void;
  move(step: 1 | -1): void;
  listId: string;
  optionId(index: number): string;
  activeId: string | undefined;
}

function useHighlight(count: number, typed: boolean): Highlight {
  const base = useId();
  const [chosen, setActive] = useState<number | null>(typed ? 0 : null);
  const active = chosen === null || count === 0 ? null : Math.min(chosen, count - 1);
  const optionId = (index: number) => `${base}-option-${index}`;
  const activeId = active === null ? undefined : optionId(active);
  useEffect(() => {
    if (activeId) document.getElementById(activeId)?.scrollIntoView?.({ block: 'nearest' });
  }, [activeId]);
  return {
    active,
    setActive,
    move: (step) => setActive(count === 0 ? null : active === null ? (step > 0 ? 0 : count - 1) : (active + step + count) % count),
    listId: `${base}-list`,
    optionId,
    activeId,
  };
}

/** The search box of a list editor; leaving the editor (focus going outside it) ends the edit. */
function EditorSearch({
  inputRef,
  value,
  label,
  highlight,
  onChange,
  onKeyDown,
  onLeave,
}: {
  inputRef: RefObject<HTMLInputElement | null>;
  value: string;
  label: string;
  /** The list it searches, and its highlighted option (`aria-activedescendant`). */
  highlight: Highlight;
  onChange(text: string): void;
  onKeyDown(event: ReactKeyboardEvent): void;
  onLeave(): void;
}) {
  return (
    <input
      ref={inputRef}
      className="db-editor-search"
      value={value}
      placeholder={label}
      aria-label={label}
      aria-controls={highlight.listId}
      aria-activedescendant={highlight.activeId}
      aria-autocomplete="list"
      onChange={(e) => onChange(e.target.value)}
      onKeyDown={onKeyDown}
      onBlur={(e) => {
        if (!e.currentTarget.closest('.db-editor')?.contains(e.relatedTarget as Node | null)) onLeave();
      }}
    />
  );
}

/** Options of a select, multi-select or status field: search, pick, make a new one. */
function OptionsEditor({ field, fieldId, value, initial, anchor, done, addOption }: CellEditorProps & { field: OptionField }) {
  const { t } = useTranslation('automation');
  const multi = field.type === 'multiSelect';
  const [chosen, setChosen] = useState<string[]>(() => (Array.isArray(value) ? (value as string[]) : typeof value === 'string' ? [value] : []));
  const [query, setQuery] = useState(initial ?? '');
  const input = useRef<HTMLInputElement>(null);
  const finished = useRef(false);
  useLayoutEffect(() => input.current?.focus(), []);
  const options = field.options as SelectOption[];
  const matches = useMemo(() => options.filter((o) => foldText(o.name).includes(foldText(query.trim()))), [options, query]);
  const exact = options.some((o) => foldText(o.name) === foldText(query.trim()));
  const canCreate = query.trim() !== '' && !exact;
  const entries = matches.length + (canCreate ? 1 : 0);
  const highlight = useHighlight(entries, !!initial?.trim());
  const { active } = highlight;
  const finish = (ids: string[], move: EditorMove) => {
    if (finished.current) return;
    finished.current = true;
    const next: RowValue = multi ? (ids.length ? ids : null) : (ids[0] ?? null);
    done(JSON.stringify(next) === JSON.stringify(value ?? null) ? undefined : next, move);
  };
  const pick = (id: string) => {
    if (!multi) return finish([id], 'stay');
    setChosen((list) => (list.includes(id) ? list.filter((x) => x !== id) : [...list, id]));
    setQuery('');
    highlight.setActive(null);
  };
  const create = async () => {
    const name = query.trim();
    const made = addOption(fieldId, name);
    const id = typeof made === 'string' || made === null ? made : await made;
    if (id) pick(id);
  };
  const onKey = (event: ReactKeyboardEvent) => {
    event.stopPropagation();
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      highlight.move(event.key === 'ArrowDown' ? 1 : -1);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      if (event.nativeEvent.isComposing) return;
      // The entry highlighted (typing highlights the first match, or «Создать» when none); none
      // highlighted and nothing typed: the cell is written as it stands.
      if (active !== null && active < matches.length) pick(matches[active].id);
      else if (active !== null && canCreate) void create();
      else if (query.trim() === '') finish(chosen, 'down');
    } else if (event.key === 'Escape' || event.key === 'Tab') {
      event.preventDefault();
      finish(chosen, event.key === 'Tab' ? (event.shiftKey ? 'left' : 'right') : 'stay');
    } else if (event.key === 'Backspace' && query === '' && multi && chosen.length) {
      setChosen((list) => list.slice(0, -1));
    }
  };
  return (
    <Floating anchor={anchor} minWidth={240} className="db-editor-menu">
      <div className="db-editor-chosen">
        {chosen.map((id) => {
          const option = options.find((o) => o.id === id);
          return option ? (
            <button
              key={id}
              type="button"
              className="db-chip-button"
              aria-label={t('database.removeOption', { name: option.name })}
              onClick={() => setChosen((list) => list.filter((x) => x !== id))}
            >
              <OptionChip option={option} /> ×
            </button>
          ) : null;
        })}
        <EditorSearch
          inputRef={input}
          value={query}
          label={t('database.findOption')}
          highlight={highlight}
          onChange={(text) => {
            setQuery(text);
            highlight.setActive(text.trim() ? 0 : null);
          }}
          onKeyDown={onKey}
          onLeave={() => finish(chosen, 'stay')}
        />
      </div>
      <div role="listbox" id={highlight.listId} aria-label={field.name} aria-multiselectable={multi || undefined} className="db-editor-options">
        {matches.map((option, i) => (
          <div
            key={option.id}
            id={highlight.optionId(i)}
            role="option"
            aria-selected={chosen.includes(option.id)}
            className={`db-editor-option${i === active ? ' is-active' : ''}`}
            onMouseDown={(e) => {
              e.preventDefault();
              pick(option.id);
            }}
          >
            <OptionChip option={option} />
            {chosen.includes(option.id) && <span className="db-check">✓</span>}
          </div>
        ))}
        {canCreate && (
          <div
            id={highlight.optionId(matches.length)}
            role="option"
            aria-selected={false}
            className={`db-editor-option${active === matches.length ? ' is-active' : ''}`}
            onMouseDown={(e) => {
              e.preventDefault();
              void create();
            }}
          >
            {t('database.createOption')} <OptionChip option={{ name: query.trim() }} />
          </div>
        )}
        {entries === 0 && <div className="db-editor-empty">{t('database.noOptions')}</div>}
      </div>
    </Floating>
  );
}

/**
 * A date cell (issue 34 §2, docs/web-app.md «The date editor»): the start, and with «Дата
 * окончания» the end, typed as people write dates (dateText.ts) — with a time when the field has
 * one — or picked in the calendar below them (the one of the field last focused; ↓ goes into it).
 * A text that is no date (or an end before the start) is refused where it was typed: Enter, «Готово»
 * or a click outside leave the editor open and say why; nothing is written. Enter writes and moves
 * down, Escape cancels.
 */
function DateEditor({ field, value, initial, anchor, done }: CellEditorProps) {
  const { t } = useTranslation('automation');
  const withTime = field.type === 'date' && !!field.withTime;
  const range = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as DateRange) : null;
  const startValue = range ? range.start : typeof value === 'string' ? value : null;
  // The texts as first shown: left as they are, the values they came from are kept as stored.
  const [shownStart] = useState(() => dateText(startValue));
  const [shownEnd] = useState(() => dateText(range?.end));
  // Opened by typing on the cell: the key typed starts the text (as in a text cell).
  const [start, setStart] = useState(initial ?? shownStart);
  const [end, setEnd] = useState(shownEnd);
  const [hasEnd, setHasEnd] = useState(!!range?.end);
  const [active, setActive] = useState<'start' | 'end'>('start');
  // Why the start or the end was refused, until it is typed again.
  const [problems, setProblems] = useState<{ start: string | null; end: string | null }>({ start: null, end: null });
  const first = useRef<HTMLInputElement>(null);
  const second = useRef<HTMLInputElement>(null);
  const grid = useRef<HTMLTableElement>(null);
  const finished = useRef(false);
  // «Дата окончания» ticked: its field is where typing (and the calendar) goes.
  const endAdded = useRef(false);
  useEffect(() => {
    if (hasEnd && endAdded.current) second.current?.focus();
    endAdded.current = false;
  }, [hasEnd]);
  useFocusAtEnd(first);
  useDroppedNote(
    problems.start !== null || problems.end !== null ? t('database.dateProblem.dropped', { text: problems.start !== null ? start : end }) : null,
    finished,
  );
  /** A text as a stored value: the one it was shown from when untouched; null when empty; or why not. */
  const read = (text: string, shown: string, was: string | null | undefined): { value: string | null } | { problem: string } => {
    if (text === shown && text !== '') return { value: was ?? null };
    const typed = readDateText(text, { withTime, today: localToday() });
    if (typed === null) return { value: null };
    if ('problem' in typed) return { problem: dateProblemText(t, typed.problem, text) };
    return { value: storedDate(typed.day, typed.time) };
  };
  const finish = (move: EditorMove) => {
    if (finished.current) return;
    const s = read(start, shownStart, startValue);
    const e = hasEnd ? read(end, shownEnd, range?.end) : { value: null };
    const refused = { start: 'problem' in s ? s.problem : null, end: 'problem' in e ? e.problem : null };
    if ('value' in s && 'value' in e && s.value !== null && e.value !== null && (dateStartMs(e.value) ?? 0) < (dateStartMs(s.value) ?? 0)) {
      refused.end = t('database.dateProblem.endBeforeStart');
    }
    if (refused.start !== null || refused.end !== null) {
      setProblems(refused);
      return;
    }
    finished.current = true;
    const from = 'value' in s ? s.value : null;
    const to = 'value' in e ? e.value : null;
    // An open-ended range (`end: null`, the calendar makes them) stays one unless an end is given.
    const next: RowValue = from === null ? null : to ? { start: from, end: to } : range && range.end === null && !hasEnd ? { start: from, end: null } : from;
    done(JSON.stringify(next) === JSON.stringify(value ?? null) ? undefined : next, move);
  };
  const onKey = (event: ReactKeyboardEvent) => {
    event.stopPropagation();
    if (event.key === 'Enter' && !event.nativeEvent.isComposing) {
      event.preventDefault();
      finish('down');
    } else if (event.key === 'Escape') {
      event.preventDefault();
      finished.current = true;
      done(undefined, 'stay');
    }
  };
  const typeStart = (text: string) => {
    setStart(text);
    setProblems((was) => ({ ...was, start: null }));
  };
  const typeEnd = (text: string) => {
    setEnd(text);
    setProblems((was) => ({ ...was, end: null }));
  };
  const picking = active === 'end' && hasEnd ? 'end' : 'start';
  const pickingText = picking === 'end' ? end : start;
  const toGrid = () => grid.current?.querySelector<HTMLElement>('[tabindex="0"]')?.focus();
  return (
    <Floating anchor={anchor} minWidth={280} className="db-editor-menu db-editor-date-menu">
      <div
        className="db-editor-date"
        onKeyDown={onKey}
        onBlur={(e) => {
          if (!e.currentTarget.contains(e.relatedTarget as Node | null)) finish('stay');
        }}
      >
        <DateInput
          inputRef={first}
          label={hasEnd ? t('database.dateStart') : t('database.date')}
          showLabel
          withTime={withTime}
          text={start}
          onText={typeStart}
          problem={problems.start}
          preview
          onFocus={() => setActive('start')}
          onArrowDown={toGrid}
        />
        {hasEnd && (
          <DateInput
            inputRef={second}
            label={t('database.dateEnd')}
            showLabel
            withTime={withTime}
            text={end}
            onText={typeEnd}
            problem={problems.end}
            preview
            onFocus={() => setActive('end')}
            onArrowDown={toGrid}
          />
        )}
        <DateCalendar
          gridRef={grid}
          chosen={typedDate(pickingText, withTime)?.day ?? null}
          onPick={(day) => {
            const text = pickedText(day, pickingText, withTime);
            if (picking === 'end') typeEnd(text);
            else typeStart(text);
            (picking === 'end' ? second : first).current?.focus();
          }}
        />
        <label className="db-editor-toggle">
          <input
            type="checkbox"
            checked={hasEnd}
            onChange={(e) => {
              endAdded.current = e.target.checked;
              setHasEnd(e.target.checked);
              setProblems((was) => ({ ...was, end: null }));
            }}
          />{' '}
          {t('database.withEnd')}
        </label>
        <div className="db-editor-actions">
          <button
            type="button"
            className="db-button"
            onClick={() => {
              setStart('');
              setEnd('');
              setProblems({ start: null, end: null });
              first.current?.focus();
            }}
          >
            {t('database.clear')}
          </button>
          <button type="button" className="db-button is-primary" onClick={() => finish('stay')}>
            {t('database.done')}
          </button>
        </div>
      </div>
    </Floating>
  );
}

/**
 * A cell holding a list of ids chosen from a list (people, related rows): a search box over the
 * list `items` gives for the text typed and the ids chosen; a click, or Enter on the entry
 * highlighted (↑/↓; typing highlights the first match), chooses or drops one; Enter with none
 * highlighted, Escape or a click outside write the cell, as one change.
 */
function ChooseMany({
  value,
  anchor,
  done,
  searchLabel,
  listLabel,
  minWidth,
  empty,
  items,
  onQuery,
  single = false,
}: Pick<CellEditorProps, 'value' | 'anchor' | 'done'> & {
  searchLabel: string;
  listLabel: string;
  minWidth: number;
  empty: string;
  items(query: string, chosen: string[]): Array<{ id: string; label: ReactNode }>;
  onQuery?(text: string): void;
  /** One at most (a relation limited to one row): a pick replaces the one chosen. */
  single?: boolean;
}) {
  const [chosen, setChosen] = useState<string[]>(Array.isArray(value) ? (value as string[]) : []);
  const [query, setQuery] = useState('');
  const input = useRef<HTMLInputElement>(null);
  const finished = useRef(false);
  useLayoutEffect(() => input.current?.focus(), []);
  const finish = (move: EditorMove) => {
    if (finished.current) return;
    finished.current = true;
    const next = chosen.length ? chosen : null;
    done(JSON.stringify(next) === JSON.stringify(value ?? null) ? undefined : next, move);
  };
  const shown = items(query, chosen);
  const highlight = useHighlight(shown.length, false);
  const search = (text: string) => {
    setQuery(text);
    onQuery?.(text);
    highlight.setActive(text.trim() ? 0 : null);
  };
  /** One chosen or dropped (a click, Enter): the search starts again, the editor stays for more. */
  const toggle = (id: string) => {
    setChosen((list) => (list.includes(id) ? list.filter((x) => x !== id) : single ? [id] : [...list, id]));
    if (query) search('');
    else highlight.setActive(null);
  };
  return (
    <Floating anchor={anchor} minWidth={minWidth} className="db-editor-menu">
      <EditorSearch
        inputRef={input}
        value={query}
        label={searchLabel}
        highlight={highlight}
        onChange={search}
        onKeyDown={(e) => {
          e.stopPropagation();
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault();
            highlight.move(e.key === 'ArrowDown' ? 1 : -1);
          } else if (e.key === 'Enter') {
            e.preventDefault();
            if (e.nativeEvent.isComposing) return;
            const entry = highlight.active === null ? undefined : shown[highlight.active];
            if (entry) toggle(entry.id);
            else if (query.trim() === '') finish('down');
          } else if (e.key === 'Escape') {
            e.preventDefault();
            finish('stay');
          }
        }}
        onLeave={() => finish('stay')}
      />
      <div role="listbox" id={highlight.listId} aria-label={listLabel} className="db-editor-options" aria-multiselectable>
        {shown.map((item, i) => (
          <div
            key={item.id}
            id={highlight.optionId(i)}
            role="option"
            aria-selected={chosen.includes(item.id)}
            className={`db-editor-option${i === highlight.active ? ' is-active' : ''}`}
            onMouseDown={(e) => {
              e.preventDefault();
              toggle(item.id);
            }}
          >
            <span>{item.label}</span>
            {chosen.includes(item.id) && <span className="db-check">✓</span>}
          </div>
        ))}
        {shown.length === 0 && <div className="db-editor-empty">{empty}</div>}
      </div>
    </Floating>
  );
}

function PersonEditor({ value, anchor, done, members }: CellEditorProps) {
  const { t } = useTranslation('automation');
  return (
    <ChooseMany
      value={value}
      anchor={anchor}
      done={done}
      searchLabel={t('database.findPerson')}
      listLabel={t('database.people')}
      minWidth={260}
      empty={t('database.noPeople')}
      items={(query) =>
        members
          .filter((m) => foldText(`${m.name} ${m.email}`).includes(foldText(query.trim())))
          .map((member) => ({ id: member.id, label: displayName(member, member.email) }))
      }
    />
  );
}

/**
 * A relation's cell: the rows it names (chosen, on top) and the rows of the database found by
 * their title as it is typed (`GET …/rows?search`, the titles alone), each toggled by a click or
 * Enter (ChooseMany); the row itself is not offered. While typed text has not been answered yet,
 * the rows shown are those of the last answer whose titles hold it (and the chosen ones always
 * are filtered so), so Enter right after typing takes a row that matches. Enter with nothing
 * highlighted, Escape or a click outside write the cell, as one change.
 */
function RelationEditor({ field, value, anchor, done, databaseId: own, rowId }: CellEditorProps) {
  const { t } = useTranslation('automation');
  // The rows of the database the relation names (docs/relations.md): its own, or another.
  const databaseId = (field.type === 'relation' ? field.databaseId : undefined) ?? own;
  const [query, setQuery] = useState('');
  // The rows found, and the text (trimmed) they were found for.
  const [found, setFound] = useState<{ search: string; rows: RowTitle[] }>({ search: '', rows: [] });
  // The rows chosen before have their titles asked for; those chosen now were found (their titles remembered).
  const titleOf = useRowTitles(databaseId, Array.isArray(value) ? (value as string[]) : []);
  useEffect(() => {
    if (!databaseId) return;
    const controller = new AbortController();
    const search = query.trim();
    const timer = setTimeout(() => {
      databaseApi.rows(databaseId, { search: search || undefined, fields: [], offset: 0, limit: 20 }, controller.signal).then(
        (read) => {
          const rows = read.rows.filter((row) => row.id !== rowId).map((row) => ({ id: row.id, title: row.data.title, icon: row.data.icon }));
          rememberTitles(databaseId, rows);
          setFound({ search, rows });
        },
        () => undefined,
      );
    }, 150);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [databaseId, query, rowId]);
  const label = (row: Pick<RowTitle, 'title' | 'icon'> | null | undefined) => (
    <>
      {row?.icon && <span aria-hidden>{row.icon} </span>}
      {row === undefined ? '…' : row?.title || t('database.untitledRow')}
    </>
  );
  return (
    <ChooseMany
      value={value}
      anchor={anchor}
      done={done}
      searchLabel={t('database.findRow')}
      listLabel={t('database.relatedRows')}
      minWidth={280}
      single={field.type === 'relation' && field.limit === 'one'}
      empty={query ? t('database.noFound', { search: query }) : t('database.noRows')}
      onQuery={setQuery}
      items={(typed, chosen) => {
        const search = typed.trim();
        const holds = (row: Pick<RowTitle, 'title'> | null | undefined) => search === '' || foldText(row?.title ?? '').includes(foldText(search));
        const answered = found.search === search;
        return [
          ...chosen.filter((id) => holds(titleOf(id))).map((id) => ({ id, label: label(titleOf(id)) })),
          ...found.rows.filter((row) => !chosen.includes(row.id) && (answered || holds(row))).map((row) => ({ id: row.id, label: label(row) })),
        ];
      }}
    />
  );
}

/** The editor of a cell by its field's type; null for types edited in place (checkbox) or not at all. */
export function CellEditor(props: CellEditorProps) {
  const { field } = props;
  if (hasOptions(field)) return <OptionsEditor {...props} field={field} />;
  switch (field.type) {
    case 'date':
      return <DateEditor {...props} />;
    case 'person':
      return <PersonEditor {...props} />;
    case 'relation':
      return <RelationEditor {...props} />;
    case 'files':
      return <FilesEditor {...props} />;
    case 'text':
    case 'number':
    case 'url':
    case 'email':
    case 'phone':
      return <TextEditor {...props} />;
    default:
      return null;
  }
}

/** Whether a field's cells can be edited at all (computed ones cannot). */
export function isEditableField(field: DatabaseField): boolean {
  return !COMPUTED_FIELD_TYPES.has(field.type);
}

/**
 * A files cell: its files (each opens in a new tab, ✕ takes it out of the cell), «Добавить файл»
 * uploads to the row's page (docs/api/files.md) and adds it. Escape, Enter or a click outside
 * closes it once no upload is running; the cell is written then, as one change.
 */
function FilesEditor({ value, anchor, done, rowId }: CellEditorProps) {
  const { t } = useTranslation('automation');
  const [files, setFiles] = useState<FileRef[]>(Array.isArray(value) ? (value as FileRef[]) : []);
  const [uploading, setUploading] = useState(0);
  const [failed, setFailed] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const finished = useRef(false);
  const state = useRef({ files, uploading });
  state.current = { files, uploading };
  const finish = useCallback(
    (move: EditorMove) => {
      if (finished.current || state.current.uploading > 0) return;
      finished.current = true;
      const next = state.current.files.length ? state.current.files : null;
      done(JSON.stringify(next) === JSON.stringify(value ?? null) ? undefined : next, move);
    },
    [done, value],
  );
  useLayoutEffect(() => root.current?.focus(), []);
  useEffect(() => {
    const onDown = (event: MouseEvent) => {
      if (root.current && !root.current.contains(event.target as Node)) finish('stay');
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [finish]);
  const add = async (chosen: File[]) => {
    setFailed(false);
    setUploading((n) => n + chosen.length);
    for (const file of chosen) {
      try {
        const uploaded = await uploadFile(rowId, file);
        setFiles((current) => [...current, { id: uploaded.fileId, name: uploaded.title }]);
      } catch {
        setFailed(true);
      } finally {
        setUploading((n) => n - 1);
      }
    }
    root.current?.focus();
  };
  return (
    <Floating anchor={anchor} minWidth={280} className="db-editor-menu">
      <div
        ref={root}
        tabIndex={-1}
        className="db-editor-files"
        aria-label={t('database.files')}
        onKeyDown={(e) => {
          e.stopPropagation();
          if (e.key === 'Escape' || e.key === 'Enter') {
            e.preventDefault();
            finish(e.key === 'Enter' ? 'down' : 'stay');
          }
        }}
      >
        <ul className="db-editor-file-list">
          {files.map((file) => (
            <li key={file.id} className="db-editor-file">
              <a href={fileHref(file.id)} target="_blank" rel="noreferrer noopener">
                {file.name}
              </a>
              <button
                type="button"
                className="db-option-delete"
                aria-label={t('database.removeFile', { name: file.name })}
                onClick={() => {
                  setFiles((current) => current.filter((f) => f.id !== file.id));
                  // The button goes with its file: the keys (Escape, Enter) stay with the editor.
                  root.current?.focus();
                }}
              >
                ✕
              </button>
            </li>
          ))}
          {files.length === 0 && uploading === 0 && <li className="db-editor-empty">{t('database.noFiles')}</li>}
        </ul>
        {uploading > 0 && (
          <div className="db-editor-empty" role="status">
            {t('database.uploading', { count: uploading })}
          </div>
        )}
        {failed && (
          <div className="db-error" role="alert">
            {t('database.uploadFailed')}
          </div>
        )}
        <FilePicker multiple label={t('database.addFile')} onFiles={(files) => void add(files)}>
          {(open) => (
            <button type="button" className="menu-item" onClick={open}>
              <span className="menu-item-icon" aria-hidden>
                +
              </span>
              {t('database.addFile')}
            </button>
          )}
        </FilePicker>
      </div>
    </Floating>
  );
}

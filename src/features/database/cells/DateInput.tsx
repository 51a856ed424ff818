import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent as ReactKeyboardEvent, type MouseEvent, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { Popover } from '../../../ui/Popover';
import { CalendarIcon, ChevronLeftIcon, ChevronRightIcon } from '../../../ui/icons';
import { addDays } from './dateText';
import { dateText, daysInMonth, localToday, readDateText, storedDate, type DateProblem } from './dateText';
import { formatDay } from '../fields/format';
import './dateInput.css';

/*
 * The date editor of our own (issue 34 §2, docs/web-app.md «The date editor»): a text field that
 * reads a date the Russian way (dateText.ts) whatever the browser's language, says under it why a
 * text is no date, and a month calendar (Monday first; ←/→ change the month, the arrow keys move
 * the day, Enter picks it). The cell editor shows the calendar in itself (DateCalendar); the
 * filter bar's rule opens it in a popover (DateInput's button, or ↓ in the field).
 */

const MONTH = new Intl.DateTimeFormat('ru', { month: 'long', year: 'numeric', timeZone: 'UTC' });
const DAY_NAME = new Intl.DateTimeFormat('ru', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
const WEEKDAY = new Intl.DateTimeFormat('ru', { weekday: 'short', timeZone: 'UTC' });
const WEEKDAY_LONG = new Intl.DateTimeFormat('ru', { weekday: 'long', timeZone: 'UTC' });
const utc = (day: string) => Date.parse(`${day}T00:00:00Z`);
// 2024-01-01 was a Monday: the week's days from it.
const WEEK = Array.from({ length: 7 }, (_, i) => addDays('2024-01-01', i)).map((day) => ({
  short: WEEKDAY.format(utc(day)),
  long: WEEKDAY_LONG.format(utc(day)),
}));

/** «Декабрь 2026». */
function monthTitle(day: string): string {
  const text = MONTH.format(utc(day)).replace(/\s*г\.$/, '');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The same day `months` later (the month's last when it has fewer days). */
function shiftMonth(day: string, months: number): string {
  const [year, month, date] = day.split('-').map(Number);
  const index = year * 12 + month - 1 + months;
  const [y, m] = [Math.floor(index / 12), (index % 12) + 1];
  return `${y}-${String(m).padStart(2, '0')}-${String(Math.min(date, daysInMonth(y, m))).padStart(2, '0')}`;
}

/** A month's grid: six weeks from the Monday on or before its first day. */
function monthWeeks(day: string): string[][] {
  const first = `${day.slice(0, 7)}-01`;
  const start = addDays(first, -((new Date(utc(first)).getUTCDay() + 6) % 7));
  return Array.from({ length: 6 }, (_, w) => Array.from({ length: 7 }, (_, d) => addDays(start, w * 7 + d)));
}

/** Why a typed text is no date, as the person reads it. */
export function dateProblemText(t: TFunction<'automation'>, problem: DateProblem, text: string): string {
  return t(`database.dateProblem.${problem}`, { text: text.trim() });
}

/** The date a text names, or null (empty or refused): what the calendar marks as chosen. */
export function typedDate(text: string, withTime: boolean): { day: string; time: string | null } | null {
  const read = readDateText(text, { withTime, today: localToday() });
  return read && 'day' in read ? read : null;
}

/** The text a day picked in the calendar makes: the day, with the time already typed (if any). */
export function pickedText(day: string, text: string, withTime: boolean): string {
  const time = typedDate(text, withTime)?.time;
  return time ? `${dateText(day)} ${time}` : dateText(day);
}

const keepFocus = (event: MouseEvent) => event.preventDefault();

/**
 * A month of days: ←/→ buttons change the month; in the grid (focused with ↓ from the field) the
 * arrow keys move the day (PageUp/PageDown a month, Home/End the week's ends) and Enter or Space
 * picks it; a click picks a day. Today is marked, and the chosen day. The mouse does not take the
 * focus from the field.
 */
export function DateCalendar({
  chosen,
  onPick,
  gridRef,
  onEscape,
}: {
  chosen: string | null;
  onPick(day: string): void;
  gridRef?: RefObject<HTMLTableElement | null>;
  /** Escape in the grid: given, it is the calendar's (back to the field); else it goes on (the cell editor's cancel). */
  onEscape?(): void;
}) {
  const { t } = useTranslation('automation');
  const today = localToday();
  const [cursor, setCursor] = useState(chosen ?? today);
  const own = useRef<HTMLTableElement>(null);
  const grid = gridRef ?? own;
  const moved = useRef(false);
  useEffect(() => {
    if (chosen) setCursor(chosen);
  }, [chosen]);
  useLayoutEffect(() => {
    if (!moved.current) return;
    moved.current = false;
    grid.current?.querySelector<HTMLElement>(`[data-day="${cursor}"]`)?.focus();
  }, [cursor, grid]);
  const onKey = (event: ReactKeyboardEvent) => {
    const step: Record<string, (day: string) => string> = {
      ArrowLeft: (d) => addDays(d, -1),
      ArrowRight: (d) => addDays(d, 1),
      ArrowUp: (d) => addDays(d, -7),
      ArrowDown: (d) => addDays(d, 7),
      PageUp: (d) => shiftMonth(d, -1),
      PageDown: (d) => shiftMonth(d, 1),
      Home: (d) => addDays(d, -((new Date(utc(d)).getUTCDay() + 6) % 7)),
      End: (d) => addDays(d, 6 - ((new Date(utc(d)).getUTCDay() + 6) % 7)),
    };
    if (Object.hasOwn(step, event.key)) {
      event.preventDefault();
      event.stopPropagation();
      moved.current = true;
      setCursor(step[event.key](cursor));
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      event.stopPropagation();
      onPick(cursor);
    } else if (event.key === 'Escape' && onEscape) {
      event.preventDefault();
      event.stopPropagation();
      onEscape();
    }
  };
  const title = monthTitle(cursor);
  const month = cursor.slice(0, 7);
  return (
    <div className="db-datepick">
      <div className="db-datepick-head">
        <button
          type="button"
          className="db-datepick-nav"
          aria-label={t('database.dateInput.prevMonth')}
          onMouseDown={keepFocus}
          onClick={() => setCursor(shiftMonth(cursor, -1))}
        >
          <ChevronLeftIcon size={16} />
        </button>
        <span className="db-datepick-title" aria-live="polite">
          {title}
        </span>
        <button
          type="button"
          className="db-datepick-nav"
          aria-label={t('database.dateInput.nextMonth')}
          onMouseDown={keepFocus}
          onClick={() => setCursor(shiftMonth(cursor, 1))}
        >
          <ChevronRightIcon size={16} />
        </button>
      </div>
      <table ref={grid} role="grid" aria-label={title} className="db-datepick-grid" onKeyDown={onKey}>
        <thead>
          <tr>
            {WEEK.map((day) => (
              <th key={day.long} scope="col" abbr={day.long}>
                {day.short}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {monthWeeks(cursor).map((week) => (
            <tr key={week[0]}>
              {week.map((day) => (
                <td
                  key={day}
                  role="gridcell"
                  data-day={day}
                  tabIndex={day === cursor ? 0 : -1}
                  aria-label={DAY_NAME.format(utc(day))}
                  aria-selected={day === chosen}
                  aria-current={day === today ? 'date' : undefined}
                  className={['db-datepick-day', day.slice(0, 7) !== month && 'is-outside', day === today && 'is-today', day === chosen && 'is-chosen']
                    .filter(Boolean)
                    .join(' ')}
                  onMouseDown={keepFocus}
                  onClick={() => {
                    setCursor(day);
                    onPick(day);
                  }}
                >
                  {Number(day.slice(8))}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * A date's text field: shows and takes «дд.мм.гггг» (« чч:мм» with `withTime`), the date it reads
 * as under it («1 дек. 2026 г.», `preview`), or why it is none (`problem`: `aria-invalid`, named by
 * `aria-describedby`, `role="alert"`). With `popover` it has its own calendar (its button, or ↓);
 * without, ↓ is `onArrowDown` (the cell editor's calendar).
 */
export function DateInput({
  text,
  onText,
  label,
  showLabel = false,
  withTime,
  problem,
  inputRef,
  onFocus,
  onArrowDown,
  popover = false,
  preview = false,
  disabled,
}: {
  text: string;
  onText(text: string): void;
  label: string;
  showLabel?: boolean;
  withTime: boolean;
  problem: string | null;
  inputRef?: RefObject<HTMLInputElement | null>;
  onFocus?(): void;
  onArrowDown?(): void;
  popover?: boolean;
  preview?: boolean;
  disabled?: boolean;
}) {
  const { t } = useTranslation('automation');
  const hintId = useId();
  const own = useRef<HTMLInputElement>(null);
  const input = inputRef ?? own;
  const box = useRef<HTMLDivElement>(null);
  const grid = useRef<HTMLTableElement>(null);
  const [open, setOpen] = useState(false);
  const focusGrid = useRef(false);
  useLayoutEffect(() => {
    if (!open || !focusGrid.current) return;
    focusGrid.current = false;
    grid.current?.querySelector<HTMLElement>('[tabindex="0"]')?.focus();
  });
  const typed = typedDate(text, withTime);
  const chosen = typed?.day ?? null;
  const shown = preview && problem === null && typed ? formatDay(storedDate(typed.day, typed.time)) : null;
  const close = () => {
    setOpen(false);
    input.current?.focus();
  };
  const field = (
    <div className={`db-date-field${problem !== null ? ' is-invalid' : ''}`} ref={box}>
      <input
        ref={input}
        type="text"
        className="db-date-text"
        value={text}
        disabled={disabled}
        inputMode="text"
        autoComplete="off"
        spellCheck={false}
        placeholder={withTime ? t('database.dateInput.placeholderTime') : t('database.dateInput.placeholder')}
        aria-label={showLabel ? undefined : label}
        aria-invalid={problem !== null || undefined}
        aria-describedby={problem !== null ? hintId : undefined}
        onFocus={onFocus}
        onChange={(e) => onText(e.target.value)}
        onBlur={(e) => {
          if (open && !(e.relatedTarget instanceof Element && e.relatedTarget.closest('.db-date-popover'))) setOpen(false);
        }}
        onKeyDown={(e) => {
          if (e.key !== 'ArrowDown' || e.altKey || e.shiftKey || e.nativeEvent.isComposing) return;
          if (popover) {
            e.preventDefault();
            e.stopPropagation();
            focusGrid.current = true;
            setOpen(true);
          } else if (onArrowDown) {
            e.preventDefault();
            e.stopPropagation();
            onArrowDown();
          }
        }}
      />
      {popover && (
        <button
          type="button"
          className="db-date-open"
          aria-label={t('database.dateInput.calendar')}
          aria-expanded={open}
          disabled={disabled}
          onMouseDown={keepFocus}
          onClick={() => setOpen((was) => !was)}
        >
          <CalendarIcon size={16} />
        </button>
      )}
    </div>
  );
  return (
    <div className="db-date-input">
      {showLabel ? (
        <label className="db-date-label">
          <span>{label}</span>
          {field}
        </label>
      ) : (
        field
      )}
      {problem !== null ? (
        <div id={hintId} className="db-editor-hint is-error" role="alert">
          {problem}
        </div>
      ) : (
        shown && <div className="db-editor-hint">{shown}</div>
      )}
      {popover && open && (
        <Popover anchor={box.current} onClose={() => setOpen(false)} label={t('database.dateInput.calendar')} className="db-date-popover">
          <DateCalendar
            chosen={chosen}
            gridRef={grid}
            onEscape={close}
            onPick={(day) => {
              onText(pickedText(day, text, withTime));
              close();
            }}
          />
        </Popover>
      )}
    </div>
  );
}

/**
 * A day (YYYY-MM-DD, '' for none) typed as people write dates (dateText.ts) or picked in the
 * calendar (its button, or ↓): `onChange` 400 ms after the last key; a text that is no date is
 * said under it and not taken. A database filter rule's day, the search screen's «Изменены с / по».
 */
export function DayInput({
  value,
  label,
  showLabel = false,
  disabled,
  onChange,
}: {
  value: string;
  label: string;
  showLabel?: boolean;
  disabled?: boolean;
  onChange(value: string): void;
}) {
  const { t } = useTranslation('automation');
  const [text, setText] = useState(() => dateText(value));
  const [problem, setProblem] = useState<string | null>(null);
  const typed = useRef(false);
  useEffect(() => {
    if (!typed.current) setText(dateText(value));
  }, [value]);
  useEffect(() => {
    if (!typed.current) return;
    const timer = setTimeout(() => {
      const read = readDateText(text, { withTime: false, today: localToday() });
      if (read && 'problem' in read) {
        setProblem(dateProblemText(t, read.problem, text));
        return;
      }
      typed.current = false;
      const next = read ? read.day : '';
      if (next !== value) onChange(next);
    }, 400);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [text]);
  return (
    <DateInput
      label={label}
      showLabel={showLabel}
      text={text}
      withTime={false}
      problem={problem}
      popover
      disabled={disabled}
      onText={(next) => {
        typed.current = true;
        setProblem(null);
        setText(next);
      }}
    />
  );
}

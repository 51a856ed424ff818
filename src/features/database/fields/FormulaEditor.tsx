import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DatabaseField } from '../../../../schema/blocks/database';
import { rowValue, type WireRow } from '../../../../schema/database';
import { compileFormula, toShownFormula, toStoredFormula } from '../../../../schema/formula';
import { formulaValueOfCell } from '../../../../schema/formula/cells';
import { evaluateRow, formulaFieldsOf, formulaPlanOf, planFormulas } from '../../../../schema/formula/field';
import { formatValue, FUNCTIONS } from '../../../../schema/formula/functions';
import { loadAppConfig } from '../../../app/appConfig';
import { Button } from '../../../ui/Button';
import { useDatabase } from '../context';
import { suggestionsAt, type SuggestedField, type Suggestions } from './formulaSuggestions';

type FormulaField = Extract<DatabaseField, { type: 'formula' }>;

/** Rows the preview computes the formula for. */
const PREVIEW_ROWS = 3;
const FUNCTION_LIST = Object.entries(FUNCTIONS).map(([name, spec]) => ({ name, signature: spec.signature, description: spec.description }));

/**
 * A formula field's expression in its column's «Поле» dialog (docs/formulas.md «The editor»):
 * written with the fields' names, kept with their ids; checked as it is typed by the same code the
 * server runs — the mistake named (to screen readers too) and underlined where it is in the text;
 * fields and functions offered as the name is typed (↑/↓, Enter or Tab, Escape); the value of the
 * first rows shown as it would be; saved with Ctrl+Enter or «Сохранить формулу».
 */
export function FormulaEditor({ fieldId, field }: { fieldId: string; field: FormulaField }) {
  const { t } = useTranslation('automation');
  const db = useDatabase();
  const fields = db.config.fields;
  const idOfName = (name: string) => Object.keys(fields).find((id) => fields[id].name === name);
  const [text, setText] = useState(() => toShownFormula(field.expression, (id) => fields[id]?.name));
  const [caret, setCaret] = useState<number | null>(null);
  const [active, setActive] = useState(0);
  /** The text at which the person closed the suggestions (Escape): none until it changes. */
  const [dismissed, setDismissed] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const area = useRef<HTMLTextAreaElement>(null);
  const backdrop = useRef<HTMLDivElement>(null);
  const id = useId();

  /** The text as it would be kept (fields by id); null while it cannot be read (a text not closed yet). */
  const stored = useMemo(() => {
    try {
      return toStoredFormula(text, idOfName);
    } catch {
      return null;
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- idOfName reads `fields`
  }, [text, fields]);

  const problem = useMemo(() => {
    if (text.trim() === '') return null;
    const others = Object.fromEntries(Object.entries(fields).filter(([other]) => other !== fieldId));
    // The others' plan is remembered by their fields: not compiled again on every key.
    const byId = formulaFieldsOf(others, formulaPlanOf(others).order);
    try {
      // As shown (by name), so the place of a mistake is where the person sees it.
      compileFormula(text, (name) => {
        const other = idOfName(name);
        return other === undefined || other === fieldId ? undefined : byId(other);
      });
    } catch (error) {
      const { message, start, end } = error as { message: string; start: number; end: number };
      return { message, start, end };
    }
    // Then with the others as stored: a cycle through them (compiled, the text reads as stored).
    const cycle = planFormulas({ ...fields, [fieldId]: { ...field, expression: stored ?? '' } }).problems.find((p) => p.fieldId === fieldId);
    return cycle ? { message: cycle.message, start: 0, end: text.length } : null;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- idOfName reads `fields`
  }, [text, stored, fields, fieldId, field]);

  // Suggestions at the caret: the fields (not this one) and the functions.
  const suggestedFields = useMemo<SuggestedField[]>(() => {
    // As formulas read them: a formula field as the type it gives.
    const byId = formulaFieldsOf(fields, formulaPlanOf(fields).order);
    return Object.keys(fields)
      .filter((other) => other !== fieldId)
      .map((other) => ({ name: fields[other].name, type: byId(other)?.type ?? 'any' }));
  }, [fields, fieldId]);
  const suggestions: Suggestions | null = useMemo(
    () => (caret === null || dismissed === text ? null : suggestionsAt(text, caret, suggestedFields, FUNCTION_LIST)),
    [text, caret, dismissed, suggestedFields],
  );
  const open = suggestions !== null;
  const shown = Math.min(active, (suggestions?.items.length ?? 1) - 1);

  const take = (index: number) => {
    if (!suggestions) return;
    const chosen = suggestions.items[index];
    const next = text.slice(0, suggestions.from) + chosen.insert + text.slice(suggestions.to);
    const at = suggestions.from + chosen.insert.length;
    setText(next);
    setCaret(at);
    setActive(0);
    requestAnimationFrame(() => {
      area.current?.focus();
      area.current?.setSelectionRange(at, at);
    });
  };

  const preview = usePreview(fieldId, field, problem ? null : stored, text);

  const save = async () => {
    if (problem || saving || stored === null) return;
    setSaving(true);
    await db.saveField(fieldId, { ...field, expression: stored });
    setSaving(false);
  };
  const unchanged = stored === field.expression;
  const caretOf = (e: { currentTarget: HTMLTextAreaElement }) =>
    setCaret(e.currentTarget.selectionStart === e.currentTarget.selectionEnd ? e.currentTarget.selectionStart : null);

  return (
    <div className="db-formula">
      <label htmlFor={`${id}-text`}>{t('database.formula.label')}</label>
      <div className="db-formula-box">
        {/* The same text behind the field, the mistake underlined in it (a textarea cannot mark a range). */}
        <div ref={backdrop} className="db-formula-backdrop" aria-hidden="true">
          {problem && problem.end > problem.start ? (
            <>
              {text.slice(0, problem.start)}
              <mark className="db-formula-mistake">{text.slice(problem.start, problem.end)}</mark>
              {text.slice(problem.end)}
            </>
          ) : (
            text
          )}
          {'\n'}
        </div>
        <textarea
          ref={area}
          id={`${id}-text`}
          className="db-formula-text"
          value={text}
          rows={3}
          spellCheck={false}
          placeholder={t('database.formula.placeholder')}
          aria-invalid={problem ? true : undefined}
          aria-describedby={`${id}-note`}
          aria-autocomplete="list"
          aria-controls={open ? `${id}-suggestions` : undefined}
          aria-activedescendant={open ? `${id}-suggestion-${shown}` : undefined}
          onChange={(e) => {
            setText(e.target.value);
            caretOf(e);
            setActive(0);
          }}
          onSelect={caretOf}
          onBlur={() => setCaret(null)}
          onScroll={(e) => {
            if (backdrop.current) backdrop.current.scrollTop = e.currentTarget.scrollTop;
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
              e.preventDefault();
              void save();
              return;
            }
            if (!open) return;
            const count = suggestions.items.length;
            // The list's keys are the list's alone (the dialog's focus trap takes Tab, Escape closes it).
            if (['ArrowDown', 'ArrowUp', 'Enter', 'Tab', 'Escape'].includes(e.key)) e.stopPropagation();
            if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
              e.preventDefault();
              setActive((shown + (e.key === 'ArrowDown' ? 1 : count - 1)) % count);
            } else if (e.key === 'Enter' || e.key === 'Tab') {
              e.preventDefault();
              take(shown);
            } else if (e.key === 'Escape') {
              // Closes the list, not the dialog.
              e.preventDefault();
              setDismissed(text);
            }
          }}
        />
      </div>
      {open && (
        <ul id={`${id}-suggestions`} className="db-formula-suggestions" role="listbox" aria-label={t('database.formula.suggestions')}>
          {suggestions.items.map((item, index) => (
            <li
              key={`${item.kind}:${item.label}`}
              id={`${id}-suggestion-${index}`}
              role="option"
              aria-selected={index === shown}
              className={`db-formula-suggestion${index === shown ? ' is-active' : ''}`}
              // Taken without the field losing its focus.
              onMouseDown={(e) => {
                e.preventDefault();
                take(index);
              }}
              onMouseEnter={() => setActive(index)}
            >
              <span className="db-formula-suggestion-name">
                {item.kind === 'field' ? `prop("${item.label}")` : item.label}
                <span className="db-formula-suggestion-detail">{item.kind === 'field' ? item.detail : item.detail.slice(item.label.length)}</span>
              </span>
              {item.description && <span className="db-formula-suggestion-about">{item.description}</span>}
            </li>
          ))}
        </ul>
      )}
      {problem ? (
        <p id={`${id}-note`} className="db-formula-problem" role="alert">
          {problem.message}
          {problem.end > problem.start && problem.end - problem.start < text.length && <code>{text.slice(problem.start, problem.end)}</code>}
        </p>
      ) : (
        <p id={`${id}-note`} className="db-formula-hint">
          {t('database.formula.hint')}
        </p>
      )}
      {preview && preview.length > 0 && (
        <table className="db-formula-preview" aria-label={t('database.formula.preview')}>
          <tbody>
            {preview.map((row) => (
              <tr key={row.id}>
                <th scope="row">{row.title || t('database.formula.untitled')}</th>
                <td className={row.error ? 'is-error' : undefined}>{row.error ? `⚠ ${row.error}` : row.value || '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Button size="xs" kind="outline" disabled={!!problem || unchanged || saving} onClick={() => void save()}>
        {t('database.formula.save')}
      </Button>
    </div>
  );
}

/**
 * The formula (as it would be stored; null: it has a mistake) computed for the database's first
 * rows, as the server would: the same plan and evaluator, in the installation's formula time zone.
 * Booleans read «да»/«нет», dates as the cell shows them.
 */
function usePreview(fieldId: string, field: FormulaField, stored: string | null, text: string) {
  const { t } = useTranslation('automation');
  const db = useDatabase();
  const [rows, setRows] = useState<WireRow[] | null>(null);
  const [timeZone, setTimeZone] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    db.api.rows(db.databaseId, { limit: PREVIEW_ROWS }).then(
      (window) => live && setRows(window.rows),
      () => live && setRows([]),
    );
    void loadAppConfig().then((config) => live && setTimeZone(config.formulaTimeZone));
    return () => {
      live = false;
    };
  }, [db.api, db.databaseId]);
  return useMemo(() => {
    if (!rows || !timeZone || stored === null || text.trim() === '') return null;
    const fields = { ...db.config.fields, [fieldId]: { ...field, expression: stored } };
    const { order } = formulaPlanOf(fields);
    const names = new Map(db.members.map((m) => [m.id, m.name || m.email]));
    const now = Date.now();
    return rows.map((row) => {
      const outcome = evaluateRow(
        order,
        (id) => (fields[id].type === 'formula' ? null : formulaValueOfCell(fields[id], rowValue(row, id, fields[id]), { personName: (p) => names.get(p) })),
        { now, timeZone },
      ).get(fieldId);
      const value = outcome?.ok ? outcome.value : null;
      return {
        id: row.id,
        title: row.data.title,
        error: outcome && !outcome.ok ? outcome.error.message : null,
        value: typeof value === 'boolean' ? t(value ? 'database.formula.yes' : 'database.formula.no') : formatValue(value, { timeZone }),
      };
    });
  }, [rows, timeZone, stored, text, db.config.fields, db.members, fieldId, field, t]);
}

import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  FILTER_CONDITIONS,
  MAIN_FIELD_ID,
  hasOptions,
  type DatabaseField,
  type DatabaseLayout,
  type FilterCondition,
  type FilterGroup,
  type FilterRule,
  type ViewSort,
} from '../../../../schema/blocks/database';
import { asStoredField } from '../../../../schema/formula/field';
import { useDatabase } from '../context';
import { CellContent, CellEditor } from '../cells/cells';
import { DayInput } from '../cells/DateInput';
import { addRule, addSort, needsValue, removeRule, removeSort, setOp, updateRule, updateSort } from './filters';

// One empty list for a view without sorts: a new `[]` each render would be a new saved value to
// useDraft each time, whose effect set it again and again (the bar re-rendered without end).
const NO_SORTS: ViewSort[] = [];

/** The filter and sort rules of a view, edited in a bar under the tabs; each change is saved to the view. */
export function FilterBar({ layout }: { layout: DatabaseLayout }) {
  const { t } = useTranslation('automation');
  const db = useDatabase();
  const { config, editable } = db;
  const fieldIds = Object.keys(config.fields);
  const firstField = fieldIds.includes(MAIN_FIELD_ID) ? MAIN_FIELD_ID : fieldIds[0];
  // Edits build on what was edited last, not on the view the server last answered: two quick
  // changes (a condition, then its value) would otherwise save the second over the first's old state.
  const [filter, changeFilter] = useDraft<FilterGroup | null>(layout.filter ?? null, (next) => db.saveView(layout.uid, { filter: next }));
  const [sorts, changeSorts] = useDraft<ViewSort[]>(layout.sorts ?? NO_SORTS, (next) => db.saveView(layout.uid, { sorts: next }));
  const saveFilter = (make: (current: FilterGroup | null) => FilterGroup | null) => changeFilter(make);
  const saveSorts = (make: (current: ViewSort[]) => ViewSort[]) => changeSorts(make);

  return (
    <div className="db-filterbar" role="region" aria-label={t('database.filtersAndSorts')}>
      <div className="db-filter-rules">
        {filter?.rules.map((rule, index) => (
          <div key={index} className="db-filter-rule">
            {index === 0 ? (
              <span className="db-filter-op">{t('database.where')}</span>
            ) : index === 1 ? (
              <select
                className="db-filter-op"
                aria-label={t('database.filterOp')}
                value={filter.op}
                disabled={!editable}
                onChange={(e) => saveFilter((current) => (current ? setOp(current, e.target.value as 'and' | 'or') : current))}
              >
                <option value="and">{t('database.and')}</option>
                <option value="or">{t('database.or')}</option>
              </select>
            ) : (
              <span className="db-filter-op">{filter.op === 'and' ? t('database.and') : t('database.or')}</span>
            )}
            {'op' in rule ? (
              <span className="db-filter-group">{t('database.ruleGroup', { count: rule.rules.length })}</span>
            ) : (
              <RuleEditor
                rule={rule}
                editable={editable}
                onChange={(patch) => saveFilter((current) => (current ? updateRule(current, index, config, patch) : current))}
              />
            )}
            {editable && (
              <button
                type="button"
                className="icon-button db-icon-button"
                aria-label={t('database.removeRule')}
                onClick={() => saveFilter((current) => (current ? removeRule(current, index) : current))}
              >
                ×
              </button>
            )}
          </div>
        ))}
        {editable && firstField && (
          <button type="button" className="db-link-button" onClick={() => saveFilter((current) => addRule(current, config, firstField))}>
            + {t('database.addFilter')}
          </button>
        )}
      </div>
      <div className="db-filter-rules">
        {sorts.map((sort, index) => (
          <div key={index} className="db-filter-rule">
            <span className="db-filter-op">{index === 0 ? t('database.sortBy') : t('database.thenBy')}</span>
            <select
              aria-label={t('database.sortField')}
              value={sort.fieldId}
              disabled={!editable}
              onChange={(e) => saveSorts((current) => updateSort(current, index, { fieldId: e.target.value }))}
            >
              {fieldIds.map((id) => (
                <option key={id} value={id}>
                  {config.fields[id].name}
                </option>
              ))}
            </select>
            <select
              aria-label={t('database.sortDirection')}
              value={sort.direction}
              disabled={!editable}
              onChange={(e) => saveSorts((current) => updateSort(current, index, { direction: e.target.value as 'asc' | 'desc' }))}
            >
              <option value="asc">{t('database.ascending')}</option>
              <option value="desc">{t('database.descending')}</option>
            </select>
            {editable && (
              <button
                type="button"
                className="icon-button db-icon-button"
                aria-label={t('database.removeSort')}
                onClick={() => saveSorts((current) => removeSort(current, index))}
              >
                ×
              </button>
            )}
          </div>
        ))}
        {editable && firstField && (
          <button
            type="button"
            className="db-link-button"
            onClick={() => saveSorts((current) => addSort(current, fieldIds.find((id) => !current.some((s) => s.fieldId === id)) ?? firstField))}
          >
            + {t('database.addSort')}
          </button>
        )}
      </div>
    </div>
  );
}

/**
 * A value edited here and saved elsewhere: shown as edited at once; changes are made to the
 * latest edit; the saved value comes back in when no save is on its way.
 */
function useDraft<T>(saved: T, save: (value: T) => Promise<void>): [T, (make: (current: T) => T) => void] {
  const [draft, setDraft] = useState(saved);
  const latest = useRef(saved);
  const pending = useRef(0);
  useEffect(() => {
    if (pending.current > 0) return;
    latest.current = saved;
    setDraft(saved);
  }, [saved]);
  const change = (make: (current: T) => T) => {
    const next = make(latest.current);
    latest.current = next;
    setDraft(next);
    pending.current += 1;
    void save(next).finally(() => {
      pending.current -= 1;
    });
  };
  return [draft, change];
}

function RuleEditor({
  rule,
  editable,
  onChange,
}: {
  rule: FilterRule;
  editable: boolean;
  onChange(patch: { fieldId?: string; condition?: FilterCondition; value?: string | boolean }): void;
}) {
  const { t } = useTranslation('automation');
  const { config } = useDatabase();
  // A formula is filtered as the type it gives (docs/formulas.md).
  const field = (config.fields[rule.fieldId] && asStoredField(config.fields, rule.fieldId)) as DatabaseField | undefined;
  const [text, setText] = useState(rule.value === undefined || rule.value === null ? '' : String(rule.value));
  const typed = useRef(false);
  useEffect(() => {
    if (!typed.current) setText(rule.value === undefined || rule.value === null ? '' : String(rule.value));
  }, [rule.value]);
  // Typed values are saved 400 ms after the last key.
  useEffect(() => {
    if (!typed.current) return;
    const timer = setTimeout(() => {
      typed.current = false;
      onChange({ value: text });
    }, 400);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [text]);
  if (!field) return null;
  const conditions = FILTER_CONDITIONS[field.type];
  let valueEditor = null;
  if (needsValue(rule.condition)) {
    if (field.type === 'checkbox') {
      valueEditor = (
        <select
          aria-label={t('database.filterValue')}
          value={rule.value === false ? 'false' : 'true'}
          disabled={!editable}
          onChange={(e) => onChange({ value: e.target.value === 'true' })}
        >
          <option value="true">{t('database.checked')}</option>
          <option value="false">{t('database.unchecked')}</option>
        </select>
      );
    } else if (field.type === 'person' || field.type === 'relation') {
      valueEditor = (
        <ChosenValue
          field={field}
          fieldId={rule.fieldId}
          value={typeof rule.value === 'string' ? rule.value : null}
          editable={editable}
          onChange={(value) => onChange({ value })}
        />
      );
    } else if (hasOptions(field)) {
      valueEditor = (
        <select
          aria-label={t('database.filterValue')}
          value={typeof rule.value === 'string' ? rule.value : ''}
          disabled={!editable}
          onChange={(e) => onChange({ value: e.target.value })}
        >
          <option value="">{t('database.chooseOption')}</option>
          {field.options.map((o) => (
            <option key={o.id} value={o.id}>
              {o.name}
            </option>
          ))}
        </select>
      );
    } else if (field.type === 'date' || field.type === 'createdTime' || field.type === 'editedTime') {
      // A day typed the Russian way or picked in the calendar, saved 400 ms after the last key.
      valueEditor = (
        <DayInput
          label={t('database.filterValue')}
          value={typeof rule.value === 'string' ? rule.value : ''}
          disabled={!editable}
          onChange={(value) => onChange({ value })}
        />
      );
    } else {
      valueEditor = (
        <input
          type="text"
          aria-label={t('database.filterValue')}
          placeholder={t('database.filterValue')}
          value={text}
          disabled={!editable}
          inputMode={field.type === 'number' ? 'decimal' : undefined}
          onChange={(e) => {
            typed.current = true;
            setText(e.target.value);
          }}
        />
      );
    }
  }
  return (
    <>
      <select aria-label={t('database.filterField')} value={rule.fieldId} disabled={!editable} onChange={(e) => onChange({ fieldId: e.target.value })}>
        {Object.entries(config.fields).map(([id, f]) => (
          <option key={id} value={id}>
            {f.name}
          </option>
        ))}
      </select>
      <select
        aria-label={t('database.filterCondition')}
        value={rule.condition}
        disabled={!editable}
        onChange={(e) => onChange({ condition: e.target.value as FilterCondition })}
      >
        {conditions.map((c) => (
          <option key={c} value={c}>
            {t(`database.conditions.${c}`)}
          </option>
        ))}
      </select>
      {valueEditor}
    </>
  );
}

/**
 * A person or a row a «contains» rule names: shown as the cell shows it (the name, the row's
 * title), chosen with the cell's own editor (the members, the rows found by title); the one
 * chosen last is the rule's value.
 */
function ChosenValue({
  field,
  fieldId,
  value,
  editable,
  onChange,
}: {
  field: DatabaseField;
  fieldId: string;
  value: string | null;
  editable: boolean;
  onChange(value: string): void;
}) {
  const { t } = useTranslation('automation');
  const db = useDatabase();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <button type="button" className="db-filter-value" aria-label={t('database.filterValue')} disabled={!editable} onClick={(e) => setAnchor(e.currentTarget)}>
        {value ? (
          <CellContent field={field} fieldId={fieldId} value={[value]} databaseId={db.databaseId} />
        ) : (
          t(field.type === 'person' ? 'database.choosePerson' : 'database.chooseRow')
        )}
      </button>
      {anchor && (
        <CellEditor
          field={field}
          fieldId={fieldId}
          value={value ? [value] : null}
          anchor={anchor}
          members={db.members}
          databaseId={db.databaseId}
          rowId=""
          addOption={() => null}
          done={(next) => {
            setAnchor(null);
            const chosen = Array.isArray(next) ? (next as string[]).filter((id) => id !== value) : [];
            if (chosen.length > 0) onChange(chosen[chosen.length - 1]);
          }}
        />
      )}
    </>
  );
}

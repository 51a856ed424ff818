import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DatabaseField } from '../../../../schema/blocks/database';
import { compileFormula, toShownFormula, toStoredFormula } from '../../../../schema/formula';
import { formulaFieldsOf, formulaPlanOf, planFormulas } from '../../../../schema/formula/field';
import { Button } from '../../../ui/Button';
import { useDatabase } from '../context';

type FormulaField = Extract<DatabaseField, { type: 'formula' }>;

/**
 * A formula field's expression in its column's «Поле» dialog (docs/formulas.md): written with the
 * fields' names, kept with their ids; checked as it is typed by the same code the server runs (the
 * mistake and where it is, named to screen readers), saved with Ctrl+Enter or «Сохранить формулу».
 */
export function FormulaEditor({ fieldId, field }: { fieldId: string; field: FormulaField }) {
  const { t } = useTranslation('automation');
  const db = useDatabase();
  const fields = db.config.fields;
  const idOfName = (name: string) => Object.keys(fields).find((id) => fields[id].name === name);
  const [text, setText] = useState(() => toShownFormula(field.expression, (id) => fields[id]?.name));
  const [saving, setSaving] = useState(false);
  const id = useId();

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
    // Then with the others as stored: a cycle through them.
    const stored = toStoredFormula(text, idOfName);
    const cycle = planFormulas({ ...fields, [fieldId]: { ...field, expression: stored } }).problems.find((p) => p.fieldId === fieldId);
    return cycle ? { message: cycle.message, start: 0, end: text.length } : null;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- idOfName reads `fields`
  }, [text, fields, fieldId, field]);

  const save = async () => {
    if (problem || saving) return;
    setSaving(true);
    await db.saveField(fieldId, { ...field, expression: toStoredFormula(text, idOfName) });
    setSaving(false);
  };
  const unchanged = toStoredFormula(text, idOfName) === field.expression;

  return (
    <div className="db-formula">
      <label htmlFor={`${id}-text`}>{t('database.formula.label')}</label>
      <textarea
        id={`${id}-text`}
        className="db-formula-text"
        value={text}
        rows={3}
        spellCheck={false}
        placeholder={t('database.formula.placeholder')}
        aria-invalid={problem ? true : undefined}
        aria-describedby={`${id}-note`}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            void save();
          }
        }}
      />
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
      <Button size="xs" kind="outline" disabled={!!problem || unchanged || saving} onClick={() => void save()}>
        {t('database.formula.save')}
      </Button>
    </div>
  );
}

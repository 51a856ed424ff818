import { memo, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CALCULATIONS, NUMERIC_CALCULATIONS, type Calculation, type DatabaseField, type DatabaseLayout } from '../../../../schema/blocks/database';
import type { CalculationResults } from '../../../../schema/database';
import { asStoredField } from '../../../../schema/formula/field';
import { Popover } from '../../../ui/Popover';
import type { GridColumn } from '../fields/columns';
import { useDatabase } from '../context';
import { formatDate, formatNumber } from '../fields/format';

/** Calculations a field's type offers: numbers and dates get sum/average/min/max too (dates min/max only). */
export function calculationsFor(field: DatabaseField): Calculation[] {
  const numeric = field.type === 'number';
  const dated = field.type === 'date' || field.type === 'createdTime' || field.type === 'editedTime';
  return CALCULATIONS.filter((c) => !NUMERIC_CALCULATIONS.has(c) || numeric || (dated && (c === 'min' || c === 'max')));
}

/** A figure of the footer as shown: counts as integers, sums in the field's number format, dates as dates. */
export function formatFigure(field: DatabaseField, calculation: Calculation, figure: number | null | undefined): string {
  if (figure === null || figure === undefined) return '—';
  if (!NUMERIC_CALCULATIONS.has(calculation)) return formatNumber(figure);
  if (field.type === 'number') return formatNumber(Math.round(figure * 100) / 100, field.format, field.decimals);
  return formatDate(new Date(figure).toISOString());
}

/** The footer's figures of a view (GET database/{id}/calculations), read again after changes (debounced). */
export function useCalculations(layout: DatabaseLayout, changes: number): CalculationResults {
  const db = useDatabase();
  const [results, setResults] = useState<CalculationResults>({});
  const wanted = JSON.stringify([layout.calculations ?? {}, layout.filter ?? null, layout.groupBy ?? null]);
  const first = useRef(true);
  useEffect(() => {
    if (Object.keys(layout.calculations ?? {}).length === 0) {
      setResults({});
      return;
    }
    let cancelled = false;
    const timer = setTimeout(
      () => {
        db.api.calculations(db.databaseId, layout.uid).then(
          (figures) => !cancelled && setResults(figures),
          () => undefined,
        );
      },
      first.current ? 0 : 400,
    );
    first.current = false;
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [db.api, db.databaseId, layout.uid, wanted, changes]);
  return results;
}

/** A column's footer cell: its calculation and figure; editors choose the calculation. Memoized: scrolling the rows does not draw the footer again. */
export const CalculationCell = memo(function CalculationCell({
  column,
  layout,
  width,
  pinnedLeft,
  figure,
  colIndex,
}: {
  column: GridColumn;
  layout: DatabaseLayout;
  width: number;
  pinnedLeft?: number;
  figure: number | null | undefined;
  /** Its column's position in the grid (aria-colindex). */
  colIndex?: number;
}) {
  const { t } = useTranslation('automation');
  const db = useDatabase();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const calculation = layout.calculations?.[column.fieldId];
  // A formula or a rollup is calculated as the type it gives (sum and average of a formula that gives numbers).
  const computed = column.field.type === 'formula' || column.field.type === 'rollup';
  const shownAs = computed ? (asStoredField(db.config.fields, column.fieldId) as DatabaseField) : column.field;
  const choose = (next: Calculation | null) => {
    const calculations = { ...(layout.calculations ?? {}) };
    if (next) calculations[column.fieldId] = next;
    else delete calculations[column.fieldId];
    void db.saveView(layout.uid, { calculations });
    setOpen(false);
  };
  return (
    <div className={`db-fcell${pinnedLeft !== undefined ? ' db-pin' : ''}`} role="gridcell" aria-colindex={colIndex} style={{ width, left: pinnedLeft }}>
      <button
        ref={button}
        type="button"
        className="db-fcell-button"
        disabled={!db.editable && !calculation}
        onClick={() => db.editable && setOpen(true)}
        // What is seen is in the name (WCAG 2.5.3): «Расчёт Цена: Сумма 200».
        aria-label={
          calculation
            ? `${t('database.calculate', { name: column.field.name })}: ${t(`database.calculations.${calculation}`)} ${formatFigure(shownAs, calculation, figure)}`
            : t('database.calculate', { name: column.field.name })
        }
      >
        {calculation ? (
          <>
            <span className="db-fcell-name">{t(`database.calculations.${calculation}`)}</span>{' '}
            <span className="db-fcell-figure">{formatFigure(shownAs, calculation, figure)}</span>
          </>
        ) : (
          db.editable && <span className="db-fcell-hint">{t('database.calculate', { name: '' })}</span>
        )}
      </button>
      {open && (
        <Popover
          anchor={button.current}
          onClose={() => setOpen(false)}
          label={t('database.calculate', { name: column.field.name })}
          className="menu db-menu"
          role="menu"
        >
          <button type="button" className="menu-item" role="menuitemradio" aria-checked={!calculation} onClick={() => choose(null)}>
            {t('database.calculations.none')}
          </button>
          {calculationsFor(shownAs).map((c) => (
            <button key={c} type="button" className="menu-item" role="menuitemradio" aria-checked={calculation === c} onClick={() => choose(c)}>
              {t(`database.calculations.${c}`)}
            </button>
          ))}
        </Popover>
      )}
    </div>
  );
});

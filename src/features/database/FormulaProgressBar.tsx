import { useTranslation } from 'react-i18next';
import type { DatabaseConfig } from '../../../schema/blocks/database';
import { useFormulaProgress } from './formulaProgress';

/**
 * A database's formulas being computed again in the background (docs/formulas.md «A changed
 * formula over many rows»): which, and how far, under the toolbar; the rows show their values as
 * they land. Gone once the last rows are in.
 */
export function FormulaProgressBar({ databaseId, config }: { databaseId: string; config: DatabaseConfig }) {
  const { t } = useTranslation('automation');
  const progress = useFormulaProgress(databaseId);
  if (!progress) return null;
  const names = progress.fieldIds
    .map((id) => config.fields[id]?.name)
    .filter(Boolean)
    .map((name) => `«${name}»`)
    .join(', ');
  const percent = progress.total > 0 ? Math.round((progress.done / progress.total) * 100) : 0;
  const label = t('database.formula.computing', {
    count: Math.max(1, progress.fieldIds.length),
    names,
    done: progress.done.toLocaleString('ru-RU'),
    total: progress.total.toLocaleString('ru-RU'),
  });
  return (
    <div className="db-computing" role="status">
      <span className="db-computing-text">{label}</span>
      <span
        className="db-computing-bar"
        role="progressbar"
        aria-label={t('database.formula.computingLabel')}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
      >
        <span className="db-computing-fill" style={{ width: `${percent}%` }} />
      </span>
    </div>
  );
}

import { useTranslation } from 'react-i18next';
import type { DatabaseField } from '../../../../schema/blocks/database';
import { newId } from '../../../../schema/ids';
import { showToast } from '../../../ui/Toast';
import { useDatabase, type DatabaseContextValue } from '../context';

/**
 * A field made for a view's set-up (a calendar's date, a timeline's «Заблокировано»): added to
 * the database, the answer into the editor, its id handed to `then`; a failure is a toast.
 */
export async function addFieldFor(db: DatabaseContextValue, field: DatabaseField, then: (fieldId: string) => void, failed: string): Promise<void> {
  const fieldId = newId();
  try {
    db.apply(await db.api.addField(db.databaseId, field, { id: fieldId }));
    then(fieldId);
  } catch {
    showToast(failed, 'error');
  }
}

/**
 * A view that places rows by dates (a calendar, a timeline) in a database without a date field:
 * `message` says so, and an editor can add one («Добавить поле «Дата»»), handed to `onAdded`.
 */
export function DateFieldNeeded({ message, onAdded }: { message: string; onAdded(fieldId: string): void }) {
  const { t } = useTranslation('automation');
  const db = useDatabase();
  const addDateField = () => addFieldFor(db, { name: t('database.calendar.dateField'), type: 'date' }, onAdded, t('database.writeFailed'));
  return (
    <div className="db-empty">
      <p>{message}</p>
      {db.editable && (
        <button type="button" className="db-button" onClick={() => void addDateField()}>
          {t('database.calendar.addDateField')}
        </button>
      )}
    </div>
  );
}

/**
 * A labelled choice of a date field (a calendar's field, a timeline's start or end): `value` ''
 * when none is chosen yet (a «—» to show it), `none` an option for no field (value '').
 */
export function DateFieldSelect({
  label,
  value,
  fields,
  none,
  onChange,
}: {
  label: string;
  value: string;
  fields: Array<[string, Pick<DatabaseField, 'name'>]>;
  none?: string;
  onChange(fieldId: string): void;
}) {
  return (
    <label>
      {label}
      <select value={value} onChange={(e) => onChange(e.target.value)}>
        {none !== undefined ? <option value="">{none}</option> : !value && <option value="">—</option>}
        {fields.map(([id, f]) => (
          <option key={id} value={id}>
            {f.name || id}
          </option>
        ))}
      </select>
    </label>
  );
}

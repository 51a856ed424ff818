import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MAIN_FIELD_ID, hasOptions, withNewOptions, type DatabaseConfig, type DatabaseField, type RowValue } from '../../../../schema/blocks/database';
import type { WireUser } from '../../../../schema/user';
import { newId } from '../../../../schema/ids';
import { showToast } from '../../../ui/Toast';
import type { DatabaseApi } from '../api';
import { CellContent, CellEditor, isEditableField, type EditorMove } from '../cells/cells';
import { writeCell } from '../cells/cellWrites';
import { TYPE_ICONS } from '../fields/FieldMenu';
import { cellOf, shownOf, useRowStore, type RowStore } from './rowStore';

export interface RowFieldsProps {
  rowId: string;
  databaseId: string;
  config: DatabaseConfig;
  editable: boolean;
  api: DatabaseApi;
  members: WireUser[];
  /** A field saved with a new option: the database block goes into the editor (or is just used). */
  saveField(fieldId: string, field: DatabaseField): Promise<boolean>;
  /** The store, for the realtime `cells` events of this row. */
  onStore?(store: RowStore | null): void;
}

/**
 * A row's fields as a list (label, value), above its page in the side peek and on the row's own
 * page: the same cells and editors as the grid, written the same way (one cell, its version,
 * conflicts merged). The row is held in a one-row store read with `GET row/{id}`.
 */
export function RowFields({ rowId, databaseId, config, editable, api, members, saveField, onStore }: RowFieldsProps) {
  const { t } = useTranslation('automation');
  const read = useCallback(async () => ({ rows: [await api.row(rowId)], count: 1, offset: 0, hasMoreNext: false }), [api, rowId]);
  const query = useMemo(() => ({}), []);
  const store = useRowStore(read, `${databaseId}:${rowId}`, query);
  const storeRef = useRef<RowStore | null>(null);
  if (storeRef.current !== store) {
    storeRef.current = store;
    onStore?.(store);
  }
  useEffect(() => store.setVisible(0, 0), [store]);
  const row = store.rowAt(0);
  const [editing, setEditing] = useState<{ fieldId: string; anchor: HTMLElement; base: { value: RowValue; version: number } } | null>(null);
  const fields = Object.entries(config.fields).filter(([id]) => id !== MAIN_FIELD_ID);
  const idPrefix = useId();

  const done = (value: RowValue | undefined, _move: EditorMove) => {
    const current = editing;
    setEditing(null);
    if (!current || value === undefined || !row) return;
    void writeCell({
      store,
      write: api.writeCell,
      rowId,
      fieldId: current.fieldId,
      field: config.fields[current.fieldId],
      value,
      base: current.base,
      onError: () => showToast(t('database.writeFailed'), 'error'),
    });
  };
  const addOption = async (fieldId: string, name: string) => {
    const field = config.fields[fieldId];
    if (!hasOptions(field)) return null;
    const option = { id: newId(), name };
    return (await saveField(fieldId, withNewOptions(field, [option]))) ? option.id : null;
  };

  if (!row) return <div className="db-row-fields is-loading">{store.error ? t('database.readFailed') : t('database.loading')}</div>;
  return (
    <dl className="db-row-fields" aria-label={t('database.rowFields')}>
      {fields.map(([fieldId, field], index) => {
        const value = shownOf(row, fieldId, field);
        const canEdit = editable && isEditableField(field);
        // The value's button is named by its field and the value it shows (what is seen is in its name: WCAG 2.5.3).
        const nameId = `${idPrefix}-${index}-name`;
        const valueId = `${idPrefix}-${index}-value`;
        return (
          <div key={fieldId} className="db-row-field">
            <dt>
              <span className="db-type-icon" aria-hidden>
                {TYPE_ICONS[field.type]}
              </span>
              <span id={nameId}>{field.name}</span>
            </dt>
            <dd>
              {field.type === 'checkbox' ? (
                <input
                  type="checkbox"
                  aria-label={field.name}
                  checked={value === true}
                  disabled={!canEdit}
                  onChange={() =>
                    void writeCell({
                      store,
                      write: api.writeCell,
                      rowId,
                      fieldId,
                      field,
                      value: value !== true,
                      base: { value: value ?? null, version: row.versions[fieldId] ?? 0 },
                      onError: () => showToast(t('database.writeFailed'), 'error'),
                    })
                  }
                />
              ) : (
                <button
                  type="button"
                  className="db-row-value"
                  disabled={!canEdit}
                  aria-labelledby={`${nameId} ${valueId}`}
                  onClick={(e) => setEditing({ fieldId, anchor: e.currentTarget, base: { value: value ?? null, version: row.versions[fieldId] ?? 0 } })}
                >
                  <span id={valueId} className="db-row-value-text">
                    {value === undefined || value === null || value === '' ? (
                      <span className="db-empty-value">{canEdit ? t('database.emptyValue') : '—'}</span>
                    ) : (
                      <CellContent field={field} fieldId={fieldId} value={value} databaseId={databaseId} />
                    )}
                  </span>
                </button>
              )}
            </dd>
          </div>
        );
      })}
      {editing && (
        <CellEditor
          // One editor per field: another field opened over one still open (a refused number stays
          // open) starts from its own value, not the text typed in the last.
          key={editing.fieldId}
          field={config.fields[editing.fieldId]}
          fieldId={editing.fieldId}
          value={cellOf(row, editing.fieldId)}
          anchor={editing.anchor}
          members={members}
          done={done}
          addOption={addOption}
          rowId={row.id}
          databaseId={databaseId}
        />
      )}
    </dl>
  );
}

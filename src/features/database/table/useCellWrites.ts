import { useCallback, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { MAIN_FIELD_ID, type DatabaseField, type RowValue } from '../../../../schema/blocks/database';
import type { WireRow } from '../../../../schema/database';
import { showToast } from '../../../ui/Toast';
import { CellHistory, changesOf } from '../cells/cellHistory';
import { onOwnWrite, writeCells, type CellWrite, type SendCells } from '../cells/cellWrites';
import { useDatabase } from '../context';
import type { GridColumn } from '../fields/columns';
import { cellOf, type RowStore } from '../rows/rowStore';

/**
 * A grid's cell writes and their undo history (docs/web-app.md «Table view»): a write of one
 * cell or many is one call; a cell whose last write is not answered yet is written after it, from
 * the version it made; a cell given an option whose field is still being saved, after the save.
 * Steps that wait for the server and undos run one at a time (`inTurn`).
 */
export function useCellWrites(store: RowStore) {
  const { t } = useTranslation('automation');
  const db = useDatabase();
  const { databaseId } = db;
  const failed = useCallback(() => showToast(t('database.writeFailed'), 'error'), [t]);
  /** A cell's write: `base` is what the cell held (and its version) when the edit started. */
  const jobOf = useCallback(
    (row: WireRow | { id: string }, column: GridColumn, value: RowValue, base?: { value: RowValue; version: number }): CellWrite => ({
      store,
      write: db.api.writeCell,
      rowId: row.id,
      fieldId: column.fieldId,
      field: column.field,
      value: column.fieldId === MAIN_FIELD_ID && value === null ? '' : value,
      base:
        base ?? ('versions' in row ? { value: cellOf(row, column.fieldId) ?? null, version: row.versions[column.fieldId] ?? 0 } : { value: null, version: 0 }),
      onError: failed,
      onTheirs: () => showToast(t('database.changedByOther'), 'info'),
    }),
    [store, db.api, failed, t],
  );
  // —— Undo: every edit, paste, clear, row added and rows deleted is a step (cellHistory.ts); writes of several cells are one call ——
  const history = useMemo(() => new CellHistory(), []);
  // Steps that wait for the server (a paste making rows, a row added, rows deleted) and undos and
  // redos run one at a time, in order: an undo pressed while a paste is still making its rows
  // undoes the paste, and a redo of a row's title right after the redo of the row waits for it.
  const turns = useRef<Promise<void>>(Promise.resolve());
  const inTurn = useCallback((work: () => Promise<void>) => {
    const next = turns.current.then(work);
    turns.current = next.catch(() => undefined);
    return next;
  }, []);
  const sendCells = useCallback<SendCells>((cells) => db.api.writeCells(databaseId, cells), [db.api, databaseId]);
  // Writes not answered yet, by cell: an undo waits for them (it must start from the versions they make).
  const inFlight = useRef(new Map<string, Promise<void>>());
  // Options made in a cell's editor, their fields still being saved: by field, the field as last
  // sent and the save (a second option of the same field is added to the first, after it).
  const optionSaves = useRef(new Map<string, { field: DatabaseField; saved: Promise<boolean> }>());
  const send = useCallback(
    (jobs: CellWrite[]) => {
      // A cell given an option whose field is still being saved is written after it (the server checks the value against the options).
      const waits = [...new Set(jobs.map((job) => job.fieldId))].flatMap((fieldId) => optionSaves.current.get(fieldId)?.saved ?? []);
      // A cell whose last write is not answered yet is written after it, from the version it makes (onOwnWrite).
      const earlier = [...new Set(jobs.flatMap((job) => inFlight.current.get(`${job.rowId} ${job.fieldId}`) ?? []))];
      const go = () => writeCells(earlier.length === 0 ? jobs : jobs.map(onOwnWrite), sendCells);
      const done =
        waits.length === 0 && earlier.length === 0
          ? go()
          : Promise.all([Promise.all(waits), ...earlier]).then(([saved]) => (saved.every(Boolean) ? go() : undefined));
      for (const job of jobs) {
        const key = `${job.rowId} ${job.fieldId}`;
        inFlight.current.set(key, done);
        void done.finally(() => inFlight.current.get(key) === done && inFlight.current.delete(key));
      }
    },
    [sendCells],
  );
  const writeStep = useCallback(
    (jobs: CellWrite[], span?: [number, number]) => {
      history.record({ cells: changesOf(jobs), span });
      send(jobs);
    },
    [history, send],
  );
  return { failed, jobOf, history, inTurn, inFlight, optionSaves, send, writeStep };
}

import { useMemo, type ClipboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { MAIN_FIELD_ID, hasOptions, withNewOptions, type DatabaseField, type RowValue, type SelectOption } from '../../../../schema/blocks/database';
import { textToValue, type NewRow, type WireRow } from '../../../../schema/database';
import { newId } from '../../../../schema/ids';
import { displayName } from '../../comments/userLookup';
import { showToast } from '../../../ui/Toast';
import { changesOf } from '../cells/cellHistory';
import { isEditableField } from '../cells/cells';
import { useDatabase } from '../context';
import type { GridColumn } from '../fields/columns';
import { shownOf, type RowStore } from '../rows/rowStore';
import { writeClipboardLater } from './clipboardLater';
import { copiedRange } from './copyCells';
import { parseTsv, planPaste, rangeOf, type GridSelection } from './gridModel';
import type { useCellWrites } from './useCellWrites';

export interface GridClipboardParts {
  store: RowStore;
  columns: GridColumn[];
  selection: GridSelection | null;
  /** The selection's range (null: none). */
  range: ReturnType<typeof rangeOf> | null;
  size: { rows: number; cols: number };
  writes: ReturnType<typeof useCellWrites>;
  /** The rows of a range: at once when they are in memory, else a promise of them. */
  rangeRows(r: { top: number; bottom: number }): Array<WireRow | undefined> | Promise<Array<WireRow | undefined>>;
  /** Clears the selected range (a cut). */
  clearRange(): void;
  setSelection(selection: GridSelection): void;
}

/**
 * The grid's clipboard, TSV both ways (docs/web-app.md «Table view»): a copy of the selected range
 * (rows beyond the loaded windows read first, the clipboard written when they come), a cut, and a
 * paste over the rows selected (by id, wherever they are when it is written): names that are no
 * option yet become options, rows past the last are made, all one step of the history.
 */
export function useGridClipboard({ store, columns, selection, range, size, writes, rangeRows, clearRange, setSelection }: GridClipboardParts) {
  const { t } = useTranslation('automation');
  const db = useDatabase();
  const { config, editable, databaseId } = db;
  const { failed, jobOf, history, inTurn, send } = writes;
  const count = store.count ?? 0;
  const names = useMemo(
    () => ({
      userName: (id: string) =>
        displayName(
          db.members.find((m) => m.id === id),
          id,
        ),
    }),
    [db.members],
  );
  const onCopy = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    if (!range) return;
    event.preventDefault();
    const r = range;
    const copied = (rows: Array<WireRow | undefined>) =>
      copiedRange(
        rows
          .filter((row): row is WireRow => !!row)
          .map((row) =>
            columns
              .slice(r.left, r.right + 1)
              .map((column) => [column.field, shownOf(row, column.fieldId, column.field)] as [DatabaseField, RowValue | undefined]),
          ),
        names,
      );
    const rows = rangeRows(r);
    if (Array.isArray(rows)) {
      const { text, html } = copied(rows);
      event.clipboardData.setData('text/plain', text);
      event.clipboardData.setData('text/html', html);
      return;
    }
    // Rows beyond the loaded windows: the clipboard is written when they are read (the async
    // Clipboard API, asked for within this copy, so the browser still counts it as the person's).
    void writeClipboardLater(rows.then(copied)).then(
      () => rows.then((all) => showToast(t('database.rangeCopied', { count: all.filter(Boolean).length }), 'info')),
      () => showToast(t('database.copyFailed'), 'error'),
    );
  };
  const onCut = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    onCopy(event);
    clearRange();
  };
  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    if (!selection || !editable) return;
    event.preventDefault();
    const text = event.clipboardData.getData('text/plain');
    const at = selection;
    // The rows pasted over are those selected now (by id), wherever they are when the paste is written.
    const plan = planPaste(parseTsv(text), at, size);
    const ids = new Map(plan.cells.flatMap((c) => (c.row < count ? [[c.row, store.rowAt(c.row)?.id] as const] : [])));
    void inTurn(() => pasteText(plan, ids, at));
  };

  const pasteText = async (plan: ReturnType<typeof planPaste>, ids: ReadonlyMap<number, string | undefined>, at: GridSelection) => {
    // Names that are no option yet become options: each field is saved once, before the cells.
    const added = new Map<string, SelectOption[]>();
    const addOption = (fieldId: string) => (name: string) => {
      const list = added.get(fieldId) ?? [];
      const same = list.find((o) => o.name.toLocaleLowerCase('ru') === name.toLocaleLowerCase('ru'));
      if (same) return same.id;
      const option = { id: newId(), name, color: 'default' as const };
      added.set(fieldId, [...list, option]);
      return option.id;
    };
    const userId = (name: string) =>
      db.members.find((m) => displayName(m, m.email).toLocaleLowerCase('ru') === name.toLocaleLowerCase('ru') || m.email.toLowerCase() === name.toLowerCase())
        ?.id;
    const writes: Array<{ row: number; col: number; value: RowValue }> = [];
    let problems = 0;
    for (const cell of plan.cells) {
      const column = columns[cell.col];
      if (!isEditableField(column.field)) continue;
      const parsed = textToValue(column.field, cell.text, {
        addOption: hasOptions(column.field) ? addOption(column.fieldId) : undefined,
        userId,
        localTime: true,
      });
      if ('problem' in parsed) problems += 1;
      else writes.push({ row: cell.row, col: cell.col, value: parsed.value });
    }
    for (const [fieldId, options] of added) {
      const field = config.fields[fieldId];
      if (!hasOptions(field)) continue;
      const ok = await db.saveField(fieldId, withNewOptions(field, options));
      if (!ok) return;
    }
    const existing = writes.filter((w) => w.row < count);
    const fresh = writes.filter((w) => w.row >= count);
    // The rows pasted over: a long paste reaches rows not in memory, read first.
    const span: [number, number] | undefined =
      existing.length > 0 ? [Math.min(...existing.map((w) => w.row)), Math.max(...existing.map((w) => w.row))] : undefined;
    let over: Array<WireRow | undefined> = [];
    if (span) {
      try {
        over = await rangeRows({ top: span[0], bottom: span[1] });
      } catch {
        failed();
        return;
      }
    }
    const overById = new Map(over.flatMap((r) => (r ? [[r.id, r] as const] : [])));
    const jobs = existing.flatMap((w) => {
      const id = ids.get(w.row);
      const row = id ? (store.rowById(id) ?? overById.get(id)) : span ? over[w.row - span[0]] : undefined;
      return row ? [jobOf(row, columns[w.col], w.value)] : [];
    });
    send(jobs);
    // One step of the history: the cells written and the rows made (an undo deletes those).
    const made: string[] = [];
    if (plan.newRows > 0) {
      const rows: NewRow[] = Array.from({ length: plan.newRows }, () => ({ values: {} }));
      for (const w of fresh) {
        const target = rows[w.row - count];
        const fieldId = columns[w.col].fieldId;
        if (fieldId === MAIN_FIELD_ID) target.title = typeof w.value === 'string' ? w.value : '';
        else if (w.value !== null) target.values![fieldId] = w.value;
      }
      try {
        made.push(...(await db.api.createRows(databaseId, rows)).map((row) => row.id));
        await store.refresh();
      } catch {
        failed();
      }
    }
    history.record({ cells: changesOf(jobs), added: made, span });
    if (problems > 0) showToast(t('database.pasteSkipped', { count: problems }), 'info');
    const r = rangeOf(at);
    setSelection({
      anchor: { row: r.top, col: r.left },
      focus: { row: Math.max(...plan.cells.map((c) => c.row), r.top), col: Math.max(...plan.cells.map((c) => c.col), r.left) },
    });
  };

  return { onCopy, onCut, onPaste };
}

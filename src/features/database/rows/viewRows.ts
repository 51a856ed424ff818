import { useCallback, useEffect, useMemo } from 'react';
import type { DatabaseLayout } from '../../../../schema/blocks/database';
import { DATABASE_WINDOW, viewRowsQuery, type RowsQuery } from '../../../editor/blocks/databaseRows';
import { useDatabase } from '../context';
import { useRowStore, type RowStore } from './rowStore';

/**
 * The rows a Table-like view shows (the Table, the Timeline's table pane): a windowed store of the
 * view's filter and sorts and the search typed, its first window the one asked for early
 * (`earlyRows`), told to the database block (`onStore`) while shown. `variant` tells apart stores
 * of one view that are kept apart (a grouping, the timeline).
 */
export function useViewRows(layout: DatabaseLayout, search: string, variant: string, onStore?: (store: RowStore | null) => void): RowStore {
  const { api: rowsApi, databaseId } = useDatabase();
  const read = useCallback((query: RowsQuery, signal: AbortSignal, first?: boolean) => rowsApi.rows(databaseId, query, signal, first), [rowsApi, databaseId]);
  const query = useMemo(
    () => ({ ...viewRowsQuery(layout), ...(search ? { search } : {}) }),
    [layout.uid, layout.filter, layout.sorts, layout.type, layout.cardPreview, search], // eslint-disable-line react-hooks/exhaustive-deps
  );
  const store = useRowStore(read, `${databaseId}:${layout.uid}:${variant}`, query, () =>
    rowsApi.earlyRows(databaseId, { ...query, offset: 0, limit: DATABASE_WINDOW }),
  );
  useEffect(() => {
    onStore?.(store);
    return () => onStore?.(null);
  }, [store, onStore]);
  return store;
}

import { CURSOR_SEPARATOR, DEFAULT_PAGE_SIZE, makeCursor } from '../schema/query';
import { ERROR_CODES } from '../schema/errors';
import { AppError } from './errors';

/** A forged or stale cursor: it names nothing in this list. */
const badCursor = () => new AppError(400, ERROR_CODES.badRequest, 'the cursor does not point into this list');

/**
 * One page of an already ordered, already authorized list: the items after the cursor's item,
 * `limit` of them, and whether more follow. The cursor must be `id::contentType` of an item in
 * the list, else 400 (so a cursor cannot probe for ids the caller may not see).
 */
export function pageOf<T extends { id: string }>(
  items: readonly T[],
  contentType: string,
  cursor: string | undefined,
  limit = DEFAULT_PAGE_SIZE,
): { data: T[]; meta: { count: number; hasMoreNext: boolean; nextCursor: string | null } } {
  let start = 0;
  if (cursor !== undefined) {
    const [id, type, ...rest] = cursor.split(CURSOR_SEPARATOR);
    if (!id || type !== contentType || rest.length > 0) throw badCursor();
    const index = items.findIndex((item) => item.id === id);
    if (index < 0) throw badCursor();
    start = index + 1;
  }
  const data = items.slice(start, start + limit);
  const hasMoreNext = start + limit < items.length;
  const last = data[data.length - 1];
  return {
    data,
    meta: { count: items.length, hasMoreNext, nextCursor: hasMoreNext && last ? makeCursor(last.id, contentType) : null },
  };
}

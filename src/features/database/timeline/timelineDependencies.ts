import { DATABASE_LIMITS, type FilterGroup } from '../../../../schema/blocks/database';
import { CELLS_PER_REQUEST } from '../../../../schema/database';
import type { Span } from './timelineScale';

/**
 * A timeline's dependencies («blocked by», the view's relation field: docs/web-app.md «Timeline
 * view»): a row starts after the rows it is blocked by end. When a bar moves or stretches so that
 * it ends on or after the start of a row it blocks, that row is shifted to start the day after
 * (keeping its length), and so on down the chain — each row once, whatever cycle the relation
 * holds; a row is never pulled earlier. Spans are day numbers, both ends inclusive.
 */

export interface Planned extends Span {
  id: string;
  /** The rows this one is blocked by. */
  blockedBy: readonly string[];
}

/** The rows to shift (their new spans) once `moved` has its new span; rows not in `rows` are not known and not shifted. */
export function shiftDependants(moved: Planned, rows: ReadonlyMap<string, Planned>): Map<string, Span> {
  const blocks = new Map<string, string[]>();
  for (const row of rows.values()) for (const blocker of row.blockedBy) blocks.set(blocker, [...(blocks.get(blocker) ?? []), row.id]);
  const shifted = new Map<string, Span>();
  const spanOf = (id: string): Span | undefined => (id === moved.id ? moved : (shifted.get(id) ?? rows.get(id)));
  const queue = [moved.id];
  const seen = new Set([moved.id]);
  while (queue.length > 0) {
    const id = queue.shift()!;
    for (const dependant of blocks.get(id) ?? []) {
      if (seen.has(dependant)) continue;
      const row = rows.get(dependant);
      if (!row) continue;
      // It must start after every one of its blockers ends (those known), the one moved included.
      const latestEnd = Math.max(
        ...row.blockedBy
          .map(spanOf)
          .filter((s): s is Span => s !== undefined)
          .map((s) => s.end),
      );
      if (row.start > latestEnd) continue;
      const delta = latestEnd + 1 - row.start;
      shifted.set(dependant, { start: row.start + delta, end: row.end + delta });
      seen.add(dependant);
      queue.push(dependant);
    }
  }
  return shifted;
}

/** The arrows between bars drawn: from a blocker's end to the start of the row it blocks (both drawn). */
export function dependencyArrows(drawn: ReadonlyMap<string, { blockedBy: readonly string[] }>): Array<[from: string, to: string]> {
  const arrows: Array<[string, string]> = [];
  for (const [id, row] of drawn) for (const blocker of row.blockedBy) if (blocker !== id && drawn.has(blocker)) arrows.push([blocker, id]);
  return arrows;
}

/** Rows shifted by one move at most, the moved one's included: their start and end cells fit one write. */
export const MAX_SHIFTED = CELLS_PER_REQUEST / 2;

/**
 * Every row that depends on `rootId`, however far down the chain, as the database holds them (not
 * only the rows a timeline has read): round by round, the rows whose dependency field names any
 * row of the round before (`read` with a filter of up to 20 «contains» rules), each row once, at
 * most `max`. `read` answers up to a window of rows; `capped` when rows may have been left out.
 */
export async function readDependants<Row extends { id: string }>(
  rootId: string,
  dependencyFieldId: string,
  read: (filter: FilterGroup) => Promise<{ rows: Row[]; count: number }>,
  max: number,
): Promise<{ rows: Row[]; capped: boolean }> {
  const found = new Map<string, Row>();
  let round = [rootId];
  let capped = false;
  while (round.length > 0 && !capped) {
    const next: string[] = [];
    for (let at = 0; at < round.length && !capped; at += DATABASE_LIMITS.filterRules) {
      const rules = round.slice(at, at + DATABASE_LIMITS.filterRules).map((id) => ({ fieldId: dependencyFieldId, condition: 'contains' as const, value: id }));
      const answer = await read({ op: 'or', rules });
      if (answer.count > answer.rows.length) capped = true;
      for (const row of answer.rows) {
        if (row.id === rootId || found.has(row.id)) continue;
        if (found.size >= max) {
          capped = true;
          break;
        }
        found.set(row.id, row);
        next.push(row.id);
      }
    }
    round = next;
  }
  return { rows: [...found.values()], capped };
}

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
      const latestEnd = Math.max(...row.blockedBy.map(spanOf).filter((s): s is Span => s !== undefined).map((s) => s.end));
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

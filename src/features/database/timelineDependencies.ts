/**
 * A timeline's dependencies («blocked by», a relation field of the view: docs/web-app.md
 * «Timeline view»): a row starts after the rows it is blocked by end. When a bar moves or
 * stretches so that it ends on or after the start of a row it blocks, that row is shifted to
 * start the day after (keeping its length), and so on down the chain — each row once, whatever
 * cycle the relation holds. Days are YYYY-MM-DD, both ends inclusive (as a date range's are).
 */

export interface Span {
  start: string;
  end: string;
}

export interface Planned extends Span {
  id: string;
  /** The rows this one is blocked by. */
  blockedBy: readonly string[];
}

const DAY_MS = 86_400_000;
const dayNumber = (day: string) => Math.round(Date.parse(`${day}T00:00:00Z`) / DAY_MS);
const dayOf = (n: number) => new Date(n * DAY_MS).toISOString().slice(0, 10);

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
    const blocker = spanOf(id)!;
    for (const dependant of blocks.get(id) ?? []) {
      if (seen.has(dependant)) continue;
      const row = rows.get(dependant);
      if (!row) continue;
      // It must start after every one of its blockers ends (those known), the one moved included.
      const latestEnd = Math.max(...row.blockedBy.map((b) => spanOf(b)).filter((s): s is Span => s !== undefined).map((s) => dayNumber(s.end)), dayNumber(blocker.end));
      const start = dayNumber(row.start);
      if (start > latestEnd) continue;
      const delta = latestEnd + 1 - start;
      shifted.set(dependant, { start: dayOf(start + delta), end: dayOf(dayNumber(row.end) + delta) });
      seen.add(dependant);
      queue.push(dependant);
    }
  }
  return shifted;
}

/** Times are stored as ISO-8601 text (sortable, same in both dialects). */
export const nowIso = (): string => new Date().toISOString();
export const isoIn = (ms: number): string => new Date(Date.now() + ms).toISOString();

/** `now`, or a millisecond after `last` when `now` is not later: rows stamped in a row keep their order in time. */
export function timeAfter(now: string, last: string | undefined | null): string {
  if (!last || now > last) return now;
  return new Date(Date.parse(last) + 1).toISOString();
}

/** The current time, made strictly later than `last`. */
export const nowAfter = (last: string | undefined | null): string => timeAfter(nowIso(), last);

/** Times are stored as ISO-8601 text (sortable, same in both dialects). */
export const nowIso = (): string => new Date().toISOString();
export const isoIn = (ms: number): string => new Date(Date.now() + ms).toISOString();

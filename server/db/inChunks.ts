/** Ids in one `IN (…)` at most, by default: well under SQLite's and PostgreSQL's limits on bound parameters. */
const CHUNK_SIZE = 500;

/** Splits a list into pieces small enough for one `IN (…)` (or one multi-row insert, with a smaller `size`). */
export function inChunks<T>(items: readonly T[], size = CHUNK_SIZE): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

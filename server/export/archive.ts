import { unzipSync } from 'fflate';

/**
 * Reading an uploaded zip for import (issue 18, docs/import-export.md «Importing»), within
 * bounds: a zip says how big each of its files is before any is unpacked, and those sizes are
 * counted against a budget shared by the zip and the zips inside it (a Notion export comes as a
 * zip of zips), so a small upload cannot unpack into gigabytes or millions of files.
 */

export class ImportError extends Error {}

/** At most this many files, of at most this many bytes unpacked, in an import's zips all together; zips at most this deep inside one another. */
export const ARCHIVE_LIMITS = { entries: 20_000, bytes: 1024 * 1024 * 1024, depth: 3 } as const;

/** What is left of the limits while an import's zips are unpacked. */
export interface ArchiveBudget {
  entries: number;
  bytes: number;
  readonly limits: { entries: number; bytes: number; depth: number };
}

export function archiveBudget(limits: { entries: number; bytes: number; depth: number } = ARCHIVE_LIMITS): ArchiveBudget {
  return { entries: limits.entries, bytes: limits.bytes, limits };
}

/**
 * A zip's files by path, each counted before it is unpacked (the size its header gives: fflate
 * unpacks into a buffer of that size, never more). Throws ImportError for a zip that cannot be
 * read or that would go over the budget.
 */
export function unzipWithin(bytes: Uint8Array, budget: ArchiveBudget): Record<string, Uint8Array> {
  const size = (bytes: number) => (bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MB` : `${bytes} bytes`);
  const over = (what: string) =>
    new ImportError(`the zip is too big to import: ${what} (at most ${budget.limits.entries} files and ${size(budget.limits.bytes)} unpacked)`);
  try {
    return unzipSync(bytes, {
      filter: (file) => {
        budget.entries -= 1;
        budget.bytes -= file.originalSize;
        if (budget.entries < 0) throw over(`more than ${budget.limits.entries} files`);
        if (budget.bytes < 0) throw over(`more than ${size(budget.limits.bytes)} unpacked`);
        return true;
      },
    });
  } catch (error) {
    if (error instanceof ImportError) throw error;
    throw new ImportError('the zip cannot be read');
  }
}

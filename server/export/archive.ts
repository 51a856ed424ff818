import path from 'node:path';
import { unzipSync } from 'fflate';

/**
 * Reading an uploaded zip for import (issue 18, docs/import-export.md «Zips within bounds»),
 * within bounds: a zip says in its central directory how big each of its files is, and all of
 * those sizes are counted against a budget shared by the zip and the zips inside it (a Notion
 * export comes as a zip of zips) before a single file is unpacked, so a small upload cannot
 * unpack into gigabytes or millions of files. Entry names become plain relative paths
 * (`entryPath`): an absolute, a drive-lettered or a UNC name cannot send a walk up its folders
 * past the root (issue 33: `/abs-x/evil.md` looped for ever).
 */

export class ImportError extends Error {
  /** Refused for its size (the archive limits, the reader's memory): 422 `import.too_big`, else 422 `validation_failed`. */
  constructor(
    message: string,
    readonly tooBig = false,
  ) {
    super(message);
  }
}

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
 * A zip entry's name as a relative path with `/` between its parts: backslashes are separators,
 * a drive (`C:`), a UNC host's leading slashes, a leading `/`, `.` and empty parts go, and `..`
 * climbs no higher than the zip's top. Null for a name that names no file (a folder entry, a lone
 * `/`, nothing but dots and slashes).
 */
export function entryPath(name: string): string | null {
  if (/[\\/]$/.test(name)) return null;
  const parts: string[] = [];
  for (const part of name.replace(/^[a-z]:/i, '').split(/[\\/]/)) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return parts.length ? parts.join('/') : null;
}

/**
 * The folders that hold `dir` (a relative path, as `entryPath` gives), nearest first, itself
 * included: `a/b` → `a/b`, `a`. Ends at the top whatever the path looks like (a walk up by
 * `dirname` alone never ends at `/`).
 */
export function* foldersUp(dir: string): Generator<string> {
  for (let at = dir; at !== '.' && at !== '' && at !== '/';) {
    yield at;
    const up = path.posix.dirname(at);
    if (up === at) return;
    at = up;
  }
}

const sizeText = (bytes: number) => (bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MB` : `${bytes} bytes`);

/**
 * A zip's files by path (`entryPath`; of two entries with the same path the first is kept), all
 * counted before any is unpacked: the central directory is read once for the files' count and the
 * sizes they declare, and only when those fit the budget is it read again to unpack them. fflate
 * unpacks each file into a buffer of its declared size, never more (a file holding more than it
 * declares comes out cut at that size), so the bytes unpacked never pass what was counted.
 * Throws ImportError for a zip that cannot be read or that would go over the budget.
 */
export function unzipWithin(bytes: Uint8Array, budget: ArchiveBudget): Record<string, Uint8Array> {
  const over = (what: string) =>
    new ImportError(`the zip is too big to import: ${what} (at most ${budget.limits.entries} files and ${sizeText(budget.limits.bytes)} unpacked)`, true);
  try {
    let entries = 0;
    let unpacked = 0;
    // The first reading unpacks nothing: the filter only counts.
    unzipSync(bytes, {
      filter: (file) => {
        entries += 1;
        // A stored file is copied at the size its data takes (several entries may point at the same data).
        unpacked += Math.max(file.originalSize, file.size);
        return false;
      },
    });
    budget.entries -= entries;
    budget.bytes -= unpacked;
    if (budget.entries < 0) throw over(`more than ${budget.limits.entries} files`);
    if (budget.bytes < 0) throw over(`more than ${sizeText(budget.limits.bytes)} unpacked`);
    const files: Record<string, Uint8Array> = Object.create(null);
    const raw = unzipSync(bytes, { filter: (file) => entryPath(file.name) !== null });
    for (const [name, content] of Object.entries(raw)) {
      const at = entryPath(name)!;
      if (!(at in files)) files[at] = content;
    }
    return files;
  } catch (error) {
    if (error instanceof ImportError) throw error;
    throw new ImportError('the zip cannot be read');
  }
}

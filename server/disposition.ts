import { create } from 'content-disposition';

/**
 * The Content-Disposition header of a download named `fileName` (RFC 6266, written by the
 * `content-disposition` package): `filename=` a plain-ASCII stand-in (other characters, line
 * breaks among them, and the `%` of what looks like a percent-escape become `_`; quotes are
 * escaped) and, when the name is not that, the exact name as `filename*=UTF-8''…`.
 */
export function contentDispositionOf(fileName: string, type: 'inline' | 'attachment' = 'attachment'): string {
  return create(fileName, { type, fallback: fileName.replace(/[^\x20-\x7e]|%(?=[0-9A-Fa-f]{2})/g, '_') });
}

import type { WireElement } from '../../../schema/element';
import { api, ApiRequestError } from '../../app/api';
import { failureReason, rateLimitMessage, type Translate } from '../../app/errors';
import { ERROR_CODES } from '../../../schema/errors';
import { type ImportProblem } from '../../../schema/importProblems';

/** What an import made (`POST import`, docs/import-export.md «Importing»). */
export interface ImportAnswer {
  page: WireElement | null;
  pages: number;
  blocks: number;
  files: number;
  problems: ImportProblem[];
}

/** Where an import goes: under a page, or at the top of a section of a workspace. */
export type ImportPlace = { parentId: string } | { section: 'private' | 'all'; workspaceId: string };

/** What the import picker offers: our JSON export, Markdown or HTML — a zip, export.json, a .md, an .html. */
export const IMPORT_ACCEPT = '.zip,.json,.md,.markdown,.html,.htm,application/zip,application/json,text/markdown,text/html';

/** Uploads a file to be imported (our JSON export, Markdown, HTML, …) at a place. */
export async function importInto(place: ImportPlace, file: File): Promise<ImportAnswer> {
  const form = new FormData();
  if ('parentId' in place) form.append('parentId', place.parentId);
  else form.append('section', place.section);
  form.append('file', file, file.name);
  return (
    await api<ImportAnswer>('/api/v3/spaces/import', { method: 'POST', body: form, ...('workspaceId' in place ? { workspaceId: place.workspaceId } : {}) })
  ).data;
}

/** Why an import was refused, in words: too many at once (with the wait), a file over the upload limit, an archive beyond the import's limits, else not a file we read. */
export function importFailureText(t: Translate, error: unknown): string {
  const limited = rateLimitMessage(t, error);
  if (limited) return limited;
  if (error instanceof ApiRequestError && error.status === 413) return t('export.importTooLarge');
  if (failureReason(error) === ERROR_CODES.importTooBig) return t('errors.codes.importTooBig');
  return t('export.importFailed');
}

/** Asks the person for a file (the browser's picker); null when they close it. */
export function pickFile(accept: string): Promise<File | null> {
  return new Promise((resolve) => {
    const input = document.createElement('input');
    input.type = 'file';
    input.accept = accept;
    input.addEventListener('change', () => resolve(input.files?.[0] ?? null), { once: true });
    input.addEventListener('cancel', () => resolve(null), { once: true });
    input.click();
  });
}

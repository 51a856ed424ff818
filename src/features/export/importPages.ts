import type { WireElement } from '../../../schema/element';
import { api } from '../../app/api';

/** What an import made (`POST import`, docs/import-export.md «Importing»). */
export interface ImportAnswer {
  page: WireElement | null;
  pages: number;
  blocks: number;
  files: number;
  problems: Array<{ page: string; message: string }>;
}

/** Uploads our JSON export, a Notion export or Markdown (a zip, export.json, a .md) to be made under `parentId`. */
export async function importUnder(parentId: string, file: File): Promise<ImportAnswer> {
  const form = new FormData();
  form.append('parentId', parentId);
  form.append('file', file, file.name);
  return (await api<ImportAnswer>('/api/v3/spaces/import', { method: 'POST', body: form })).data;
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

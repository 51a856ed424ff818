import type { BlockElementBase } from '../../../schema/slate';
import { z } from 'zod';
import { escapeHtml } from '../../../schema/html';
import { MIME_TYPE_PATTERN } from '../../../schema/file';
import type { BlockDefinition } from '../../../schema/blocks/definition';
import { escapeMarkdown } from '../../../schema/markdown/write';

/** A file (void): its uploaded file, or null while empty or uploading. */
export interface FileElement extends BlockElementBase, FileData {
  type: 'fileBlock';
}

/**
 * A file uploaded to the page (docs/api/files.md). `remoteData` is what the server keeps;
 * while a file is uploading the block stays empty (remoteData null) and the upload's progress
 * lives outside the document, in the editor's upload store (src/editor/upload.ts), keyed by the
 * block uid: a File and its progress are never on the wire and never in the undo history.
 */
export const remoteFileSchema = z
  .object({
    fileId: z
      .string()
      .min(1)
      .max(64)
      .regex(/^[A-Za-z0-9_-]+$/),
    title: z.string().min(1).max(255),
    size: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    mimeType: z.string().max(200).regex(MIME_TYPE_PATTERN),
  })
  .strict();
export type RemoteFile = z.infer<typeof remoteFileSchema>;

export const fileDataSchema = z.object({ remoteData: remoteFileSchema.nullable() }).strict();
export type FileData = z.infer<typeof fileDataSchema>;

/** Where a file's bytes are read (works for page files for whoever may read the page). */
export function fileUrl(fileId: string): string {
  return `/api/file/${encodeURIComponent(fileId)}`;
}

const UNITS = ['Б', 'КБ', 'МБ', 'ГБ', 'ТБ'] as const;

/** A size in bytes as people read it, with Russian units: 512 Б, 1,5 КБ, 12 МБ. */
export function formatFileSize(bytes: number): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const rounded = unit === 0 || value >= 10 ? Math.round(value) : Math.round(value * 10) / 10;
  // 1023.96 КБ rounds to 1024: show it as 1 МБ.
  if (rounded >= 1024 && unit < UNITS.length - 1) return `1 ${UNITS[unit + 1]}`;
  return `${String(rounded).replace('.', ',')} ${UNITS[unit]}`;
}

/** A copy; an absent value (Slate drops properties set to null) is null. */
export function copyRemoteFile(remote: RemoteFile | null | undefined): RemoteFile | null {
  return remote ? { fileId: remote.fileId, title: remote.title, size: remote.size, mimeType: remote.mimeType } : null;
}

/** The data attributes a copied file or image carries, so a paste inside the app restores it. */
export function remoteFileAttributes(remote: RemoteFile): string {
  return `data-file-id="${escapeHtml(remote.fileId)}" data-size="${remote.size}" data-mime-type="${escapeHtml(remote.mimeType)}"`;
}

/** Reads the attributes written by remoteFileAttributes back; null when they do not make a valid file. */
export function readRemoteFileAttributes(element: Element, title: string | null): RemoteFile | null {
  const result = remoteFileSchema.safeParse({
    fileId: element.getAttribute('data-file-id'),
    title: title?.trim() || null,
    size: Number(element.getAttribute('data-size')),
    mimeType: element.getAttribute('data-mime-type'),
  });
  return result.success ? result.data : null;
}

/** A file block: shortcut `/file`; empty until a file is uploaded into it. */
export const fileBlock: BlockDefinition<'file', FileData, FileElement> = {
  wireType: 'file',
  slateType: 'fileBlock',
  dataSchema: fileDataSchema,
  shortcuts: ['/file'],
  menuGroup: 'media',
  searchText: (data) => data.remoteData?.title ?? '',
  isVoid: true,
  defaultData: () => ({ remoteData: null }),
  canonicalize: (data) => ({ remoteData: copyRemoteFile(data.remoteData) }),
  toSlateFields: (data) => ({ children: [{ text: '' }], remoteData: copyRemoteFile(data.remoteData) }),
  toWireData: (element) => {
    if (element.type !== 'fileBlock') throw new Error(`${element.type} is not a file element`);
    return { remoteData: copyRemoteFile(element.remoteData) };
  },
  markdown: {
    serialize: ({ remoteData }, md) => (remoteData ? [`[${escapeMarkdown(remoteData.title)}](${md.file(remoteData.fileId, remoteData.title)})`] : []),
  },
  html: {
    serialize: (data) => {
      const remote = data.remoteData;
      if (!remote) return '';
      const title = escapeHtml(remote.title);
      return `<a href="${escapeHtml(fileUrl(remote.fileId))}" download="${title}" ${remoteFileAttributes(remote)}>${title}</a>`;
    },
    parse: [
      {
        selector: 'a[data-file-id]',
        read: (element) => {
          const remote = readRemoteFileAttributes(element, element.getAttribute('download') || element.textContent);
          return remote ? { remoteData: remote } : null;
        },
      },
    ],
  },
};

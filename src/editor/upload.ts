import { useCallback, useSyncExternalStore } from 'react';
import { Editor, Element, Transforms } from 'slate';
import { MIME_TYPE_PATTERN, cleanFileName } from '../../schema/file';
import { PAGE_HEADING_PREFIX, type RemoteFile } from '../../schema/blocks';
import type { BlockElement, FileElement, ImageElement } from '../../schema/slate';
import { ApiRequestError, api } from '../app/api';
import { failureIn, type FailureReason } from '../app/errors';

/** The answer of POST /api/file/upload_url (docs/api/files.md). */
export interface UploadTicket {
  id: string;
  uploadUrl: string;
  fields: Record<string, string>;
  fileField: string;
  expiresAt: string;
}

export interface UploadOptions {
  /** Called with the share of bytes sent, 0–1 (XMLHttpRequest upload progress). */
  onProgress?(share: number): void;
  signal?: AbortSignal;
}

/** The MIME type to declare: the browser's, when it is a plain type/subtype; otherwise octet-stream. */
export function declaredMimeType(file: File): string {
  const type = file.type.toLowerCase().split(';')[0].trim();
  return MIME_TYPE_PATTERN.test(type) ? type : 'application/octet-stream';
}

function postForm(url: string, form: FormData, options: UploadOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.setRequestHeader('X-App-Type', 'Web');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) options.onProgress?.(Math.min(1, event.loaded / event.total));
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        options.onProgress?.(1);
        resolve();
        return;
      }
      let code: string | undefined;
      let message = xhr.statusText || `HTTP ${xhr.status}`;
      try {
        const payload = JSON.parse(xhr.responseText) as { errors?: { code?: string; message?: string }[] };
        code = payload.errors?.[0]?.code;
        message = payload.errors?.[0]?.message ?? message;
      } catch {
        // Not JSON: keep the status text.
      }
      reject(new ApiRequestError(xhr.status, code, message));
    };
    xhr.onerror = () => reject(new ApiRequestError(undefined, undefined, 'network error'));
    xhr.onabort = () => reject(new ApiRequestError(undefined, undefined, 'upload aborted'));
    if (options.signal) {
      if (options.signal.aborted) {
        reject(new ApiRequestError(undefined, undefined, 'upload aborted'));
        return;
      }
      options.signal.addEventListener('abort', () => xhr.abort(), { once: true });
    }
    xhr.send(form);
  });
}

/** The two steps of docs/api/files.md: ask for an upload URL, then send the multipart form to it with progress events. */
async function upload(file: File, name: string, body: Record<string, unknown>, options: UploadOptions): Promise<UploadTicket> {
  const { data: ticket } = await api<UploadTicket>('/api/file/upload_url', {
    method: 'POST',
    body: { ...body, name, mimeType: declaredMimeType(file), size: file.size },
    signal: options.signal,
  });
  const form = new FormData();
  for (const [key, value] of Object.entries(ticket.fields ?? {})) form.append(key, value);
  form.append(ticket.fileField || 'file', file, name);
  await postForm(ticket.uploadUrl, form, options);
  return ticket;
}

/** Uploads a file to a page. Resolves with the block's remoteData. */
export async function uploadFile(pageId: string, file: File, options: UploadOptions = {}): Promise<RemoteFile> {
  const title = cleanFileName(file.name) || 'file';
  const ticket = await upload(file, title, { pageId }, options);
  return { fileId: ticket.id, title, size: file.size, mimeType: declaredMimeType(file) };
}

/** Image types a public upload (avatars) may have (docs/api/files.md). */
export const PUBLIC_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

/**
 * A public upload (an avatar: a user's or a workspace's; docs/api/files.md), with progress:
 * resolves with the path to store as `avatar_url` / `avatar`.
 */
export async function uploadPublicImage(file: File, options: UploadOptions = {}): Promise<string> {
  const ticket = await upload(file, cleanFileName(file.name) || 'avatar', { public: true }, options);
  return `/api/file/${ticket.id}`;
}

/**
 * Upload state of a block, kept outside the document (the File and its progress are editor-only:
 * never on the wire, never in the undo history). Keyed by block uid; a block whose upload is not
 * running or failed has no entry.
 */
export type UploadState = { status: 'uploading'; fileName: string; progress: number } | { status: 'failed'; fileName: string; error: UploadError };

/** Why an upload failed, as the view explains it. */
export type UploadError = 'tooLarge' | 'quotaExceeded' | 'noAccess' | 'inTrash' | 'notAnImage' | 'network' | 'failed';

const states = new Map<string, UploadState>();
const listeners = new Map<string, Set<() => void>>();

function setState(uid: string, state: UploadState | undefined) {
  if (state) states.set(uid, state);
  else states.delete(uid);
  listeners.get(uid)?.forEach((listener) => listener());
}

/** Whether a file is still being uploaded (leaving the page now would lose it: the block gets its file only when the upload ends). */
export function uploadsRunning(): boolean {
  for (const state of states.values()) if (state.status === 'uploading') return true;
  return false;
}

/** Resolves when no upload is running any more. */
export async function uploadsSettled(): Promise<void> {
  while (uploadsRunning()) await new Promise((resolve) => setTimeout(resolve, 100));
}

export function getUploadState(uid: string): UploadState | undefined {
  return states.get(uid);
}

export function clearUploadState(uid: string) {
  if (states.get(uid)?.status !== 'uploading') setState(uid, undefined);
}

function subscribe(uid: string, listener: () => void): () => void {
  let set = listeners.get(uid);
  if (!set) listeners.set(uid, (set = new Set()));
  set.add(listener);
  return () => {
    set.delete(listener);
    if (set.size === 0) listeners.delete(uid);
  };
}

/** The upload state of one block; re-renders only that block's view. */
export function useUploadState(uid: string): UploadState | undefined {
  const subscribeToBlock = useCallback((listener: () => void) => subscribe(uid, listener), [uid]);
  const read = () => states.get(uid);
  // The server's drawing of a page (src/ssr) has no uploads under way: the same read, empty there.
  return useSyncExternalStore(subscribeToBlock, read, read);
}

/** An upload's failures by the server's code (or its status's). */
const UPLOAD_ERRORS: Partial<Record<FailureReason, UploadError>> = {
  network: 'network',
  // The workspace's storage is full (413 too, but not this file's fault).
  'file.quota_exceeded': 'quotaExceeded',
  payload_too_large: 'tooLarge',
  unauthorized: 'noAccess',
  forbidden: 'noAccess',
  'page.in_trash': 'inTrash',
  'file.not_an_image': 'notAnImage',
};

/** Why an upload failed, from its error (the editor's blocks and the comment composer explain it). */
export const uploadErrorKind = (error: unknown): UploadError => failureIn(error, UPLOAD_ERRORS, 'failed');

/** The page an editor shows: its first element is the page heading, `pageHeading_<pageId>`. */
export function editorPageId(editor: Editor): string | null {
  const first = editor.children[0] as BlockElement | undefined;
  return first?.type === 'pageHeadingBlock' && first.uid.startsWith(PAGE_HEADING_PREFIX) ? first.uid.slice(PAGE_HEADING_PREFIX.length) : null;
}

function findBlock(editor: Editor, uid: string): number {
  return editor.children.findIndex((node) => Element.isElement(node) && (node as BlockElement).uid === uid);
}

/** Only images go into an image block. */
export function isImageFile(file: File): boolean {
  return /^image\/(png|jpeg|gif|webp|avif|bmp)$/.test(declaredMimeType(file));
}

/** The upload function, replaceable in tests. */
export const uploader = { upload: uploadFile };

/**
 * Uploads a file into an empty image or file block: the block shows the progress; on success it
 * receives remoteData through Transforms.setNodes (so the sync saves it); on failure it stays
 * empty and shows why. A block removed meanwhile is left alone.
 */
export async function startUpload(editor: Editor, uid: string, file: File): Promise<boolean> {
  if (states.get(uid)?.status === 'uploading') return false;
  const pageId = editorPageId(editor);
  const fileName = cleanFileName(file.name) || 'file';
  if (!pageId) {
    setState(uid, { status: 'failed', fileName, error: 'failed' });
    return false;
  }
  setState(uid, { status: 'uploading', fileName, progress: 0 });
  try {
    const remoteData = await uploader.upload(pageId, file, {
      onProgress: (progress) => {
        const current = states.get(uid);
        if (current?.status === 'uploading') setState(uid, { ...current, progress });
      },
    });
    setState(uid, undefined);
    const index = findBlock(editor, uid);
    const node = editor.children[index] as BlockElement | undefined;
    if (index < 0 || !node || (node.type !== 'imageBlock' && node.type !== 'fileBlock')) return false;
    Transforms.setNodes<ImageElement | FileElement>(editor, { remoteData }, { at: [index] });
    return true;
  } catch (error) {
    setState(uid, { status: 'failed', fileName, error: uploadErrorKind(error) });
    return false;
  }
}

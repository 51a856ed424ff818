import type { TFunction } from 'i18next';
import { ApiRequestError, isServerBusy } from '../../app/api';
import type { ApiFailure } from './pagesSlice';

/** A Russian message for a failed page action, by HTTP status and error code. */
export function pageActionError(t: TFunction, error: unknown): string {
  if (!(error instanceof ApiRequestError)) return t('page.errors.generic');
  if (error.status === undefined) return t('page.errors.network');
  if (isServerBusy(error)) return t('errors.busy');
  if (error.status === 403) return t('page.errors.forbidden');
  if (error.status === 404) return t('page.errors.notFound');
  if (error.code === 'page.in_trash') return t('page.errors.inTrash');
  if (error.code === 'page.move_cycle') return t('page.errors.moveCycle');
  if (error.status === 422) return t('page.errors.invalid');
  return t('page.errors.generic');
}

/** Copies text to the clipboard (with a fallback where the Clipboard API is not allowed). */
export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    return;
  } catch {
    // Not allowed here (an insecure origin, no permission): the old way below.
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  const ok = document.execCommand?.('copy');
  area.remove();
  if (!ok) throw new Error('copy failed');
}

/** The public address of a published page: its alias when known, else its id. */
export function publicUrl(idOrAlias: string): string {
  // One path segment: the server serves the app for /{id}, and a visitor without access gets the public view there.
  return `${window.location.origin}/${idOrAlias}`;
}

/** unwrap() throws the thunk's ApiFailure ({ status, code, message }); made an ApiRequestError again for the messages. */
export function toApiError(error: unknown): unknown {
  if (error instanceof ApiRequestError) return error;
  const e = error as Partial<ApiFailure> | undefined;
  if (e && typeof e === 'object' && 'message' in e) return new ApiRequestError(e.status, e.code, e.message ?? '');
  return error;
}

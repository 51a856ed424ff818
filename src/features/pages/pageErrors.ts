import type { TFunction } from 'i18next';
import { errorMessage, type FeatureMessages } from '../../app/errors';
import { reportError } from '../../app/report';

const PAGE_MESSAGES: FeatureMessages = {
  network: 'page.errors.network',
  forbidden: 'page.errors.forbidden',
  not_found: 'page.errors.notFound',
  'page.in_trash': 'page.errors.inTrash',
  'page.move_cycle': 'page.errors.moveCycle',
  validation_failed: 'page.errors.invalid',
  generic: 'page.errors.generic',
};

/** A Russian message for a failed page action (an ApiRequestError, or the ApiFailure a thunk rejects with). */
export function pageActionError(t: TFunction, error: unknown): string {
  return errorMessage(t, error, PAGE_MESSAGES);
}

/** A page copy as the clone error names it (spec §8): the page copied, its new parent (null: a section's top) and the workspace. */
export interface CloneTarget {
  pageId: string;
  toElement: string | null;
  workspaceId: string | null | undefined;
}

/**
 * A failed page copy (page/clone) reported as a clone error with the page, its new parent and
 * workspace — except on 404: the page is gone, nothing to look into (spec §8). Answers whether it
 * was reported. The copy shown meanwhile is rolled back by the caller.
 */
export function reportCloneError(error: unknown, { pageId, toElement, workspaceId }: CloneTarget): boolean {
  if ((error as { status?: unknown } | null)?.status === 404) return false;
  reportError('clone', {
    message: `page ${pageId} not copied to ${toElement ?? 'the section'} in workspace ${workspaceId ?? '?'}: ${(error as { message?: unknown } | null)?.message ?? String(error)}`,
    error,
    pageId,
    toElement,
    workspaceId,
  });
  return true;
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

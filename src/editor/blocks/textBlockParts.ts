import i18next from 'i18next';
import { Node } from 'slate';
import type { SlateElement } from '../../../schema/slate';

/** True when a block holds no text (one empty text child): its placeholder shows. */
export function isEmptyBlock(element: SlateElement): boolean {
  return element.children.length === 1 && Node.string(element) === '';
}

/**
 * The editor's words without a hook: every block view calling useTranslation cost a subscription
 * and a wrapper object per block (measured ≈ 2 KB of heap per block). The one bundled language
 * never changes while a page is open, so a plain lookup is enough for placeholders and labels.
 */
export function editorT(key: string, options?: Record<string, unknown>): string {
  return i18next.t(key, { ns: 'documentEditor', ...options });
}

import type { PageHeadingElement } from '../slate';

/** The page heading is a virtual block: the page title shown as the first line of the editor. */
export const PAGE_HEADING_PREFIX = 'pageHeading_';

export function pageHeadingUid(pageId: string): string {
  return PAGE_HEADING_PREFIX + pageId;
}

/** The title as the editor's first element. */
export function titleToSlate(pageId: string, title: string): PageHeadingElement {
  return { type: 'pageHeadingBlock', uid: pageHeadingUid(pageId), version: 1, children: [{ text: title }] };
}

/** The title typed in the page heading (marks are not kept in a title). */
export function slateToTitle(element: PageHeadingElement): string {
  return element.children.map((t) => t.text).join('');
}

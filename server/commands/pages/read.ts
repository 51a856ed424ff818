import type { Kysely } from 'kysely';
import type { AccessLevel } from '../../../schema/constants';
import type { WireElement } from '../../../schema/element';
import type { Database, PageRow } from '../../db/types';
import { notFound } from '../../errors';
import { isPubliclyReadable, isPubliclyReadableHeld, pageAccessLevel } from '../../policies/page';
import { presentElement } from '../../presenters';
import { favoritePageIds } from '../../repositories/favorites';
import { findPageByIdOrAlias, findPages, pagePath } from '../../repositories/pages';
import type { PlacedRow } from '../../repositories/blocks';
import { databaseData } from '../../repositories/databases';
import { publishedData } from '../../../schema/policies/database';

/** Reading one page as the API gives it: to a signed-in caller (the page route, the server-drawn top) and to anyone (a public page). */

/** One page as the caller sees it, whose level is known. */
export async function presentPageFor(db: Kysely<Database>, userId: string, page: PageRow, level?: AccessLevel): Promise<WireElement> {
  const known = level ?? (await pageAccessLevel(db, userId, page));
  const favorites = await favoritePageIds(db, userId, [page.id]);
  return presentElement(page, known, favorites.has(page.id));
}

/** A public page as anyone may see it: read access, and nobody's user id (`createdBy` empty). */
export const publicElement = (page: PageRow): WireElement => ({ ...presentElement(page, 'read', false), createdBy: '' });

/**
 * A public page as anyone sees it: read access, no favourite, and of its ancestors only the
 * unbroken run of public ones right above it (a private parent's id is not given away).
 */
export async function presentPublicElement(db: Kysely<Database>, page: PageRow): Promise<WireElement> {
  const ancestorIds = pagePath(page);
  const ancestors = new Map((await findPages(db, ancestorIds)).map((p) => [p.id, p]));
  const visible: string[] = [];
  for (const id of [...ancestorIds].reverse()) {
    const ancestor = ancestors.get(id);
    if (!ancestor || !isPubliclyReadable(ancestor)) break;
    visible.unshift(id);
  }
  return { ...publicElement(page), path: visible, parentId: visible.length > 0 ? page.parent_id : null };
}

/** A page that is public and not in the trash, by id or alias; anything else is 404 (nothing given away). */
export async function loadPublicPage(db: Kysely<Database>, idOrAlias: string): Promise<PageRow> {
  const page = await findPageByIdOrAlias(db, idOrAlias);
  if (!page || !(await isPubliclyReadableHeld(db, page))) throw notFound('public page');
  return page;
}

/** A published page's block as anyone may read it: a database block without its fields' and views' names (docs/security.md «What a public reader can see»). */
export function publishedPlacedRow(placed: PlacedRow): PlacedRow {
  return placed.row.type === 'database' ? { ...placed, row: { ...placed.row, data: JSON.stringify(publishedData(databaseData(placed.row))) } } : placed;
}

import { z } from 'zod';
import { ACCESS_LEVELS, LIMITS, PAGE_TYPES, SECTION_IDS, type PageType } from './constants';
import { isSafeHref } from './token';

/** Where a cover image sits vertically, in percent; the editor's default. */
export const COVER_POSITION_DEFAULT = 50;

const coverPosition = z.number().min(0).max(100);
const refId = z.string().min(1).max(128);
const coverUrl = z.string().max(2048).refine(isSafeHref, { message: 'only http and https links are allowed' });

/** A page cover as stored and sent: a library image, an image by URL, or an uploaded file. */
export const coverSchema = z.discriminatedUnion('contentType', [
  z.object({ contentType: z.literal('LibraryCover'), imageId: refId, position: coverPosition }).strict(),
  z.object({ contentType: z.literal('UrlCover'), url: coverUrl, position: coverPosition }).strict(),
  z.object({ contentType: z.literal('FileCover'), fileId: refId, position: coverPosition }).strict(),
]);
export type Cover = z.infer<typeof coverSchema>;

/** A cover in a PATCH: as above, `position` may be left out (50). */
export const coverInputSchema = z.discriminatedUnion('contentType', [
  z.object({ contentType: z.literal('LibraryCover'), imageId: refId, position: coverPosition.default(COVER_POSITION_DEFAULT) }).strict(),
  z.object({ contentType: z.literal('UrlCover'), url: coverUrl, position: coverPosition.default(COVER_POSITION_DEFAULT) }).strict(),
  z.object({ contentType: z.literal('FileCover'), fileId: refId, position: coverPosition.default(COVER_POSITION_DEFAULT) }).strict(),
]);

/** A page ("element") on the wire. */
export const wireElementSchema = z.object({
  id: z.string(),
  contentType: z.literal('Element'),
  workspaceId: z.string().nullable(),
  type: z.enum(PAGE_TYPES),
  title: z.string(),
  icon: z.string().nullable(),
  path: z.array(z.string()),
  parentId: z.string().nullable(),
  section: z.enum(SECTION_IDS).nullable(),
  accessLevel: z.enum(ACCESS_LEVELS),
  inFavorites: z.boolean(),
  inTrash: z.boolean(),
  isPublic: z.boolean(),
  defaultLayoutId: z.string().nullable(),
  /** A database row's page: the database block it is a row of (docs/api/databases.md); absent or null for other pages. */
  databaseId: z.string().nullable().optional(),
  /** The page is a row template of its database (docs/api/databases.md «Row templates»). */
  rowTemplate: z.literal(true).optional(),
  /** The page is a synced block's content (docs/api/blocks.md «Synced blocks»): its parent is the page the synced block was made on. */
  synced: z.literal(true).optional(),
  cover: coverSchema.nullable(),
  createdAt: z.string(),
  /** Who made the page (a user id): a private section's root is its creator's (schema/policies/page.ts `mayBePrivateRootOf`). */
  createdBy: z.string(),
  updatedAt: z.string(),
});
export type WireElement = z.infer<typeof wireElementSchema>;

/**
 * A page as the client shows it before the server answers (optimistic creation), and in tests:
 * an untitled Note with the given fields, nothing else set; created and updated `at`.
 */
export function newElement(fields: Pick<WireElement, 'id'> & Partial<WireElement>, at: string = new Date().toISOString()): WireElement {
  return {
    contentType: 'Element',
    workspaceId: null,
    type: 'Note',
    title: '',
    icon: null,
    path: [],
    parentId: null,
    section: null,
    accessLevel: 'full',
    inFavorites: false,
    inTrash: false,
    isPublic: false,
    defaultLayoutId: null,
    cover: null,
    createdAt: at,
    // Not known before the server answers (an optimistic page): nobody's.
    createdBy: '',
    updatedAt: at,
    ...fields,
  };
}

/** Database and data pages hold a database of their own (one block, made with the page) and show it full width. */
export function holdsDatabase(type: PageType): boolean {
  return type === 'Database' || type === 'Widget';
}

/** Data and data-view pages show a layout, so they cannot exist without one (spec: incoming pages). */
export function needsDefaultLayout(type: PageType): boolean {
  return type === 'Widget' || type === 'WidgetView';
}

/** POST section/{id} or element/{id}/children: create a page (a Note unless `type` says otherwise). */
export const createNoteBodySchema = z
  .object({
    id: z.uuid().optional(),
    type: z.enum(PAGE_TYPES).default('Note'),
    contentType: z.literal('Element').default('Element'),
    title: z.string().max(LIMITS.titleLength).optional(),
    defaultLayoutId: refId.optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    if (needsDefaultLayout(body.type) && body.defaultLayoutId === undefined) {
      ctx.addIssue({ code: 'custom', path: ['defaultLayoutId'], message: `a ${body.type} page needs defaultLayoutId` });
    }
  });
export type CreatePageBody = z.infer<typeof createNoteBodySchema>;

/** The fields a PATCH may change; exactly one of them per request. */
export const PATCHABLE_FIELDS = ['title', 'icon', 'cover', 'isPublic'] as const;

/** PATCH element/{id}: exactly one of title, icon, cover, isPublic (null icon or cover removes it). */
export const patchElementBodySchema = z
  .object({
    id: z.string().max(128).optional(),
    title: z.string().max(LIMITS.titleLength).optional(),
    icon: z.string().min(1).max(256).nullable().optional(),
    cover: coverInputSchema.nullable().optional(),
    isPublic: z.boolean().optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    const given = PATCHABLE_FIELDS.filter((field) => body[field] !== undefined);
    if (given.length !== 1) {
      ctx.addIssue({
        code: 'custom',
        path: [],
        message: `exactly one of ${PATCHABLE_FIELDS.join(', ')} is needed (got ${given.length === 0 ? 'none' : given.join(', ')})`,
      });
    }
  });
export type PatchElementBody = z.infer<typeof patchElementBodySchema>;

/** POST element/{id}/synced: the synced-content page made under page `{id}`, with the id the client chose. */
export const createSyncedBodySchema = z.object({ id: z.uuid() }).strict();
export type CreateSyncedBody = z.infer<typeof createSyncedBodySchema>;

/** A section root id a page can be moved to (favorite and shared hold links, not pages). */
export const MOVE_SECTION_IDS = ['private', 'all'] as const;

/** POST element/{id}/move: under a page (`dst` its id) or to a section root; after a sibling or first. */
export const movePageBodySchema = z
  .object({
    dst: refId,
    placeAfter: refId.nullable().default(null),
  })
  .strict();

/** POST element/{id}/placeAfter: reorder among the current siblings (null: first). */
export const placeAfterBodySchema = z.object({ placeAfter: refId.nullable() }).strict();

/** POST element/{id}/page/clone: a deep copy into a page or the private section of a workspace. */
export const clonePageBodySchema = z
  .object({
    id: z.uuid().optional(),
    workspaceId: refId,
    toElement: refId.nullable().optional(),
  })
  .strict();

/** GET page/public: the public record of the page `id` (a page id or its alias). */
export const publicPageQueryShape = { id: refId };

/** GET page/public's answer: the page, who published it and when. */
export interface WirePublicPage {
  element: WireElement;
  userId: string | null;
  createdAt: string | null;
}

import { z } from 'zod';
import { ACCESS_LEVELS, LIMITS, PAGE_TYPES, SECTION_IDS, type AccessLevel } from './constants';

export const coverSchema = z.union([
  z.object({ contentType: z.literal('LibraryCover'), imageId: z.string(), position: z.number().min(0).max(100) }),
  z.object({ contentType: z.literal('UrlCover'), url: z.string(), position: z.number().min(0).max(100) }),
  z.object({ contentType: z.literal('FileCover'), fileId: z.string(), position: z.number().min(0).max(100) }),
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
  cover: coverSchema.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type WireElement = z.infer<typeof wireElementSchema>;

/** POST section/{id} or element/{id}/children: create a Note. */
export const createNoteBodySchema = z
  .object({
    id: z.uuid().optional(),
    type: z.literal('Note').default('Note'),
    contentType: z.literal('Element').default('Element'),
    title: z.string().max(LIMITS.titleLength).optional(),
  })
  .strict();

/** PATCH element/{id}: change the title (more fields arrive with the full page API). */
export const patchElementBodySchema = z
  .object({
    id: z.string().optional(),
    title: z.string().max(LIMITS.titleLength),
  })
  .strict();

/** canEdit / canShare as the spec derives them from the access level. */
export function canEdit(level: AccessLevel): boolean {
  return level === 'edit' || level === 'full';
}
export function canShare(level: AccessLevel): boolean {
  return level === 'full';
}

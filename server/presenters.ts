import type { AccessLevel, PageType, SectionId } from '../schema/constants';
import type { ApiMeta, ApiResponse } from '../schema/envelope';
import type { ErrorCode } from '../schema/errors';
import type { WireElement } from '../schema/element';
import type { WireUser } from '../schema/user';
import type { WireWorkspace } from '../schema/workspace';
import type { BlockData, WireBlock } from '../schema/block';
import type { BlockWireType } from '../schema/blocks';
import { ROW_TEMPLATE, SYNCED_CONTENT, type BlockRow, type PageRow, type UserRow } from './db/types';
import { pagePath } from './repositories/pages';
import { shownEmail } from './repositories/users';
import type { WorkspaceWithRole } from './repositories/workspaces';

/** The envelope every JSON answer uses. */
export function envelope<T>(data: T, meta: ApiMeta = {}, included: unknown[] = []): ApiResponse<T> {
  return { data, included, meta, errors: [] };
}

/** The envelope of a refusal or failure: one error with its stable code (and what the answer still carries, e.g. a conflict's current state). */
export function errorEnvelope(code: ErrorCode, message: string, details?: unknown, data: unknown = null): ApiResponse<unknown> {
  return { data, included: [], meta: {}, errors: [{ code, message, ...(details ? { details } : {}) }] };
}

/** A user as other people see them: the messenger link is the owner's business only. */
export function presentUser(user: UserRow): WireUser {
  return { ...presentSelf(user), telegramId: null };
}

/** The signed-in user's own record (current user, sign-in answers): everything, messenger link included. */
export function presentSelf(user: UserRow): WireUser {
  return {
    id: user.id,
    email: shownEmail(user),
    name: user.name,
    avatar_url: user.avatar_url,
    anonymous: false,
    telegramId: user.telegram_id,
    createdAt: user.created_at,
  };
}

export function presentWorkspace(workspace: WorkspaceWithRole): WireWorkspace {
  return {
    id: workspace.id,
    name: workspace.name,
    avatar: workspace.avatar,
    alias: workspace.alias,
    role: workspace.role,
    private: workspace.is_private === 1,
  };
}

export function presentElement(page: PageRow, accessLevel: AccessLevel, inFavorites = false): WireElement {
  return {
    id: page.id,
    contentType: 'Element',
    workspaceId: page.workspace_id,
    type: page.type as PageType,
    title: page.title,
    icon: page.icon,
    path: pagePath(page),
    parentId: page.parent_id,
    section: page.section as SectionId | null,
    accessLevel,
    inFavorites,
    inTrash: page.in_trash === 1,
    isPublic: page.is_public === 1,
    defaultLayoutId: page.default_layout_id,
    cover: page.cover ? (JSON.parse(page.cover) as WireElement['cover']) : null,
    createdAt: page.created_at,
    createdBy: page.created_by,
    updatedAt: page.updated_at,
    // A database row's page says which database it belongs to (its fields show above its blocks).
    ...(page.database_id ? { databaseId: page.database_id } : {}),
    // A database's row template (docs/api/databases.md «Row templates»): its page says so.
    ...(page.in_trash === ROW_TEMPLATE ? { rowTemplate: true } : {}),
    // A synced block's content (docs/api/blocks.md «Synced blocks»): its page says so.
    ...(page.in_trash === SYNCED_CONTENT ? { synced: true } : {}),
  };
}

/** A block row on the wire; `placeAfter` (its previous sibling) comes from the caller, who knows the order. */
export function presentBlockRow(row: Pick<BlockRow, 'id' | 'page_id' | 'parent_id' | 'type' | 'version' | 'data'>, placeAfter: string | null): WireBlock {
  return {
    id: row.id,
    contentType: 'Block',
    pageId: row.page_id,
    type: row.type as BlockWireType,
    version: row.version,
    parentId: row.parent_id,
    placeAfter,
    data: JSON.parse(row.data) as BlockData,
  };
}

import type { Insertable, Selectable, Updateable } from 'kysely';

/**
 * Table types. Booleans are stored as 0/1 integers and times as ISO-8601 text in both
 * dialects, so one schema and one set of queries serve SQLite and PostgreSQL.
 */
export interface UserTable {
  id: string;
  email: string;
  name: string;
  avatar_url: string | null;
  telegram_id: string | null;
  created_at: string;
}

export interface LoginCodeTable {
  id: string;
  email: string;
  code_hash: string;
  attempts: number;
  expires_at: string;
  used_at: string | null;
  ip: string;
  created_at: string;
}

export interface SessionTable {
  /** sha256 of the cookie token: a database leak does not leak sessions. */
  id: string;
  user_id: string;
  created_at: string;
  expires_at: string;
}

export interface WorkspaceTable {
  id: string;
  name: string;
  avatar: string | null;
  alias: string | null;
  is_private: number;
  created_at: string;
}

export interface WorkspaceMemberTable {
  workspace_id: string;
  user_id: string;
  role: string;
  created_at: string;
}

export interface PageTable {
  id: string;
  workspace_id: string;
  parent_id: string | null;
  /** Root pages: the section they live in (private or all); null below the root. */
  section: string | null;
  /** Ancestor ids, root first, as JSON text. */
  path: string;
  type: string;
  title: string;
  icon: string | null;
  cover: string | null;
  is_public: number;
  in_trash: number;
  default_layout_id: string | null;
  sort_key: string;
  created_by: string;
  created_at: string;
  updated_at: string;
}

export interface PageMemberTable {
  page_id: string;
  user_id: string;
  level: string;
  created_at: string;
}

export interface BlockTable {
  id: string;
  page_id: string;
  parent_id: string | null;
  /** Fractional index among its siblings: an insert or a move touches one row. */
  sort_key: string;
  type: string;
  /** The block's data as JSON text. */
  data: string;
  version: number;
  created_at: string;
  updated_at: string;
  updated_by: string;
}

export interface Database {
  users: UserTable;
  login_codes: LoginCodeTable;
  sessions: SessionTable;
  workspaces: WorkspaceTable;
  workspace_members: WorkspaceMemberTable;
  pages: PageTable;
  page_members: PageMemberTable;
  blocks: BlockTable;
}

export type UserRow = Selectable<UserTable>;
export type PageRow = Selectable<PageTable>;
export type BlockRow = Selectable<BlockTable>;
export type WorkspaceRow = Selectable<WorkspaceTable>;
export type NewBlock = Insertable<BlockTable>;
export type BlockUpdate = Updateable<BlockTable>;

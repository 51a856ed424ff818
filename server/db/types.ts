import type { SearchMatchKind } from '../../schema/search';
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * Table types. Booleans are stored as 0/1 integers and times as ISO-8601 text in both
 * dialects, so one schema and one set of queries serve SQLite and PostgreSQL.
 */
export interface UserTable {
  id: string;
  /** Lower case: what every lookup by e-mail matches. */
  email: string;
  /** As the person typed it at their last sign-in, when that differs from `email` (shown instead: `shownEmail`). */
  email_typed: ColumnType<string | null, string | null | undefined, string | null>;
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
  /** Who added them (members/add or a share from outside the workspace); null for creators and older rows. */
  invited_by: string | null;
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
  /** The page's public alias (pagealias), if one was given. */
  alias: string | null;
  /** Who made the page public, and when. */
  published_by: string | null;
  published_at: string | null;
  trashed_at: string | null;
  trashed_by: string | null;
  /** A database row: the database block it belongs to (migration 2026-11-25-0001); null for other pages. */
  database_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** Who last changed the page (a row's «edited by»); null when unknown. */
  updated_by: ColumnType<string | null, string | null | undefined, string | null>;
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
  /** Set when the block was deleted; a deleted block can be restored. */
  deleted_at: string | null;
  /** The client whose write made this version, and the version before its run of writes (migration 2026-11-23-0002). */
  origin: ColumnType<string | null, string | null | undefined, string | null>;
  origin_since: ColumnType<number | null, number | null | undefined, number | null>;
}

/** One written cell of a database row, with its own version (docs/api/databases.md). */
export interface DatabaseCellTable {
  row_id: string;
  field_id: string;
  database_id: string;
  /** The value as JSON text. */
  value: string;
  /** The value's sort and filter projection (schema/database.ts cellIndex). */
  num: number | null;
  txt: string | null;
  /** A date range's end (ms), beside `num`, its start; null for anything else. */
  num_end: number | null;
  version: number;
  updated_at: string;
  updated_by: string;
}

/** How many times the rows ('') or a field's cells of a database changed (docs/adr/0007-data-tables.md). */
export interface DatabaseRevisionTable {
  database_id: string;
  field_id: string;
  rev: number;
}

/** A view (layout) uid of a database block: the lookup of a linked view (docs/adr/0007-data-tables.md, «Linked views»). */
export interface DatabaseLayoutTable {
  database_id: string;
  layout_id: string;
  /** When the uid came into this database: of several databases holding one uid, the earliest has it. */
  since: string;
}

/**
 * A row's place in one view's own order (issue 34 §2, docs/api/databases.md «Order per view»): kept
 * only for rows moved in that view; the view's key of any other row is the row's own `sort_key`.
 */
export interface DatabaseViewOrderTable {
  database_id: string;
  view_uid: string;
  row_id: string;
  /** A fractional key in the same space as `pages.sort_key`. */
  sort_key: string;
}

export interface FavoriteTable {
  user_id: string;
  page_id: string;
  created_at: string;
}

export interface PageVisitTable {
  user_id: string;
  page_id: string;
  visited_at: string;
}

export interface CommentTable {
  id: string;
  page_id: string;
  replied_comment_id: string | null;
  author_id: string;
  /** The comment's content as JSON text (tokens). */
  content: string;
  /** Attached files as JSON text: [{ id, name, extension }]. */
  attaches: string;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export interface CommentReactionTable {
  comment_id: string;
  user_id: string;
  code: string;
  created_at: string;
}

export interface NotificationTable {
  id: string;
  user_id: string;
  workspace_id: string | null;
  page_id: string | null;
  name: string;
  /** The notification's context as JSON text (fields per name: see the API contract). */
  context: string;
  is_read: number;
  created_at: string;
}

export interface NotificationSettingTable {
  user_id: string;
  page_id: string;
  settings: string;
  updated_at: string;
}

export interface FileTable {
  id: string;
  owner_id: string;
  page_id: string | null;
  workspace_id: string | null;
  name: string;
  mime_type: string;
  size: number;
  /** Where the bytes are, relative to the file store (DATA_DIR/files). */
  storage_key: string;
  is_public: number;
  /** 'pending' until the upload arrives, then 'ready'. */
  status: string;
  upload_token_hash: string | null;
  upload_expires_at: string | null;
  created_at: string;
}

export interface UserSettingTable {
  user_id: string;
  key: string;
  /** JSON text. */
  value: string;
  updated_at: string;
}

export interface AccessTokenTable {
  /** sha256 of the bearer token. */
  id: string;
  user_id: string;
  created_at: string;
  last_used_at: string | null;
  /** The one workspace the token reaches (docs/api/auth.md «Workspace tokens»); null: all its user's. */
  workspace_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** The name its maker gave a workspace token. */
  name: ColumnType<string | null, string | null | undefined, string | null>;
  /** 1: the token reads only (every write refused). */
  read_only: ColumnType<number, number | undefined, number>;
}

export interface MessengerLinkTokenTable {
  /** sha256 of the one-time token the user sends to the bot. */
  id: string;
  user_id: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

export interface OAuthStateTable {
  /** The `state` sent to the provider. */
  id: string;
  code_verifier: string;
  nonce: string;
  expires_at: string;
  created_at: string;
}

/** The first time a user reached a retention goal (server/routes/goals.ts). */
export interface RetentionGoalTable {
  user_id: string;
  goal: string;
  reached_at: string;
}

/** What search finds (migrations 2026-11-26-0003, 2026-11-27-0002, docs/search.md): a title, a block's text, a row's text cell. */
export interface SearchEntryTable {
  /** Its page's `search_pages.seq` × 2^20 + its number in the page (the title 0; server/search/indexer.ts). */
  id: number;
  page_id: string;
  /** 'title', a block id, or 'c:<fieldId>' (a database row's cell). */
  unit: string;
  kind: SearchMatchKind;
  /** The text as written (a snippet is cut from it). */
  text: string;
  /** Its words' stems, space-separated (server/search/terms.ts). */
  terms: string;
}

/**
 * A number for each page with search entries (the high bits of its entries' ids), and what ranking
 * and the common filters read of the page, copied by the indexer (`p:` and `r:` targets): a query
 * reads thousands of these, not the pages' rows. A copy may be a moment old; results are checked
 * against the pages' own rows (routes/search.ts).
 */
export interface SearchPageTable {
  seq: Generated<number>;
  page_id: string;
  workspace_id: string;
  in_trash: number;
  updated_at: string;
  /** `updated_at` as days since 1970 (fractional): what ranking's freshness reads. */
  updated_days: number;
  database_id: string | null;
  title: string;
  /** The title's stems as its entry has them (`indexTerms`): a title that is the query ranks first. */
  title_terms: string | null;
}

/** A stem and a page holding it (server/search/query.ts): whether its title does (1/0), in how many of its entries it is. */
export interface SearchPageStemTable {
  stem: string;
  /** The page's `search_pages.seq`. */
  seq: number;
  title: number;
  entries: number;
}

/** PostgreSQL only: which entries hold a stem (kept by a trigger on `search_entries`; SQLite has `search_fts`). */
export interface SearchPostingTable {
  stem: string;
  entry_id: number;
}

/** A trigram of a page's title (typo-tolerant title search). */
export interface SearchTrigramTable {
  workspace_id: string;
  trigram: string;
  page_id: string;
}

/** What changed and is to be indexed again: 'p:<pageId>', 'b:<blockId>', 'c:<rowId>:<fieldId>' (added by triggers). */
export interface SearchQueueTable {
  target: string;
  queued_at: string;
}

/** A version of a page (migration 2026-11-26-0004, docs/history.md). */
export interface PageVersionTable {
  id: Generated<number>;
  page_id: string;
  created_at: string;
  title: string;
  /** User ids (JSON array) who changed the page since the version before. */
  authors: string;
  kind: 'edit' | 'restore';
  /** A restore: the version restored. */
  restored_from: number | null;
  /** Blocks this version changed since the one before (its rows in page_version_blocks). */
  changed: number;
}

/** A block as a version left it, kept only in the versions that changed it. */
export interface PageVersionBlockTable {
  page_id: string;
  block_id: string;
  version_id: number;
  /** blocks.version when recorded. */
  block_version: number;
  /** Its parent and sort key (`parent|key`): a move changes no version. Null when deleted. */
  place: string | null;
  /** JSON { type, data, parentId, sortKey }; null: deleted (or gone) at this version. */
  state: string | null;
}

/** Pages being edited, for the historian: since when, and when last. */
export interface HistoryQueueTable {
  page_id: string;
  first_at: string;
  last_at: string;
}

/** An export running in the background (docs/import-export.md «A whole workspace»). */
export interface ExportJobTable {
  id: string;
  workspace_id: string;
  user_id: string;
  /** The page exported (with its subpages when `subpages`); null: the whole workspace. */
  root_id: string | null;
  format: string;
  subpages: number;
  /** The JSON export carries comments. */
  comments: number;
  /** The zip's name: the page's or the workspace's. */
  title: string;
  status: 'queued' | 'running' | 'done' | 'failed';
  pages_done: number;
  pages_total: number;
  size: number | string | null;
  storage_key: string | null;
  error: string | null;
  created_at: string;
  /** Set by the process running it, every few seconds: a job whose heartbeat stops is taken again. */
  heartbeat_at: string | null;
  finished_at: string | null;
}

/** A workspace's outgoing webhook (docs/api/webhooks.md). */
export interface WebhookTable {
  id: string;
  workspace_id: string;
  url: string;
  /** Signs each delivery (HMAC-SHA256); shown once, when the webhook is made. */
  secret: string;
  /** JSON: the event groups it hears (`page`, `block`, `row`, `cell`, `comment`). */
  events: string;
  active: number;
  created_by: string;
  created_at: string;
}

/** One event sent to one webhook: the delivery log (docs/api/webhooks.md). */
export interface WebhookDeliveryTable {
  id: string;
  webhook_id: string;
  event: string;
  /** The JSON body sent. */
  payload: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  /** When it is tried next (pending), or was tried last. */
  next_at: string;
  last_status: number | null;
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
}

/** A row a relation cell names (docs/relations.md «Rollups»): the cells' lists indexed the other way. */
export interface RowLinkTable {
  field_id: string;
  from_row: string;
  to_row: string;
  database_id: string;
  to_database_id: string;
}

/** A database's formulas being computed again for every row, in the background (server/commands/databases/formulaJobs.ts). */
export interface FormulaJobTable {
  database_id: string;
  /** The page holding the database (its views hear the progress). */
  holder_id: string;
  /** Who changed the formulas: the cells' `updated_by`. */
  user_id: string;
  /** New with each request: a job under way whose token changed starts over. */
  token: string;
  /** `change`: the formulas or what they read changed (the views show the progress); `clock`: formulas reading now() or today() kept current (quietly). */
  reason: 'change' | 'clock';
  /** JSON: the formula fields being computed (the views show them as pending). */
  field_ids: string;
  done: number;
  total: number;
  created_at: string;
  /** Set by the process running it, each chunk: a job whose heartbeat stops is taken again. */
  heartbeat_at: string | null;
}

/** Whether a person has a toggle block open (docs/api/blocks.md «Toggle folds (per person)»); no row: folded. */
/** A reminder of a date mention (server/reminders/reminders.ts). */
export interface ReminderTable {
  id: string;
  /** Who is reminded: the writer of the version that first held it. */
  user_id: string;
  page_id: string;
  block_id: string;
  /** The instant, ISO (UTC). */
  remind_at: string;
  /** The mention's day and time on its writer's clock, and its text. */
  start: string;
  label: string;
  created_at: string;
  /** When a worker took it (told or dropped); null while it waits. */
  sent_at: string | null;
}

/** A link's preview as the server last read it (server/repositories/linkPreviews.ts). */
export interface LinkPreviewTable {
  url: string;
  /** JSON of WireLinkPreview; null when the read failed. */
  preview: string | null;
  /** The failure's error code (link.address_refused, link.unreachable); null when read. */
  failure: string | null;
  fetched_at: string;
}

export interface BlockFoldTable {
  user_id: string;
  /** The block's page: a page's open toggles are listed by it, and go with it when it is deleted for good. */
  page_id: string;
  /** No foreign key: a deleted block's row is harmless. */
  block_id: string;
  /** 1: open, 0: folded. */
  open: number;
  updated_at: string;
}

/** A request limit's hits for one key in the current window (server/repositories/rateLimits.ts). */
export interface RateLimitTable {
  /** The limit's name and whose hits: `register:203.0.113.5`, `ai:<user id>`. */
  key: string;
  hits: number;
  /** When the window ends; a hit after it starts a new one. */
  reset_at: string;
}

/** A row's property change (docs/history.md «A row's property changes»); a burst of one person's changes of a cell is one entry. */
export interface CellHistoryTable {
  id: Generated<number>;
  row_id: string;
  database_id: string;
  field_id: string;
  /** The field's type when the change was made: a retyped field's older entries cannot be brought back. */
  field_type: string;
  /** The value before and after, as JSON text ('null': empty). */
  old_value: string;
  new_value: string;
  user_id: string;
  /** The burst's first change, and its last. */
  started_at: string;
  at: string;
  /** A restore: the entry whose earlier value it brought back (never joins a burst). */
  restored_from: number | null;
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
  database_cells: DatabaseCellTable;
  database_revisions: DatabaseRevisionTable;
  database_layouts: DatabaseLayoutTable;
  database_view_order: DatabaseViewOrderTable;
  favorites: FavoriteTable;
  page_visits: PageVisitTable;
  comments: CommentTable;
  comment_reactions: CommentReactionTable;
  notifications: NotificationTable;
  notification_settings: NotificationSettingTable;
  files: FileTable;
  user_settings: UserSettingTable;
  access_tokens: AccessTokenTable;
  messenger_link_tokens: MessengerLinkTokenTable;
  oauth_states: OAuthStateTable;
  retention_goals: RetentionGoalTable;
  search_entries: SearchEntryTable;
  search_pages: SearchPageTable;
  search_postings: SearchPostingTable;
  search_page_stems: SearchPageStemTable;
  search_trigrams: SearchTrigramTable;
  search_queue: SearchQueueTable;
  page_versions: PageVersionTable;
  page_version_blocks: PageVersionBlockTable;
  history_queue: HistoryQueueTable;
  export_jobs: ExportJobTable;
  rate_limits: RateLimitTable;
  cell_history: CellHistoryTable;
  formula_jobs: FormulaJobTable;
  row_links: RowLinkTable;
  webhooks: WebhookTable;
  webhook_deliveries: WebhookDeliveryTable;
  block_folds: BlockFoldTable;
  link_previews: LinkPreviewTable;
  reminders: ReminderTable;
}

export type UserRow = Selectable<UserTable>;
export type PageRow = Selectable<PageTable>;
export type BlockRow = Selectable<BlockTable>;
export type CellRow = Selectable<DatabaseCellTable>;
export type WorkspaceRow = Selectable<WorkspaceTable>;
export type NewBlock = Insertable<BlockTable>;
export type BlockUpdate = Updateable<BlockTable>;

/**
 * A page's `in_trash` has a third state: a database's row template (docs/api/databases.md «Row
 * templates»). Neither live nor in the trash — every read of live rows asks 0, every trash 1 — it
 * is read and written by id as a row is (its page, its cells), and changed as a live row is.
 */
export const ROW_TEMPLATE = 2;

/**
 * The fourth state: a synced-content page (docs/api/blocks.md «Synced blocks») — the blocks a
 * synced block shows, in a page of their own under the page it was made on (its holder, the
 * `parent_id`). Neither live nor in the trash, so no list of pages shows it (sidebar, children,
 * search results, recents, favourites, the trash, exports' pages); read and written by id as any
 * page, its access inherited from the holder, frozen while the holder is in the trash.
 */
export const SYNCED_CONTENT = 3;

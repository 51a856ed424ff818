/** Stable error codes: clients branch on these, never on messages. */
export const ERROR_CODES = {
  badRequest: 'bad_request',
  validationFailed: 'validation_failed',
  goalNotReached: 'goal.not_reached',
  unsupportedMediaType: 'unsupported_media_type',
  payloadTooLarge: 'payload_too_large',
  unauthorized: 'unauthorized',
  forbidden: 'forbidden',
  notFound: 'not_found',
  rateLimited: 'rate_limited',
  internal: 'internal_error',
  /** The database stayed locked by another writer (SQLite) past DB_BUSY_TIMEOUT_MS: 503 with Retry-After, nothing of the write stored. */
  storageBusy: 'storage.busy',
  invalidPin: 'auth.invalid_pin',
  codeExpired: 'auth.code_expired',
  tooManyAttempts: 'auth.too_many_attempts',
  blockVersionConflict: 'block.version_conflict',
  blockExists: 'block.already_exists',
  /** A `synced` block naming no synced-content page of its page's workspace (docs/api/blocks.md «Synced blocks»): 422. */
  blockSyncedUnknown: 'block.synced_unknown',
  /** A `synced` block written into a synced-content page, or synced content made under one: synced blocks do not nest (docs/api/blocks.md «Synced blocks»): 422. */
  blockSyncedNested: 'block.synced_nested',
  /** A fold (`PUT block/{id}/fold`) of a block that is no toggle (docs/api/blocks.md «Toggle folds (per person)»): 422. */
  blockNotAToggle: 'block.not_a_toggle',
  /** A link preview of an address the server may not fetch: not http(s), credentials in it, or a private, loopback or link-local address after DNS or a redirect (docs/api/blocks.md «Link previews»): 422. */
  linkAddressRefused: 'link.address_refused',
  /** A link preview whose page did not answer in time, could not be reached or redirected too often: 502. */
  linkUnreachable: 'link.unreachable',
  pageExists: 'page.already_exists',
  invalidEmail: 'auth.invalid_email',
  oauthDisabled: 'auth.oauth_disabled',
  /** A read-only workspace token asked to change something (docs/api/auth.md «Workspace tokens»). */
  tokenReadOnly: 'auth.token_read_only',
  /** A request signed in with an access token asked to make or list tokens: a signed-in browser session does that. */
  tokenNotAllowed: 'auth.token_not_allowed',
  oauthUnknownService: 'auth.oauth_unknown_service',
  oauthStateInvalid: 'auth.oauth_state_invalid',
  oauthFailed: 'auth.oauth_failed',
  oauthEmailUnverified: 'auth.oauth_email_unverified',
  oauthProviderUnavailable: 'auth.oauth_provider_unavailable',
  unknownSetting: 'user.unknown_setting',
  messengerDisabled: 'messenger.disabled',
  uploadTokenInvalid: 'file.upload_token_invalid',
  fileExists: 'file.already_exists',
  notAnImage: 'file.not_an_image',
  quotaExceeded: 'file.quota_exceeded',
  rangeNotSatisfiable: 'range_not_satisfiable',
  feedbackFailed: 'feedback.send_failed',
  pageInTrash: 'page.in_trash',
  /** A database's row template asked to go to the trash, come out of it or be copied as a page: its database's templates do that (docs/api/databases.md «Row templates»). */
  rowTemplate: 'database.row_template',
  /** A page-level change (rename, move, trash, share, publish, copy, children, favourites) of a synced-content page: only its blocks are written (docs/api/blocks.md «Synced blocks»): 422. */
  pageSyncedContent: 'page.synced_content',
  pageNotInTrash: 'page.not_in_trash',
  pageParentInTrash: 'page.parent_in_trash',
  pageMoveCycle: 'page.move_cycle',
  workspaceLastAdmin: 'workspace.last_admin',
  crossSiteRequest: 'cross_site_request',
  sharingOutsiderNeedsAdmin: 'sharing.outsider_needs_admin',
  sharingProtectedMember: 'sharing.protected_member',
  aiTooLarge: 'ai.too_large',
  aiNotConfigured: 'ai.not_configured',
  aiChannelNotJoined: 'ai.channel_not_joined',
  databaseCellConflict: 'database.cell_conflict',
  databaseMainField: 'database.main_field',
  databaseFieldComputed: 'database.field_computed',
  /** A person cell names someone who is no member of the database's workspace (docs/api/databases.md «People»). */
  databasePersonUnknown: 'database.person_unknown',
  /** A relation cell names a row that is no live row of the related database the writer may read, or a relation field names a database they cannot read (docs/relations.md). */
  databaseRelationUnknown: 'database.relation_unknown',
  /** A webhook's URL is no public http(s) address (a private, loopback or link-local one, credentials in it; docs/api/webhooks.md): 422. */
  webhookTargetRefused: 'webhook.target_refused',
  /** A published database's public reader asked for what none of its views shows: a field, another filter (docs/security.md «What a public reader can see»). */
  databaseNotPublished: 'database.not_published',
  /** A row's history entry whose field was deleted or retyped since cannot be brought back (docs/history.md «A row's property changes»): 409. */
  databaseHistoryFieldChanged: 'database.history_field_changed',
  exportNotReady: 'export.not_ready',
  /** An import beyond the archive limits or the reader's memory (docs/import-export.md «Zips within bounds»): 422, nothing made. */
  importTooBig: 'import.too_big',
  commentReactionLimit: 'comment.reaction_limit',
} as const;
export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

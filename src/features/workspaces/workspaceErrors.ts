import type { TFunction } from 'i18next';
import { errorMessage, type FeatureMessages } from '../../app/errors';

const WORKSPACE_MESSAGES: FeatureMessages = {
  network: 'workspaceSettings.errors.network',
  'workspace.last_admin': 'workspaceSettings.errors.lastAdmin',
  forbidden: 'workspaceSettings.errors.forbidden',
  not_found: 'workspaceSettings.errors.notFound',
  payload_too_large: 'workspaceSettings.errors.tooLarge',
  rate_limited: 'workspaceSettings.errors.rateLimited',
  validation_failed: 'workspaceSettings.errors.invalid',
  generic: 'workspaceSettings.errors.generic',
};

/** A Russian message for a refused workspace call (docs/api/workspaces.md, docs/api/files.md). */
export function workspaceError(t: TFunction, error: unknown): string {
  return errorMessage(t, error, WORKSPACE_MESSAGES);
}

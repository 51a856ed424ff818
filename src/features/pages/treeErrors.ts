import { errorKey, type ApiFailure, type FeatureMessages } from '../../app/errors';

const CREATE_MESSAGES: FeatureMessages = {
  network: 'sidebar.errors.network',
  forbidden: 'sidebar.errors.createForbidden',
  not_found: 'sidebar.errors.notFound',
  'page.in_trash': 'sidebar.errors.inTrash',
  validation_failed: 'sidebar.errors.createFailed',
  generic: 'sidebar.errors.createFailed',
};

const MOVE_MESSAGES: FeatureMessages = {
  network: 'sidebar.errors.network',
  forbidden: 'sidebar.errors.moveForbidden',
  not_found: 'sidebar.errors.notFound',
  'page.move_cycle': 'sidebar.errors.moveCycle',
  'page.in_trash': 'sidebar.errors.inTrash',
  validation_failed: 'sidebar.errors.moveInvalid',
  generic: 'sidebar.errors.moveFailed',
};

/** The message (its translation key) for a page that could not be created; no failure kept: no connection. */
export function createErrorKey(failure: ApiFailure | undefined): string {
  return failure ? errorKey(failure, CREATE_MESSAGES) : CREATE_MESSAGES.network!;
}

/** The message (its translation key) for a page that could not be moved in the tree. */
export function moveErrorKey(failure: ApiFailure | undefined): string {
  return failure ? errorKey(failure, MOVE_MESSAGES) : MOVE_MESSAGES.network!;
}

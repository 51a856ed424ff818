import type { ApiFailure } from '../pages/pagesSlice';

/** The message (its translation key) for a page that could not be created. */
export function createErrorKey(failure: ApiFailure | undefined): string {
  if (!failure || failure.status === undefined) return 'sidebar.errors.network';
  if (failure.status === 403) return 'sidebar.errors.createForbidden';
  if (failure.status === 404) return 'sidebar.errors.notFound';
  if (failure.code === 'page.in_trash') return 'sidebar.errors.inTrash';
  return 'sidebar.errors.createFailed';
}

/** The message (its translation key) for a page that could not be moved in the tree. */
export function moveErrorKey(failure: ApiFailure | undefined): string {
  if (!failure || failure.status === undefined) return 'sidebar.errors.network';
  if (failure.status === 403) return 'sidebar.errors.moveForbidden';
  if (failure.status === 404) return 'sidebar.errors.notFound';
  if (failure.code === 'page.move_cycle') return 'sidebar.errors.moveCycle';
  if (failure.code === 'page.in_trash') return 'sidebar.errors.inTrash';
  if (failure.status === 422) return 'sidebar.errors.moveInvalid';
  return 'sidebar.errors.moveFailed';
}

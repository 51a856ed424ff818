import i18next from 'i18next';
import { ApiRequestError } from '../../app/api';
import { shareError } from '../sharing/ShareDialog';
import { workspaceError } from '../workspaces/WorkspaceSettings';
import { pageActionError } from './pageErrors';

/** 503 storage.busy (docs/api.md «Errors»): the server's database stayed locked by another process. */
const busy = new ApiRequestError(503, 'storage.busy', 'the database is busy with another writer; try again shortly');
const BUSY = 'Сервер занят и не сохранил изменение. Попробуйте ещё раз через несколько секунд';

test('a write the server refused as busy says so, in Russian, where page, sharing and workspace errors are told', () => {
  const t = i18next.t.bind(i18next);
  expect(pageActionError(t, busy)).toBe(BUSY);
  expect(shareError(t, busy)).toBe(BUSY);
  expect(workspaceError(t, busy)).toBe(BUSY);
  // Any other 503 stays the generic message.
  expect(pageActionError(t, new ApiRequestError(503, 'internal_error', ''))).toBe(i18next.t('page.errors.generic'));
  expect(pageActionError(t, new ApiRequestError(503, undefined, ''))).toBe(i18next.t('page.errors.generic'));
});

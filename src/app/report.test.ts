import { ApiRequestError } from './api';
import { isExpectedFailure, reportError } from './report';

/*
 * The one reporting function: a line `kind: message` and the details, at the kind's level; an
 * expected API failure (401, 403, 404, 409, 422) is never logged as an error.
 */

let calls: { level: string; args: unknown[] }[];
beforeEach(() => {
  calls = [];
  for (const level of ['error', 'warn', 'info'] as const)
    jest.spyOn(console, level).mockImplementation((...args: unknown[]) => void calls.push({ level, args }));
});
afterEach(() => jest.restoreAllMocks());

test('a report is one console line at its kind’s level, with the details beside it', () => {
  const report = reportError('realtimeEvent', { message: 'unknown event «surprise»', event: 'surprise' });
  expect(report).toEqual({ kind: 'realtimeEvent', level: 'error', message: 'unknown event «surprise»', details: { event: 'surprise' } });
  reportError('validation', { message: 'page dropped', id: 'p' });
  reportError('history', { message: 'x', level: 'warning' });
  expect(calls).toEqual([
    { level: 'error', args: ['realtimeEvent: unknown event «surprise»', { event: 'surprise' }] },
    { level: 'warn', args: ['validation: page dropped', { id: 'p' }] },
    { level: 'warn', args: ['history: x', {}] },
  ]);
});

test('the message is the error’s when none is given; the error goes with the details', () => {
  const error = new Error('boom');
  expect(reportError('render', { error })).toMatchObject({ level: 'error', message: 'boom', details: { error } });
  expect(reportError('render', { error: 'a thrown string' }).message).toBe('a thrown string');
  expect(reportError('render').message).toBe('render');
});

test.each([401, 403, 404, 409, 422])('an API failure with status %i is expected: logged as info, never as an error', (status) => {
  const error = new ApiRequestError(status, undefined, 'refused');
  expect(isExpectedFailure(error)).toBe(true);
  // The plain data a thunk rejects with counts the same.
  expect(isExpectedFailure({ status, message: 'refused' })).toBe(true);
  expect(reportError('clone', { error, pageId: 'p' }).level).toBe('info');
  expect(calls.map((c) => c.level)).toEqual(['info']);
});

test('any other status, or no status, keeps the kind’s level', () => {
  for (const error of [
    new ApiRequestError(500, undefined, 'failed'),
    new ApiRequestError(400, undefined, 'bad'),
    new ApiRequestError(undefined, undefined, 'offline'),
  ]) {
    expect(isExpectedFailure(error)).toBe(false);
    expect(reportError('clone', { error }).level).toBe('error');
  }
  expect(calls.map((c) => c.level)).toEqual(['error', 'error', 'error']);
});

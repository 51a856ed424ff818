import { ERROR_CODES } from '../../schema/errors';
import { ApiRequestError, toFailure } from './api';
import { ERROR_MESSAGES, errorKey, errorMessage, failureIn, failureReason, rateLimitMessage, retryAfterOf, type FeatureMessages } from './errors';
import { commentsErrorKind } from '../features/comments/commentsSlice';
import { uploadErrorKind } from '../editor/upload';

const FEATURE: FeatureMessages = {
  network: 'f.network',
  forbidden: 'f.forbidden',
  'page.in_trash': 'f.inTrash',
  generic: 'f.generic',
};

describe('error codes and their messages', () => {
  it('keeps only the schema’s codes on an ApiRequestError; another is judged by its status', () => {
    expect(new ApiRequestError(409, 'page.in_trash', 'x').code).toBe('page.in_trash');
    const unknown = new ApiRequestError(403, 'something.new', 'x');
    expect(unknown.code).toBeUndefined();
    expect(failureReason(unknown)).toBe('forbidden');
  });

  it('tells no connection, a code, a bare status and anything else apart', () => {
    expect(failureReason(new ApiRequestError(undefined, undefined, 'offline'))).toBe('network');
    expect(failureReason(new ApiRequestError(422, ERROR_CODES.pageMoveCycle, 'x'))).toBe('page.move_cycle');
    expect(failureReason({ status: 404, message: 'x' })).toBe('not_found');
    expect(failureReason({ status: 418, message: 'x' })).toBe('generic');
    expect(failureReason(new TypeError('bug'))).toBe('generic');
    expect(failureReason(toFailure(new TypeError('bug')))).toBe('generic');
    expect(failureReason(toFailure(new ApiRequestError(undefined, undefined, 'offline')))).toBe('network');
  });

  it('words a failure by the feature’s code, then its status, then the shared message, then its generic one', () => {
    // The feature's own wording of the code.
    expect(errorKey(new ApiRequestError(409, 'page.in_trash', 'x'), FEATURE)).toBe('f.inTrash');
    // A 403 with a code the feature does not word: its wording of «forbidden».
    expect(errorKey(new ApiRequestError(403, 'sharing.protected_member', 'x'), FEATURE)).toBe('f.forbidden');
    // No feature wording at all: the one shared message of the code.
    expect(errorKey(new ApiRequestError(422, 'page.move_cycle', 'x'), FEATURE)).toBe('errors.codes.pageMoveCycle');
    expect(errorKey(new ApiRequestError(503, 'storage.busy', 'x'), FEATURE)).toBe('errors.busy');
    // A code that tells a person nothing: the feature's generic message.
    expect(errorKey(new ApiRequestError(500, 'internal_error', 'x'), FEATURE)).toBe('f.generic');
    expect(errorKey(new ApiRequestError(undefined, undefined, 'x'), FEATURE)).toBe('f.network');
    expect(errorKey(new ApiRequestError(undefined, undefined, 'x'), { generic: 'g' })).toBe('errors.codes.network');
    expect(errorKey(new Error('bug'), FEATURE)).toBe('f.generic');
  });

  it('has a message, or a deliberate none, for every code of the schema', () => {
    for (const code of Object.values(ERROR_CODES)) expect(ERROR_MESSAGES).toHaveProperty([code]);
  });
});

describe("a feature's own names for failures (failureIn)", () => {
  test('by the code, else by the code of the status, else the fallback; no answer is network, a thrown non-call the fallback', () => {
    expect(commentsErrorKind(new ApiRequestError(422, 'comment.reaction_limit', 'at most 20'))).toBe('reactionLimit');
    expect(commentsErrorKind(new ApiRequestError(422, 'validation_failed', 'content: too long'))).toBe('invalid');
    expect(commentsErrorKind(new ApiRequestError(409, 'page.in_trash', 'in the trash'))).toBe('inTrash');
    // A code the feature does not name: its status's (a 403 of sharing is still «forbidden»).
    expect(commentsErrorKind(new ApiRequestError(403, 'sharing.protected_member', 'no'))).toBe('forbidden');
    expect(commentsErrorKind(new ApiRequestError(404, undefined, 'gone'))).toBe('notFound');
    expect(commentsErrorKind(new ApiRequestError(undefined, undefined, 'network error'))).toBe('network');
    expect(commentsErrorKind(new ApiRequestError(500, 'internal_error', 'boom'))).toBe('generic');
    expect(commentsErrorKind(new Error('not a call'))).toBe('generic');
    expect(uploadErrorKind(new ApiRequestError(413, undefined, 'big'))).toBe('tooLarge');
    expect(uploadErrorKind(new ApiRequestError(401, 'unauthorized', 'signed out'))).toBe('noAccess');
    expect(uploadErrorKind(new ApiRequestError(415, 'file.not_an_image', 'not an image'))).toBe('notAnImage');
    expect(failureIn({ status: 429 }, { rate_limited: 'wait' }, 'other')).toBe('wait');
  });
});

describe('a refusal by a request limit (429)', () => {
  const t = (key: string, options?: Record<string, unknown>) => `${key}${options ? ` ${JSON.stringify(options)}` : ''}`;
  const limited = (retryAfter?: unknown) => new ApiRequestError(429, 'rate_limited', 'x', null, retryAfter === undefined ? undefined : { retryAfter });

  it('reads the seconds to wait from details.retryAfter, only on a 429', () => {
    expect(retryAfterOf(limited(7))).toBe(7);
    expect(retryAfterOf(limited(2.2))).toBe(3);
    expect(retryAfterOf(toFailure(limited(7)))).toBe(7);
    expect(retryAfterOf(limited())).toBeUndefined();
    expect(retryAfterOf(limited('7'))).toBeUndefined();
    expect(retryAfterOf(new ApiRequestError(422, 'validation_failed', 'x', null, { retryAfter: 7 }))).toBeUndefined();
  });

  it('is said calmly with the wait: seconds, minutes from a minute on, none when unknown; null for other failures', () => {
    expect(rateLimitMessage(t, limited(7))).toBe('errors.codes.rateLimitedSeconds {"seconds":7}');
    expect(rateLimitMessage(t, limited(60))).toBe('errors.codes.rateLimitedMinutes {"minutes":1}');
    expect(rateLimitMessage(t, limited(61))).toBe('errors.codes.rateLimitedMinutes {"minutes":2}');
    expect(rateLimitMessage(t, limited())).toBe('errors.codes.rateLimited');
    expect(rateLimitMessage(t, new ApiRequestError(403, 'forbidden', 'x'))).toBeNull();
    expect(rateLimitMessage(t, new Error('bug'))).toBeNull();
  });

  it('errorMessage says the wait where the feature has no wording of its own for a 429', () => {
    expect(errorMessage(t, limited(5), FEATURE)).toBe('errors.codes.rateLimitedSeconds {"seconds":5}');
    expect(errorMessage(t, limited(5), { ...FEATURE, rate_limited: 'f.limited' })).toBe('f.limited');
  });
});

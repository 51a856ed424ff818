import { api, ApiRequestError, EMPTY_CONTENT_MESSAGE, toFailure, USER_BODY_UNPARSABLE_MESSAGE, USER_SERVICE_ERROR_MESSAGE } from './api';

/*
 * The API client's failures (spec §8): the error carries the status, its words and a message; an
 * empty answer, the user service's unparsable one and its refusals have the spec's messages; the
 * expected statuses (401, 403, 404, 422) are not logged as errors, the unexpected ones are.
 */

/** A Response as fetch gives it: the body read as text (and as JSON). */
function answer(status: number, body: string, statusText = ''): Response {
  return { ok: status >= 200 && status < 300, status, statusText, text: async () => body, json: async () => JSON.parse(body) as unknown } as Response;
}
const envelope = (data: unknown, errors: unknown[] = []) => JSON.stringify({ data, included: [], meta: {}, errors });
const refusal = (code: string, message: string) => envelope(null, [{ code, message }]);

let next: () => Response | Promise<Response>;
let consoleCalls: { level: string; line: string; details: unknown }[];

beforeEach(() => {
  globalThis.fetch = (async () => next()) as typeof fetch;
  consoleCalls = [];
  for (const level of ['error', 'warn', 'info'] as const) {
    jest.spyOn(console, level).mockImplementation((...[line, details]: unknown[]) => void consoleCalls.push({ level, line: String(line), details }));
  }
});
afterEach(() => jest.restoreAllMocks());

async function failure(path: string, options: Parameters<typeof api>[1] = {}): Promise<ApiRequestError> {
  const error = await api(path, options).then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof ApiRequestError)) throw new Error(`expected an ApiRequestError, got ${String(error)}`);
  return error;
}

describe('ApiRequestError: status, status text and message', () => {
  it('a refusal carries its status, the answer’s status text and the server’s message and code', async () => {
    next = () => answer(409, refusal('page.already_exists', 'a page with this id exists'), 'Conflict here');
    const error = await failure('/api/v3/spaces/section/private', { method: 'POST', body: {} });
    expect(error).toMatchObject({ status: 409, statusText: 'Conflict here', message: 'a page with this id exists', code: 'page.already_exists' });
    expect(error.name).toBe('ApiRequestError');
    // The plain data a thunk keeps has them too.
    expect(toFailure(error)).toMatchObject({ status: 409, statusText: 'Conflict here', message: 'a page with this id exists', code: 'page.already_exists' });
  });

  it('an answer without status words (HTTP/2) gets the standard ones; a message-less refusal says them', async () => {
    next = () => answer(403, refusal('forbidden', ''));
    expect(await failure('/api/v3/spaces/element/p')).toMatchObject({ status: 403, statusText: 'Forbidden', message: 'Forbidden' });
  });

  it('a call that never reached the server has no status and no status text', async () => {
    next = () => Promise.reject(new TypeError('Failed to fetch'));
    expect(await failure('/api/v3/spaces/element/p')).toMatchObject({ status: undefined, statusText: '', message: 'Failed to fetch' });
  });
});

describe('answers that are not the envelope', () => {
  it('an empty success: «Content from request not of ApiResponse type» with status 422', async () => {
    next = () => answer(200, '');
    const error = await failure('/api/v3/spaces/element/p');
    expect(error).toMatchObject({ status: 422, statusText: 'Unprocessable Entity', message: EMPTY_CONTENT_MESSAGE });
    expect(EMPTY_CONTENT_MESSAGE).toBe('Content from request not of ApiResponse type');
  });

  it('JSON that is not the envelope, or any body elsewhere than the user service that is not JSON, says the same', async () => {
    next = () => answer(200, JSON.stringify({ id: 'p' }));
    expect(await failure('/api/v3/spaces/element/p')).toMatchObject({ status: 422, message: EMPTY_CONTENT_MESSAGE });
    next = () => answer(200, '<html>proxy</html>');
    expect(await failure('/api/v3/spaces/element/p')).toMatchObject({ status: 422, message: EMPTY_CONTENT_MESSAGE });
  });

  it('an empty refusal keeps its own status (a proxy’s 504 says more than 422)', async () => {
    next = () => answer(504, '');
    expect(await failure('/api/v3/spaces/element/p')).toMatchObject({ status: 504, statusText: 'Gateway Timeout', message: EMPTY_CONTENT_MESSAGE });
  });
});

describe('the user service (/api/user…, /api/auth…)', () => {
  it('a body that is no JSON: «Body can`t be pasrsed»', async () => {
    next = () => answer(200, '<html>login portal</html>');
    expect(await failure('/api/user/current')).toMatchObject({ status: 422, message: USER_BODY_UNPARSABLE_MESSAGE });
    expect(USER_BODY_UNPARSABLE_MESSAGE).toBe('Body can`t be pasrsed');
    next = () => answer(502, 'Bad gateway', 'Bad Gateway');
    // 502 is tried again first; every answer is the same.
    jest.useFakeTimers();
    const pending = failure('/api/auth/send_code', { method: 'POST', body: {} });
    for (let i = 0; i < 3; i++) await jest.advanceTimersByTimeAsync(2_000);
    expect(await pending).toMatchObject({ status: 502, message: USER_BODY_UNPARSABLE_MESSAGE });
    jest.useRealTimers();
  });

  it('an empty answer is still «not of ApiResponse type»', async () => {
    next = () => answer(200, '');
    expect(await failure('/api/user/settings')).toMatchObject({ status: 422, message: EMPTY_CONTENT_MESSAGE });
  });

  it('any other refusal: «User service response with error», with the status, the code and the server’s own words', async () => {
    next = () => answer(400, refusal('auth.invalid_pin', 'wrong code'));
    const error = await failure('/api/auth/login', { method: 'POST', body: {} });
    expect(error).toMatchObject({
      status: 400,
      statusText: 'Bad Request',
      code: 'auth.invalid_pin',
      message: USER_SERVICE_ERROR_MESSAGE,
      serverMessage: 'wrong code',
    });
    expect(USER_SERVICE_ERROR_MESSAGE).toBe('User service response with error');
    // Not the user service: the server's words are the message.
    next = () => answer(400, refusal('bad_request', 'wrong body'));
    expect(await failure('/api/v3/spaces/element/p', { method: 'POST', body: {} })).toMatchObject({ message: 'wrong body', serverMessage: undefined });
    // A path that only starts like it is not the user service.
    next = () => answer(400, refusal('bad_request', 'wrong body'));
    expect(await failure('/api/users-export')).toMatchObject({ message: 'wrong body' });
  });

  it('a success is the envelope as before', async () => {
    next = () => answer(200, envelope({ id: 'u1' }));
    expect((await api('/api/user/current')).data).toEqual({ id: 'u1' });
  });
});

describe('what is logged', () => {
  it.each([401, 403, 404, 422])('%i is expected: not logged at all, let alone as an error', async (status) => {
    next = () => answer(status, refusal('x', 'refused'));
    await failure('/api/v3/spaces/element/p');
    expect(consoleCalls).toEqual([]);
  });

  it('an unexpected refusal is reported as an error with the call, the status and its words', async () => {
    next = () => answer(400, refusal('bad_request', 'no such field'));
    await failure('/api/v3/spaces/element/p', { method: 'PATCH', body: {} });
    expect(consoleCalls).toEqual([
      {
        level: 'error',
        line: 'request: PATCH /api/v3/spaces/element/p: 400 Bad Request — no such field',
        details: { status: 400, statusText: 'Bad Request', code: 'bad_request' },
      },
    ]);
  });

  it('an answer that is not the envelope is reported as an error; a user-service refusal with the server’s words', async () => {
    next = () => answer(200, '');
    await failure('/api/v3/spaces/element/p');
    next = () => answer(413, refusal('payload_too_large', 'too big'));
    await failure('/api/user', { method: 'POST', body: {} });
    expect(consoleCalls.map((c) => [c.level, c.line])).toEqual([
      ['error', `request: GET /api/v3/spaces/element/p: 422 Unprocessable Entity — ${EMPTY_CONTENT_MESSAGE}`],
      ['error', `request: POST /api/user: 413 Payload Too Large — ${USER_SERVICE_ERROR_MESSAGE}`],
    ]);
    expect(consoleCalls[1].details).toMatchObject({ serverMessage: 'too big' });
  });

  it('a request limit (429) or a busy server (503) is a warning; no connection is not logged; a status the call expects is not', async () => {
    next = () => answer(429, refusal('rate_limited', 'slow down'));
    await failure('/api/v3/spaces/search/text');
    next = () => answer(503, refusal('storage.busy', 'busy'));
    await failure('/api/v3/spaces/block', { method: 'POST', body: {} });
    next = () => Promise.reject(new TypeError('Failed to fetch'));
    await failure('/api/v3/spaces/element/p');
    next = () => answer(400, refusal('bad_request', 'no user id'));
    await failure('/api/auth/register', { method: 'POST', body: {}, expected: [400] });
    expect(consoleCalls.map((c) => c.level)).toEqual(['warn', 'warn']);
  });
});

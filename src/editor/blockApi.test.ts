import { blockApi } from './blockApi';

/** The requests the block api sends (an empty success answers each). */
function recordRequests(): Array<{ url: string; body: unknown }> {
  const sent: Array<{ url: string; body: unknown }> = [];
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    sent.push({ url: String(input), body: init?.body ? JSON.parse(String(init.body)) : undefined });
    return { ok: true, status: 200, statusText: '', json: async () => ({ data: {}, meta: {}, errors: [] }) } as Response;
  }) as typeof fetch;
  return sent;
}

test("a block's create and update say the version of its data's shape (docs/api/blocks.md «Data versions»)", async () => {
  const sent = recordRequests();
  await blockApi.createBlock({ id: 'b-1', pageId: 'p-1', type: 'text', data: { tokens: [] } });
  await blockApi.updateBlock('b-1', { version: 2, type: 'code', data: { tokens: [], language: 'python' } });
  expect(sent.map((request) => [request.url, (request.body as { dataVersion?: number }).dataVersion])).toEqual([
    ['/api/v3/spaces/block', 1],
    ['/api/v3/spaces/block/b-1', 1],
  ]);
});

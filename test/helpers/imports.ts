import type { TestApp } from './testApp';

/**
 * `POST import` as the app sends it (docs/import-export.md «Importing»): multipart with `fields`
 * (`parentId`, or `section` with `x-workspace-id` in `headers`) and then the file.
 */
export async function postImport(
  t: TestApp,
  cookie: string,
  bytes: Uint8Array,
  fields: Record<string, string>,
  name = 'export.zip',
  headers: Record<string, string> = {},
) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'application/zip' }), name);
  const request = new Request('http://test.invalid/', { method: 'POST', body: form });
  return t.app.inject({
    method: 'POST',
    url: '/api/v3/spaces/import',
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type') ?? '', cookie, ...headers },
  });
}

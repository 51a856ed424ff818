import type { RouteOptions } from 'fastify';
import type {} from './plugins/openapi';
import { createTestApp, type TestApp } from '../test/helpers/testApp';

/*
 * The OpenAPI document at /api/docs (server/plugins/openapi.ts) against the routes the server
 * registers: every /api route is in it with a summary, a tag, its path parameters and its body,
 * and the routes anonymous callers may use say that signing in is optional there. A route added
 * without a schema fails here.
 */

type Operation = { summary?: string; tags?: string[]; parameters?: Array<{ in: string; name: string }>; requestBody?: unknown; security?: unknown[] };

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const methodsOf = (route: RouteOptions): string[] => (Array.isArray(route.method) ? route.method : [route.method]);

/** Routes left out of the document on purpose: the document itself. */
const HIDDEN = new Set(['GET /api/docs']);

test('every /api route is in the OpenAPI document with a summary, a tag, its path parameters and its body', async () => {
  const doc = (await t.app.inject({ method: 'GET', url: '/api/docs' })).json<{ paths: Record<string, Record<string, Operation>> }>();
  const routes = t.app.routeTable.flatMap((route) =>
    methodsOf(route)
      .filter((m) => m !== 'HEAD')
      .map((method) => ({ route, method, key: `${method} ${route.url}` })),
  );
  const api = routes.filter(({ route }) => route.url.startsWith('/api/'));
  expect(api.length).toBeGreaterThan(100);
  const problems: string[] = [];
  for (const { route, method, key } of api) {
    if (route.schema?.hide) {
      if (!HIDDEN.has(key)) problems.push(`${key}: hidden from the document`);
      continue;
    }
    const path = route.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    const op = doc.paths[path]?.[method.toLowerCase()];
    if (!op) {
      problems.push(`${key}: not in the document`);
      continue;
    }
    if (!op.summary?.trim()) problems.push(`${key}: no summary`);
    if (!op.tags?.length) problems.push(`${key}: no tag`);
    for (const name of route.url.match(/:([A-Za-z0-9_]+)/g) ?? [])
      if (!op.parameters?.some((p) => p.in === 'path' && p.name === name.slice(1))) problems.push(`${key}: path parameter ${name} not described`);
    if (route.schema?.body && !op.requestBody) problems.push(`${key}: body not described`);
    const open = (route.config as { public?: boolean } | undefined)?.public === true;
    if (open !== (op.security?.some((s) => Object.keys(s as object).length === 0) ?? false))
      problems.push(`${key}: ${open ? 'open to anonymous callers, not said' : 'said open to anonymous callers'}`);
  }
  expect(problems).toEqual([]);
  // And the document names no route the server does not have.
  const served = new Set(
    t.app.routeTable.flatMap((route) => methodsOf(route).map((m) => `${m.toLowerCase()} ${route.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`)),
  );
  const documented = Object.entries(doc.paths)
    .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path}`))
    .filter((k) => k.includes(' /api/'));
  expect(documented.filter((k) => !served.has(k))).toEqual([]);
});

test('the form and webhook routes are in it: a form open to anonymous callers, the webhooks for signed-in admins', async () => {
  const doc = (await t.app.inject({ method: 'GET', url: '/api/docs' })).json<{ paths: Record<string, Record<string, Operation>> }>();
  expect(doc.paths['/api/v3/spaces/database/{id}/form/{viewId}'].post.security).toContainEqual({});
  expect(doc.paths['/api/v3/spaces/workspace/{id}/webhooks'].post.security ?? []).not.toContainEqual({});
  expect(doc.paths['/api/v3/spaces/workspace/{id}/webhooks'].post.requestBody).toBeDefined();
});

import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { VERSION_LABEL } from '../../schema/constants';
import { notFound } from '../errors';

/** Paths the web app routes itself: home, /login, /oauth/callback, /{pageUid}, /public/{pageUid} and /clone/{pageUid}. */
const APP_PATH = /^\/(login|oauth\/callback|(public\/|clone\/)?[A-Za-z0-9_-]+)?\/?$/;

/**
 * Serves /version, the built web app from `webDir` (hashed assets cached for a year), the app's
 * index.html for its own routes, and a redirect home for any other path. Unknown /api paths are 404 JSON.
 */
export async function webRoutes(app: FastifyInstance, { webDir }: { webDir: string }) {
  app.get('/version', async (_request, reply) => reply.type('text/plain; charset=utf-8').send(VERSION_LABEL));

  const indexFile = path.join(webDir, 'index.html');
  const hasWebApp = fs.existsSync(indexFile);
  if (hasWebApp) {
    await app.register(fastifyStatic, {
      root: webDir,
      wildcard: false,
      index: false,
      setHeaders(res, filePath) {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) res.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
  }

  app.setNotFoundHandler(async (request, reply) => {
    const url = request.url.split('?')[0];
    if (url.startsWith('/api/') || request.method !== 'GET') throw notFound('path');
    if (!APP_PATH.test(url)) return reply.redirect('/');
    if (!hasWebApp) {
      return reply.type('text/plain; charset=utf-8').status(503).send('The web app is not built yet: run `npm run build`.');
    }
    // cacheControl: false keeps our header (the static plugin would replace it with 'public, max-age=0').
    return reply.header('cache-control', 'no-cache').sendFile('index.html', { cacheControl: false });
  });
}

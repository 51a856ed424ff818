import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import negotiate from '@fastify/accept-negotiator';
import fastifyStatic from '@fastify/static';
import { VERSION_LABEL } from '../../schema/constants';
import { notFound } from '../errors';
import { loadPageTopRenderer, pageTopInput, topDocuments, topReader } from '../web/serverTop';

/** Paths the web app routes itself: home, /login, /oauth/callback, /new-workspace, /{pageUid}, /public/{pageUid} and /clone/{pageUid}. */
const APP_PATH = /^\/(login|oauth\/callback|new-workspace|(public\/|clone\/|form\/[A-Za-z0-9_-]+\/)?[A-Za-z0-9_-]+)?\/?$/;

/** The worker's source (resolved from the working directory, like WEB_DIR: the server runs from the repository root). */
const SERVICE_WORKER_SOURCE = path.resolve('server/web/serviceWorker.js');

/**
 * The app shell a service worker keeps for offline use: the files index.html loads, the
 * translation files (fetched at start), and the Inter fonts for Latin and Cyrillic.
 */
export function appShellFiles(webDir: string, indexHtml: string): string[] {
  const referenced = [...indexHtml.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
  const assetsDir = path.join(webDir, 'assets');
  const files = fs.existsSync(assetsDir) ? fs.readdirSync(assetsDir) : [];
  const more = files
    .filter((name) => name.endsWith('.json') || /^inter-(latin|cyrillic)-(400|500|600|700)-normal-[\w-]+\.woff2$/.test(name))
    .map((name) => `/assets/${name}`);
  return [...new Set([...referenced, ...more])].sort();
}

/** /sw.js for this build: the worker with its build id (a hash of index.html) and shell list filled in. */
export function serviceWorkerScript(webDir: string): string | null {
  const indexFile = path.join(webDir, 'index.html');
  if (!fs.existsSync(indexFile)) return null;
  const html = fs.readFileSync(indexFile, 'utf8');
  const build = crypto.createHash('sha256').update(html).digest('hex').slice(0, 16);
  return fs
    .readFileSync(SERVICE_WORKER_SOURCE, 'utf8')
    .replace("'__BUILD__'", JSON.stringify(build))
    .replace('__PRECACHE__', JSON.stringify(appShellFiles(webDir, html)));
}

/** The build's files a start asks for (the code, style sheets, translations, fonts), by extension: their type. */
const MEMORY_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
};

export interface MemoryAsset {
  type: string;
  etag: string;
  /** The file, and its build-time compressions (server/web/precompress.ts) where there are. */
  bodies: { identity: Buffer; br?: Buffer; gzip?: Buffer };
}

/**
 * The build's assets of MEMORY_TYPES read once, with their .br and .gz: a page's start asks for
 * about twenty of them at once, alongside its first API calls, and from memory each is one write
 * (from the disk, a stat, an open, reads and a close each, ≈ 1.5 ms more a file on this VM).
 * About 4 MB; the rest of the build (source maps, other fonts) is served from the disk.
 */
export function memoryAssets(webDir: string): Map<string, MemoryAsset> {
  const dir = path.join(webDir, 'assets');
  const assets = new Map<string, MemoryAsset>();
  if (!fs.existsSync(dir)) return assets;
  for (const name of fs.readdirSync(dir)) {
    const type = MEMORY_TYPES[path.extname(name)];
    const file = path.join(dir, name);
    if (!type || !fs.statSync(file).isFile()) continue;
    const identity = fs.readFileSync(file);
    const variant = (suffix: string) => (fs.existsSync(file + suffix) ? fs.readFileSync(file + suffix) : undefined);
    const etag = `"${crypto.createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"`;
    assets.set(name, { type, etag, bodies: { identity, br: variant('.br'), gzip: variant('.gz') } });
  }
  return assets;
}

/**
 * Serves /version, /sw.js (the service worker, never cached by the browser's HTTP cache), the built web app from `webDir` (hashed assets cached for a year), the app's
 * index.html for its own routes, and a redirect home for any other path. Unknown /api paths are 404 JSON.
 */
export async function webRoutes(app: FastifyInstance, { webDir }: { webDir: string }) {
  app.get('/version', async (_request, reply) => reply.type('text/plain; charset=utf-8').send(VERSION_LABEL));

  // Read once: a deploy restarts the server with a new build, and so a new worker.
  const serviceWorker = serviceWorkerScript(webDir);
  app.get('/sw.js', async (_request, reply) => {
    if (!serviceWorker) throw notFound('path');
    return reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').header('service-worker-allowed', '/').send(serviceWorker);
  });

  const indexFile = path.join(webDir, 'index.html');
  const hasWebApp = fs.existsSync(indexFile);
  if (hasWebApp) {
    const kept = memoryAssets(webDir);
    app.get<{ Params: { name: string } }>('/assets/:name', { config: { compress: false }, logLevel: 'warn' }, async (request, reply) => {
      const asset = kept.get(request.params.name);
      if (!asset) return reply.callNotFound();
      reply.header('cache-control', 'public, max-age=31536000, immutable').header('etag', asset.etag).header('vary', 'accept-encoding');
      if (request.headers['if-none-match'] === asset.etag) return reply.status(304).send();
      const offered = (['br', 'gzip'] as const).filter((coding) => asset.bodies[coding]);
      const coding = offered.length > 0 ? negotiate(request.headers['accept-encoding'] ?? '', [...offered, 'identity']) : null;
      if (coding === 'br' || coding === 'gzip') reply.header('content-encoding', coding);
      return reply.type(asset.type).send(coding === 'br' || coding === 'gzip' ? asset.bodies[coding] : asset.bodies.identity);
    });
    await app.register(fastifyStatic, {
      root: webDir,
      wildcard: false,
      index: false,
      // Those are served from memory (above).
      globIgnore: [...kept.keys()].map((name) => `assets/${name}`),
      // The build's .br and .gz (server/web/precompress.ts), chosen by Accept-Encoding.
      preCompressed: true,
      setHeaders(res, filePath) {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) res.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
  }

  // The page's top drawn into index.html (server/web/serverTop.ts); both read once, as the build is.
  // The drawing's code (2 MB, ≈ 120 ms to load here) loads beside the start, not before it: the
  // server answers at once, and a page asked for before it is there waits for it.
  const indexHtml = hasWebApp ? fs.readFileSync(indexFile, 'utf8') : '';
  const renderer = hasWebApp
    ? loadPageTopRenderer(webDir).catch((error: unknown) => {
        app.log.error({ err: error }, 'the page top renderer did not load: pages are served without their top');
        return null;
      })
    : Promise.resolve(null);
  const documents = hasWebApp ? topDocuments(webDir, indexHtml) : null;

  app.setNotFoundHandler(async (request, reply) => {
    const url = request.url.split('?')[0];
    if (url.startsWith('/api/') || request.method !== 'GET') throw notFound('path');
    if (!APP_PATH.test(url)) return reply.redirect('/');
    if (!hasWebApp) {
      return reply.type('text/plain; charset=utf-8').status(503).send('The web app is not built yet: run `npm run build`.');
    }
    // `X-Server-Top: off` asks for the plain file (bench:open measures the app without the top beside it).
    if (documents && request.headers['x-server-top'] !== 'off') {
      const top = await drawnTop(request, url);
      // Someone's own page: never kept by a cache, and another cookie is another answer.
      if (top) return reply.type('text/html; charset=utf-8').header('cache-control', 'private, no-store').header('vary', 'cookie').send(top);
    }
    // cacheControl: false keeps our header (the static plugin would replace it with 'public, max-age=0').
    return reply.header('cache-control', 'no-cache').sendFile('index.html', { cacheControl: false });
  });

  /** index.html with the page's top, or null (no such page, not the caller's to read, not a document): the plain file then. */
  async function drawnTop(request: FastifyRequest, pathname: string): Promise<string | null> {
    try {
      const renderPageTop = await renderer;
      if (!renderPageTop || !documents) return null;
      const input = await pageTopInput(app, request, pathname);
      const top = input && (await renderPageTop(input, topReader(app, request, input)));
      return top && input ? documents(top, input.published) : null;
    } catch (error) {
      // The app draws the page itself as before: a failure here costs the head start only.
      app.log.error({ err: error, pathname }, 'the page top was not drawn');
      return null;
    }
  }
}

/*
 * The app's service worker, served at /sw.js by server/routes/web.ts, which fills in BUILD (a
 * hash of the built index.html: it changes with every deploy) and PRECACHE (the app shell: the
 * index, its scripts and styles, the translation files, the Inter fonts for Latin and Cyrillic).
 *
 * - Pages (navigations): the network first, the cached index when offline — the app opens, and
 *   shows its own "no connection" screen rather than the browser's.
 * - /assets/*: content-hashed, so the cache first; anything fetched once is kept (lazy chunks).
 * - /api/*, /sw.js, /version: never cached.
 * A deploy changes this file: the new worker caches the new shell, takes over, and deletes the
 * old caches; the open tabs are told (the app offers to reload).
 */
const BUILD = '__BUILD__';
const PRECACHE = __PRECACHE__;
const CACHE = `app-${BUILD}`;

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      await cache.addAll(['/', ...PRECACHE]);
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const key of await caches.keys()) if (key.startsWith('app-') && key !== CACHE) await caches.delete(key);
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith('/api/') || url.pathname === '/sw.js' || url.pathname === '/version') return;
  if (request.mode === 'navigate') {
    event.respondWith(fetch(request).catch(async () => (await caches.match('/', { cacheName: CACHE })) ?? Response.error()));
    return;
  }
  if (url.pathname.startsWith('/assets/')) {
    event.respondWith(
      (async () => {
        const hit = await caches.match(request, { cacheName: CACHE });
        if (hit) return hit;
        const response = await fetch(request);
        // Never re-create a cache a newer worker has deleted (this worker may still answer a
        // request or two while the new one takes over).
        if (response.ok && (await caches.has(CACHE))) await (await caches.open(CACHE)).put(request, response.clone());
        return response;
      })(),
    );
  }
});

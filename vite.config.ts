import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { slateReactChunkPatch } from './server/web/slateReactChunkPatch.cjs';
import { precompress } from './server/web/precompress.ts';
import { earlyStartPlugin } from './server/web/earlyStart.ts';

/**
 * The web app lives in src/ (its index.html too); `vite build` writes dist/, which the Fastify
 * server serves. `vite build --ssr ssr/pageTop.tsx` writes dist-ssr/pageTop.mjs, the page's top
 * as the server draws it into index.html (src/ssr/pageTop.tsx; docs/web-app.md «The first
 * screen from the server»): one file with everything it uses (React in its production build
 * too), which the server imports.
 */
export default defineConfig(({ isSsrBuild }) => ({
  root: fileURLToPath(new URL('./src', import.meta.url)),
  // slateReactChunkPatch: no per-keystroke walk over every block in slate-react (see the file);
  // earlyStartPlugin: index.html asks for the app's first data and a page's code while it is read;
  // precompress: .br and .gz of the built files, which the server sends as they are.
  plugins: isSsrBuild ? [react(), slateReactChunkPatch()] : [react(), slateReactChunkPatch(), earlyStartPlugin(), precompress()],
  build: isSsrBuild
    ? {
        outDir: fileURLToPath(new URL('./dist-ssr', import.meta.url)),
        emptyOutDir: true,
        sourcemap: true,
        rollupOptions: { output: { entryFileNames: '[name].mjs' } },
      }
    : {
        outDir: fileURLToPath(new URL('./dist', import.meta.url)),
        emptyOutDir: true,
        sourcemap: true,
      },
  ssr: { noExternal: true },
  define: isSsrBuild ? { 'process.env.NODE_ENV': JSON.stringify('production') } : {},
  server: {
    port: 5173,
    proxy: {
      '/api': { target: 'http://localhost:3000', ws: true },
      '/version': 'http://localhost:3000',
    },
  },
}));

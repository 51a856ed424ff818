import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { slateReactChunkPatch } from './src/editor/slateReactChunkPatch.cjs';
import { precompress } from './server/web/precompress.ts';

/** The web app lives in src/ (its index.html too); `vite build` writes dist/, which the Fastify server serves. */
export default defineConfig({
  root: fileURLToPath(new URL('./src', import.meta.url)),
  // slateReactChunkPatch: no per-keystroke walk over every block in slate-react (see the file);
  // precompress: .br and .gz of the built files, which the server sends as they are.
  plugins: [react(), slateReactChunkPatch(), precompress()],
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    sourcemap: true,
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: 'http://localhost:3000', ws: true },
      '/version': 'http://localhost:3000',
    },
  },
});

import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { reactDomSelectionPatch } from './server/web/reactDomSelectionPatch.cjs';
import { slateReactChunkPatch } from './server/web/slateReactChunkPatch.cjs';
import { precompress } from './server/web/precompress.ts';
import { earlyStartPlugin } from './server/web/earlyStart.ts';
import { resolveCustomMedia } from './src/ui/breakpoints.ts';

/**
 * The breakpoints in our style sheets (`@media (--xs)`, `(--up-to-m)`…) written out as media
 * queries from src/ui/breakpoints.ts, the one definition the code reads too; an unknown name
 * fails the build. Before Vite's own CSS handling, so the built CSS holds plain queries.
 */
function customMediaPlugin(): Plugin {
  return {
    name: 'custom-media',
    enforce: 'pre',
    transform(code, id) {
      const file = id.split('?')[0];
      if (!file.endsWith('.css') || file.includes('/node_modules/')) return null;
      return { code: resolveCustomMedia(code, file), map: null };
    },
  };
}

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
  // reactDomSelectionPatch: no walk over the whole editor before each React commit (see the file);
  // earlyStartPlugin: index.html asks for the app's first data and a page's code while it is read;
  // precompress: .br and .gz of the built files, which the server sends as they are;
  // customMediaPlugin: the breakpoints' names in the style sheets written out.
  plugins: isSsrBuild
    ? [customMediaPlugin(), react(), slateReactChunkPatch()]
    : [customMediaPlugin(), react(), slateReactChunkPatch(), reactDomSelectionPatch(), earlyStartPlugin(), precompress()],
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

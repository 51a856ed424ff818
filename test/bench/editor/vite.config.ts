import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * The editor benchmark's three pages (ours, plain-cv, slate-chunk-cv) as production bundles
 * (minified, NODE_ENV=production), written to .tmp/bench-editor (gitignored).
 */
export const BENCH_EDITOR_OUT_DIR = fileURLToPath(new URL('../../../.tmp/bench-editor', import.meta.url));

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  mode: 'production',
  plugins: [react()],
  define: { __HELP_URL__: JSON.stringify('') },
  logLevel: 'warn',
  build: {
    outDir: BENCH_EDITOR_OUT_DIR,
    emptyOutDir: true,
    minify: true,
    sourcemap: false,
    reportCompressedSize: false,
    rollupOptions: {
      input: {
        ours: fileURLToPath(new URL('./ours.html', import.meta.url)),
        plain: fileURLToPath(new URL('./plain.html', import.meta.url)),
        slate: fileURLToPath(new URL('./slate.html', import.meta.url)),
      },
    },
  },
});

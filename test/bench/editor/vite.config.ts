import { fileURLToPath } from 'node:url';
import type { InlineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { reactDomSelectionPatch } from '../../../server/web/reactDomSelectionPatch.cjs';
import { slateReactChunkPatch } from '../../../server/web/slateReactChunkPatch.cjs';

/**
 * The editor benchmark's three pages (ours, plain-cv, slate-chunk-cv) as production bundles
 * (minified, NODE_ENV=production), written to .tmp/bench-editor (gitignored). `minify: false`
 * keeps the names readable for test/bench/editorProfile.ts.
 */
export const BENCH_EDITOR_OUT_DIR = fileURLToPath(new URL('../../../.tmp/bench-editor', import.meta.url));

const page = (name: string) => fileURLToPath(new URL(`./${name}.html`, import.meta.url));

/**
 * Two builds into one directory: "ours" (and plain-cv) with the app's slate-react and react-dom
 * patches, as the app ships; slate-chunk-cv with both as published, the vanilla reference.
 */
export function benchBuildConfigs({ minify = true }: { minify?: boolean } = {}): InlineConfig[] {
  const config = (input: Record<string, string>, patched: boolean, emptyOutDir: boolean): InlineConfig => ({
    configFile: false,
    root: fileURLToPath(new URL('.', import.meta.url)),
    mode: 'production',
    plugins: patched ? [react(), slateReactChunkPatch(), reactDomSelectionPatch()] : [react()],
    logLevel: 'warn',
    build: {
      outDir: BENCH_EDITOR_OUT_DIR,
      emptyOutDir,
      minify,
      sourcemap: false,
      reportCompressedSize: false,
      rollupOptions: { input },
    },
  });
  return [config({ ours: page('ours'), plain: page('plain') }, true, true), config({ slate: page('slate') }, false, false)];
}

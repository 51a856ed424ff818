import type { Plugin } from 'vite';

/** The patched text of slate-react/dist/index.es.js (see slateReactChunkPatch.cjs); `file`, its path, only names it in an error. */
export function patchSlateReact(code: string, file?: string): string;
/** The Vite plugin applying patchSlateReact in builds and in the dev server's pre-bundling. */
export function slateReactChunkPatch(): Plugin;
export const SLATE_REACT_FILE: RegExp;

import type { Plugin } from 'vite';

/** The patched text of a react-dom client build (see reactDomSelectionPatch.cjs); `file`, its path, only names it in an error. */
export function patchReactDom(code: string, file?: string): string;
/** The Vite plugin applying patchReactDom in builds and in the dev server's pre-bundling. */
export function reactDomSelectionPatch(): Plugin;
export const REACT_DOM_CLIENT_FILE: RegExp;

'use strict';
/**
 * A build-time patch of react-dom 19.3's client (applied by vite.config.ts to the app and by the
 * editor benchmark to "ours").
 *
 * Before every commit, React notes the focused element's selection so that it can put it back
 * should the commit take the focus away (`getSelectionInformation`). When the focused element is
 * a contenteditable, that means walking every node inside it to turn the DOM selection into
 * character offsets — at 20,000 blocks ≈ 0.5 ms of each keystroke, for an answer nobody uses:
 * the slate editor puts its selection back itself, from its model, in its own layout effect
 * (react/react#9992 «Are we really doing all this work for every commit? — When the focus is
 * inside a contenteditable, apparently we are.»).
 *
 * The patch skips the walk when the focused element is a slate editor (`data-slate-editor`):
 * React then notes no offsets, and should the focus go during a commit it still gives the focus
 * back (without offsets, which slate sets right after). Every other element — inputs, textareas,
 * other contenteditables — keeps React's behaviour.
 *
 * The anchor is exact source text of react-dom/cjs/react-dom-client.{production,development}.js
 * (and of the profiling builds) 19.3.1. The patch never goes missing silently: a react-dom module that holds the walk but not
 * the anchor (react-dom was changed or upgraded) fails the Vite build and the dev server's
 * pre-bundling with a message that says what to do (WHAT_TO_DO). Jest runs react-dom as
 * published: the patch changes how fast a commit is, not what it does.
 */
const fs = require('node:fs');
const path = require('node:path');

/** The files patched: react-dom's client builds (production and development; the profiling ones too). */
const REACT_DOM_CLIENT_FILE = /[\\/]react-dom[\\/]cjs[\\/]react-dom-(client|profiling)\.(production|development|profiling)\.js$/;
/** Any module of the react-dom package. */
const REACT_DOM_MODULE = /[\\/]node_modules[\\/]react-dom[\\/].*\.[cm]?js$/;
/** What the walk's module holds (a react-dom module with it must be patched). */
const WALK = 'function getActiveElementDeep(';
const PATCHED_VERSION = '19.3.1';
const MARKER = '/* reactDomSelectionPatch applied */';
const ANCHOR = /(root = getActiveElementDeep\(root\);\s*if \()hasSelectionCapabilities\(root\)\) \{/g;
const WHAT_TO_DO =
  `Either keep react-dom at ${PATCHED_VERSION} (exact, in package.json), or port the patch: find commitBeforeMutationEffects ` +
  '(getActiveElementDeep, hasSelectionCapabilities) in the new react-dom client build, update ANCHOR in ' +
  'server/web/reactDomSelectionPatch.cjs (and its PATCHED_VERSION), then run server/web/reactDomSelectionPatch.test.ts and ' +
  'npm run bench:editor. If React no longer walks a focused contenteditable before each commit, drop the patch instead.';

function installedVersion(file) {
  try {
    return JSON.parse(fs.readFileSync(path.join(path.dirname(file), '..', 'package.json'), 'utf8')).version ?? null;
  } catch {
    return null;
  }
}

/** The patched text of a react-dom client build (idempotent); `file`, its path, only names it in an error. */
function patchReactDom(code, file) {
  if (code.includes(MARKER)) return code;
  const found = code.match(ANCHOR)?.length ?? 0;
  if (found !== 1) {
    const version = file ? installedVersion(file) : null;
    throw new Error(
      `reactDomSelectionPatch (server/web/reactDomSelectionPatch.cjs): the selection note before a commit is ` +
        `${found === 0 ? 'not' : 'more than once'} in ${file ?? 'react-dom-client'} as react-dom ${PATCHED_VERSION} has it` +
        `${version && version !== PATCHED_VERSION ? ` (installed: react-dom ${version})` : ''}: react-dom was changed or upgraded. ${WHAT_TO_DO}`,
    );
  }
  return `${MARKER}\n${code.replace(ANCHOR, '$1hasSelectionCapabilities(root) && !(root.hasAttribute && root.hasAttribute("data-slate-editor"))) {')}`;
}

/** The transform of one build: patches the client files; any other react-dom module holding the walk fails the build. */
function transform(code, id) {
  const file = id.split('?')[0];
  if (REACT_DOM_CLIENT_FILE.test(file)) return { code: patchReactDom(code, file), map: null };
  if (REACT_DOM_MODULE.test(file) && code.includes(WALK)) {
    throw new Error(
      `reactDomSelectionPatch (server/web/reactDomSelectionPatch.cjs): this build took react-dom's client from ${file}, ` +
        `not from cjs/react-dom-client.*.js or cjs/react-dom-profiling.*.js, which the patch is for: react-dom was changed or upgraded. ${WHAT_TO_DO}`,
    );
  }
  return null;
}

/** The Vite plugin: patches the module in builds and, through Rolldown's dependency pre-bundling, in the dev server. */
function reactDomSelectionPatch() {
  return {
    name: 'react-dom-selection-patch',
    enforce: 'pre',
    config: () => ({ optimizeDeps: { rolldownOptions: { plugins: [{ name: 'react-dom-selection-patch', transform }] } } }),
    transform,
  };
}

module.exports = { patchReactDom, reactDomSelectionPatch, REACT_DOM_CLIENT_FILE };

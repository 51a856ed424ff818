'use strict';
/**
 * A build-time patch of slate-react 0.146's chunked rendering (applied by vite.config.ts to the
 * app, by the editor benchmark to "ours" only, and by Jest through test/helpers/slateReactTransform.cjs).
 *
 * On every render of the editor, slate-react walks every top-level block twice, whatever changed:
 *  - `useDecorationsByChild` splits the root's decorations into one new array per block and
 *    compares each with the last one;
 *  - `reconcileChildren` reads the whole chunk tree leaf by leaf (a helper object and a small
 *    array per leaf) to find which blocks changed.
 * At 20,000 blocks that is ≈ 2 ms per keystroke once optimized, and far more on the first
 * keystrokes, before V8 has compiled those loops (docs/adr/0006-lazy-chunks.md).
 *
 * The patch adds a fast path to each, and falls back to the original code whenever it does not
 * apply:
 *  - decorations: when the root has no decorations now and had none last time, every block's
 *    entry is already empty; only the array's length is adjusted.
 *  - reconcile: after each full reconcile the tree's leaves are indexed by position. If the next
 *    children array has the same length, no node was moved, at most FAST_RECONCILE_LIMIT entries
 *    differ by identity and each of those keeps its React key (an edit inside a block, not a
 *    replacement), the changed leaves are updated in place and their chunks marked modified —
 *    exactly what the full walk would have done — without walking the tree.
 *
 * The anchors are exact source text of slate-react/dist/index.es.js 0.146.1. The patch never
 * goes missing silently: if an anchor is not found once (slate-react was changed or upgraded),
 * or a build bundles slate-react from another file than the one patched, the Vite build, the dev
 * server's pre-bundling and Jest fail with a message that says what to do (WHAT_TO_DO).
 * Proposed upstream, not filed yet: docs/upstream/slate-react-chunks.md.
 */
const fs = require('node:fs');
const path = require('node:path');

const SLATE_REACT_FILE = /[\\/]slate-react[\\/]dist[\\/]index\.es\.js$/;
/** Any module of the slate-react package (a build that bundles one of these must have patched SLATE_REACT_FILE). */
const SLATE_REACT_MODULE = /[\\/]node_modules[\\/]slate-react[\\/].*\.[cm]?js$/;
const PATCHED_VERSION = '0.146.1';
const MARKER = '/* slateReactChunkPatch applied */';
const WHAT_TO_DO =
  `Either keep slate-react at ${PATCHED_VERSION} (exact, in package.json), or port the patch: find reconcileChildren and ` +
  "useDecorationsByChild in the new slate-react's ES module file, update the anchors in server/web/slateReactChunkPatch.cjs " +
  "(and its PATCHED_VERSION; SLATE_REACT_FILE and jest.config.js's slate-react mapping if the file moved), then run " +
  'src/editor/slateReactChunkPatch.test.tsx and npm run bench:editor. If the new version no longer walks every block on ' +
  'each render, drop the patch instead (docs/adr/0006-lazy-chunks.md, docs/upstream/slate-react-chunks.md).';

const RECONCILE_START = 'const reconcileChildren = (editor, {';
const RECONCILE_BODY = '  const chunkTreeHelper = new ChunkTreeHelper(chunkTree, {';
const RECONCILE_END = '  chunkTree.movedNodeKeys.clear();\n};';

const HELPERS = `${MARKER}
const FAST_RECONCILE_LIMIT = 32;
const slateChunkPatchIndexLeaves = (chunkTree, children) => {
  const leaves = new Array(children.length);
  const chunks = new Array(children.length);
  let count = 0;
  let sound = true;
  const walk = ancestor => {
    for (const child of ancestor.children) {
      if (child.type === 'chunk') {
        walk(child);
      } else {
        if (child.index !== count || child.node !== children[count]) sound = false;
        leaves[count] = child;
        chunks[count] = ancestor;
        count++;
      }
    }
  };
  walk(chunkTree);
  chunkTree.fastIndex = sound && count === children.length ? { children, leaves, chunks } : null;
};
const slateChunkPatchFastReconcile = (editor, chunkTree, children, rerenderChildren, onUpdate) => {
  const index = chunkTree.fastIndex;
  if (!index || chunkTree.movedNodeKeys.size > 0 || index.children.length !== children.length) return false;
  const previous = index.children;
  const changed = [];
  if (previous !== children) {
    for (let i = 0; i < children.length; i++) {
      if (previous[i] !== children[i]) {
        if (changed.length === FAST_RECONCILE_LIMIT) return false;
        changed.push(i);
      }
    }
  }
  for (const i of changed) {
    if (ReactEditor.findKey(editor, children[i]) !== index.leaves[i].key) return false;
  }
  const invalidate = chunk => {
    for (let c = chunk; c.type === 'chunk'; c = c.parent) chunkTree.modifiedChunks.add(c);
  };
  for (const i of changed) {
    index.leaves[i].node = children[i];
    invalidate(index.chunks[i]);
    if (onUpdate) onUpdate(children[i], i);
  }
  for (const i of rerenderChildren) {
    if (i < children.length) invalidate(index.chunks[i]);
  }
  index.children = children;
  return true;
};
`;

const DECORATIONS_ORIGINAL = `const useDecorationsByChild = (editor, node, decorations) => {
  const decorationsByChild = splitDecorationsByChild(editor, node, decorations);
  // The value we return is a mutable array of \`DecoratedRange[]\` arrays. This
  // lets us avoid passing an immutable array of decorations for each child into
  // \`ChunkTree\` using props. Each \`DecoratedRange[]\` is only updated if the
  // decorations at that index have changed, which speeds up the equality check
  // for the \`decorations\` prop in the memoized \`Element\` and \`Text\` components.
  const mutableDecorationsByChild = useRef(decorationsByChild).current;`;

const DECORATIONS_PATCHED = `const useDecorationsByChild = (editor, node, decorations) => {
  const patchState = useRef(null);
  if (patchState.current !== null && patchState.current.allEmpty && decorations.length === 0) {
    const byChild = patchState.current.byChild;
    const count = node.children.length;
    for (let i = byChild.length; i < count; i++) byChild[i] = [];
    byChild.length = count;
    return { decorationsByChild: byChild, childrenToRedecorate: [] };
  }
  const decorationsByChild = splitDecorationsByChild(editor, node, decorations);
  if (patchState.current === null) patchState.current = { byChild: decorationsByChild, allEmpty: false };
  patchState.current.allEmpty = decorations.length === 0;
  const mutableDecorationsByChild = patchState.current.byChild;`;

/** The version in the package.json of the slate-react that `file` belongs to, when it can be read. */
function installedVersion(file) {
  try {
    return JSON.parse(fs.readFileSync(path.join(path.dirname(file), '..', 'package.json'), 'utf8')).version ?? null;
  } catch {
    return null;
  }
}

function replaceOnce(code, search, replacement, what, file) {
  const at = code.indexOf(search);
  const found = at === -1 ? 0 : code.indexOf(search, at + search.length) === -1 ? 1 : 2;
  if (found !== 1) {
    const version = file ? installedVersion(file) : null;
    throw new Error(
      `slateReactChunkPatch (server/web/slateReactChunkPatch.cjs): the ${what} is ${found === 0 ? 'not' : 'more than once'} in ` +
        `${file ?? 'slate-react/dist/index.es.js'} as slate-react ${PATCHED_VERSION} has it` +
        `${version && version !== PATCHED_VERSION ? ` (installed: slate-react ${version})` : ''}: slate-react was changed or upgraded. ${WHAT_TO_DO}`,
    );
  }
  return code.slice(0, at) + replacement + code.slice(at + search.length);
}

/** The patched text of slate-react/dist/index.es.js (idempotent); `file`, its path, only names it in an error. */
function patchSlateReact(code, file) {
  if (code.includes(MARKER)) return code;
  let out = replaceOnce(code, RECONCILE_START, `${HELPERS}${RECONCILE_START}`, 'reconcileChildren function', file);
  out = replaceOnce(
    out,
    RECONCILE_BODY,
    `  if (slateChunkPatchFastReconcile(editor, chunkTree, children, _rerenderChildren, onUpdate)) return;\n${RECONCILE_BODY}`,
    'reconcileChildren body',
    file,
  );
  out = replaceOnce(out, RECONCILE_END, `  slateChunkPatchIndexLeaves(chunkTree, children);\n${RECONCILE_END}`, 'reconcileChildren end', file);
  out = replaceOnce(out, DECORATIONS_ORIGINAL, DECORATIONS_PATCHED, 'useDecorationsByChild function', file);
  return out;
}

/**
 * The hooks of one build: patch SLATE_REACT_FILE, and fail the build at its end if it bundled a
 * module of slate-react but never that file (slate-react's entry moved: the patch would be lost).
 */
function patchingBuild() {
  let patched = false;
  let unpatched = null;
  return {
    buildStart() {
      patched = false;
      unpatched = null;
    },
    transform(code, id) {
      const file = id.split('?')[0];
      if (SLATE_REACT_FILE.test(file)) {
        patched = true;
        return { code: patchSlateReact(code, file), map: null };
      }
      if (SLATE_REACT_MODULE.test(file)) unpatched = file;
      return null;
    },
    buildEnd(error) {
      if (error || patched || unpatched === null) return;
      throw new Error(
        `slateReactChunkPatch (server/web/slateReactChunkPatch.cjs): this build took slate-react from ${unpatched}, not from ` +
          `dist/index.es.js, which the patch is for: slate-react was changed or upgraded, and its chunk patch was not applied. ${WHAT_TO_DO}`,
      );
    },
  };
}

/**
 * The Vite plugin: patches the module in builds and, through Rolldown's dependency
 * pre-bundling, in the dev server.
 */
function slateReactChunkPatch() {
  return {
    name: 'slate-react-chunk-patch',
    enforce: 'pre',
    // The dev server pre-bundles dependencies with Rolldown, outside the plugin pipeline.
    config: () => ({ optimizeDeps: { rolldownOptions: { plugins: [{ name: 'slate-react-chunk-patch', ...patchingBuild() }] } } }),
    ...patchingBuild(),
  };
}

module.exports = { patchSlateReact, slateReactChunkPatch, SLATE_REACT_FILE };

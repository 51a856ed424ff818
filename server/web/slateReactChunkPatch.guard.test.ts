/** @jest-environment node */
import fs from 'node:fs';
import path from 'node:path';
import { patchGuardProject, type PatchGuardProject } from '../../test/helpers/patchGuardBuild';
import { patchSlateReact } from './slateReactChunkPatch.cjs';

/*
 * The chunk patch never goes missing silently (docs/adr/0006-lazy-chunks.md): a slate-react it
 * does not fit — an upgrade — fails the patch, Jest's transform and a real Vite build, each time
 * with a message naming the patch's file and what to do.
 */

const ROOT = process.cwd();
const SLATE_REACT = path.join(ROOT, 'node_modules/slate-react/dist/index.es.js');
const source = fs.readFileSync(SLATE_REACT, 'utf8');
const ANCHORS = {
  'reconcileChildren function': 'const reconcileChildren = (editor, {',
  'reconcileChildren body': '  const chunkTreeHelper = new ChunkTreeHelper(chunkTree, {',
  'reconcileChildren end': '  chunkTree.movedNodeKeys.clear();\n};',
  'useDecorationsByChild function': 'const useDecorationsByChild = (editor, node, decorations) => {',
};
const WHAT_TO_DO =
  /slateReactChunkPatch \(server\/web\/slateReactChunkPatch\.cjs\).*slate-react was changed or upgraded\. Either keep slate-react at 0\.146\.1 .* or port the patch/;

describe('slateReactChunkPatch guard', () => {
  test('applies to the installed slate-react, once, and refuses text it does not know', () => {
    const patched = patchSlateReact(source);
    expect(patched).toContain('slateChunkPatchFastReconcile(editor, chunkTree, children, _rerenderChildren, onUpdate)');
    expect(patched).toContain('slateChunkPatchIndexLeaves(chunkTree, children);');
    expect(patched).toContain('patchState.current.allEmpty');
    expect(patchSlateReact(patched)).toBe(patched);
    expect(() => patchSlateReact(source.replace('const reconcileChildren = (editor, {', 'const reconcileChildren = (ed, {'))).toThrow(
      /slate-react was changed or upgraded/,
    );
  });

  test.each(Object.entries(ANCHORS))('a slate-react without the %s is refused, saying what to do', (what, anchor) => {
    expect(source.split(anchor)).toHaveLength(2);
    const changed = source.replace(anchor, anchor.replace('editor', 'ed').replace('chunkTree', 'tree').replace('};', '}'));
    expect(() => patchSlateReact(changed, SLATE_REACT)).toThrow(WHAT_TO_DO);
    expect(() => patchSlateReact(changed)).toThrow(`the ${what} is not in slate-react/dist/index.es.js as slate-react 0.146.1 has it`);
  });

  test('an anchor found twice is refused too (the patch would land in the wrong place)', () => {
    const twice = `${source}\n${ANCHORS['reconcileChildren body']}\n`;
    expect(() => patchSlateReact(twice)).toThrow('the reconcileChildren body is more than once in');
  });

  test("Jest's transform of slate-react fails on it (so does every suite that loads slate-react)", () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const transformer = require('../../test/helpers/slateReactTransform.cjs') as {
      createTransformer(options: object): { process(source: string, file: string, options: object): { code: string } };
    };
    const transform = transformer.createTransformer({ module: { type: 'commonjs' } });
    const options = { config: { cwd: ROOT }, cacheFS: new Map(), configString: '{}', transformerConfig: {} };
    expect(transform.process(source, SLATE_REACT, options).code).toContain('slateChunkPatchFastReconcile');
    expect(() => transform.process('export const Slate = () => null;', SLATE_REACT, options)).toThrow(WHAT_TO_DO);
  });

  describe('a Vite build', () => {
    // slate-react's own imports (react, slate, …) stay imports: only slate-react is bundled.
    let project: PatchGuardProject;
    /** Builds a project whose slate-react is `files` (with its version and ES module entry) with the app's plugin. */
    const build = (files: Record<string, string>, { version = '0.147.0', entry = 'dist/index.es.js' } = {}) =>
      project.build(
        files,
        { name: 'slate-react', version, module: entry, main: entry },
        "import { Editable, Slate } from 'slate-react';\nconsole.log(Slate, Editable);\n",
      );
    beforeAll(() => {
      project = patchGuardProject('server/web/slateReactChunkPatch.cjs', 'slateReactChunkPatch', '^slate-react$');
    });
    afterAll(() => project.remove());

    test('with the installed slate-react, succeeds and bundles it patched', async () => {
      const result = await build({ 'dist/index.es.js': source }, { version: '0.146.1' });
      expect(result.failed).toBe(false);
      expect(result.output).toContain('slateChunkPatchFastReconcile(editor, chunkTree, children, _rerenderChildren, onUpdate)');
    }, 60_000);

    test('fails on a slate-react the patch does not fit, naming the installed version', async () => {
      const result = await build({ 'dist/index.es.js': "export const Slate = () => 'upgraded';\nexport const Editable = Slate;\n" });
      expect(result.failed).toBe(true);
      expect(result.output).toMatch(WHAT_TO_DO);
      expect(result.output).toContain('(installed: slate-react 0.147.0)');
    }, 60_000);

    test('fails when slate-react comes from another file than the one patched', async () => {
      const result = await build({ 'dist/index.mjs': source }, { version: '0.146.1', entry: 'dist/index.mjs' });
      expect(result.failed).toBe(true);
      expect(result.output).toContain('this build took slate-react from');
      expect(result.output).toContain('its chunk patch was not applied');
      expect(result.output).toMatch(/Either keep slate-react at 0\.146\.1/);
    }, 60_000);
  });
});

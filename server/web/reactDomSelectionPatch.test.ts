/** @jest-environment node */
import fs from 'node:fs';
import path from 'node:path';
import { patchGuardProject, type PatchGuardProject } from '../../test/helpers/patchGuardBuild';
import { patchReactDom, REACT_DOM_CLIENT_FILE } from './reactDomSelectionPatch.cjs';

/*
 * React's selection note before a commit skips the slate editor (reactDomSelectionPatch.cjs),
 * and the patch never goes missing silently: a react-dom it does not fit — an upgrade — fails the
 * patch and a real Vite build with a message naming the patch's file and what to do.
 */

const ROOT = process.cwd();
const CJS = path.join(ROOT, 'node_modules/react-dom/cjs');
const CLIENT_BUILDS = [
  'react-dom-client.production.js',
  'react-dom-client.development.js',
  'react-dom-profiling.development.js',
  'react-dom-profiling.profiling.js',
];
const source = fs.readFileSync(path.join(CJS, 'react-dom-client.production.js'), 'utf8');
const CHECK = 'hasSelectionCapabilities(root) && !(root.hasAttribute && root.hasAttribute("data-slate-editor"))) {';
const WHAT_TO_DO =
  /reactDomSelectionPatch \(server\/web\/reactDomSelectionPatch\.cjs\).*react-dom was changed or upgraded\. Either keep react-dom at 19\.3\.1 .* or port the patch/;

describe('reactDomSelectionPatch', () => {
  test.each(CLIENT_BUILDS)("applies to the installed react-dom's %s, once, and only there", (name) => {
    const file = path.join(CJS, name);
    expect(REACT_DOM_CLIENT_FILE.test(file)).toBe(true);
    const code = fs.readFileSync(file, 'utf8');
    const patched = patchReactDom(code, file);
    expect(patched.split(CHECK)).toHaveLength(2);
    // Only the note before a commit changed: restoring the selection after it still asks hasSelectionCapabilities plainly.
    expect(patched.replace(CHECK, 'hasSelectionCapabilities(root)) {').replace('/* reactDomSelectionPatch applied */\n', '')).toBe(code);
    expect(patchReactDom(patched, file)).toBe(patched);
  });

  test('the server renderer and other files are not taken for the client', () => {
    expect(REACT_DOM_CLIENT_FILE.test(path.join(CJS, 'react-dom-server.node.production.js'))).toBe(false);
    expect(REACT_DOM_CLIENT_FILE.test(path.join(CJS, 'react-dom.production.js'))).toBe(false);
  });

  test('refuses text it does not know, and an anchor found twice, saying what to do', () => {
    const changed = source.replace('root = getActiveElementDeep(root);', 'root = getActiveElementDeep(root, true);');
    expect(() => patchReactDom(changed, path.join(CJS, 'react-dom-client.production.js'))).toThrow(WHAT_TO_DO);
    expect(() => patchReactDom(changed)).toThrow('the selection note before a commit is not in react-dom-client as react-dom 19.3.1 has it');
    const twice = `${source}\nroot = getActiveElementDeep(root);\n  if (hasSelectionCapabilities(root)) {}\n`;
    expect(() => patchReactDom(twice)).toThrow('is more than once in');
  });

  describe('a Vite build', () => {
    // react-dom's own imports (react, scheduler, react-dom itself) stay imports: only the file imported is bundled.
    let project: PatchGuardProject;
    /** Builds a project importing `entry` of a react-dom made of `files` (with its version) with the app's plugin. */
    const build = (files: Record<string, string>, entry: string, version = '19.4.0') =>
      project.build(files, { name: 'react-dom', version }, `import * as client from 'react-dom/${entry}';\nconsole.log(client);\n`);
    beforeAll(() => {
      project = patchGuardProject('server/web/reactDomSelectionPatch.cjs', 'reactDomSelectionPatch', '^react-dom/');
    });
    afterAll(() => project.remove());

    test('with the installed react-dom, succeeds and bundles its client patched', async () => {
      const result = await build({ 'cjs/react-dom-client.production.js': source }, 'cjs/react-dom-client.production.js', '19.3.1');
      expect(result.failed).toBe(false);
      expect(result.output).toContain('root.hasAttribute("data-slate-editor")');
    }, 60_000);

    test('fails on a react-dom client the patch does not fit, naming the installed version', async () => {
      const changed = source.replace('root = getActiveElementDeep(root);', 'root = getActiveElementDeep(root, true);');
      const result = await build({ 'cjs/react-dom-client.production.js': changed }, 'cjs/react-dom-client.production.js');
      expect(result.failed).toBe(true);
      expect(result.output).toMatch(WHAT_TO_DO);
      expect(result.output).toContain('(installed: react-dom 19.4.0)');
    }, 60_000);

    test("fails when react-dom's client comes from another file than the ones patched", async () => {
      const result = await build(
        { 'esm/client.js': `function getActiveElementDeep(container) { return container; }\nexport const x = getActiveElementDeep;\n` },
        'esm/client.js',
      );
      expect(result.failed).toBe(true);
      expect(result.output).toContain("this build took react-dom's client from");
      expect(result.output).toMatch(/Either keep react-dom at 19\.3\.1/);
    }, 60_000);
  });
});

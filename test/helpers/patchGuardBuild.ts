import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

/*
 * Real Vite builds of a small project with one of the app's build-time patches of a dependency
 * (server/web/*Patch.cjs): the guard tests give it a package of their own making and look at
 * what the build bundled or why it failed.
 */

const run = promisify(execFile);
const ROOT = process.cwd();

export interface PatchGuardProject {
  /** Builds with `pkg` made of `files` and `packageJson`, `main.js` being `main`. */
  build(files: Record<string, string>, packageJson: Record<string, unknown>, main: string): Promise<{ failed: boolean; output: string }>;
  remove(): void;
}

/**
 * A project in a temporary directory whose vite.config uses `plugin` (the factory exported by
 * `patchFile`, relative to the repository). Bare imports other than `bundled(id)` stay imports.
 */
export function patchGuardProject(patchFile: string, plugin: string, bundledPattern: string): PatchGuardProject {
  const project = fs.mkdtempSync(path.join(os.tmpdir(), 'patch-guard-'));
  fs.mkdirSync(path.join(project, 'src'));
  fs.writeFileSync(path.join(project, 'src/index.html'), '<!doctype html><script type="module" src="./main.js"></script>');
  fs.writeFileSync(
    path.join(project, 'vite.config.mjs'),
    `import patch from ${JSON.stringify(path.join(ROOT, patchFile))};\n` +
      `export default { root: ${JSON.stringify(path.join(project, 'src'))}, logLevel: 'silent', plugins: [patch.${plugin}()], ` +
      `build: { outDir: ${JSON.stringify(path.join(project, 'dist'))}, emptyOutDir: true, minify: false, ` +
      `rolldownOptions: { external: (id) => /^[\\w@]/.test(id) && !new RegExp(${JSON.stringify(bundledPattern)}).test(id) } } };\n`,
  );
  return {
    async build(files, packageJson, main) {
      const name = String(packageJson.name);
      const pkg = path.join(project, 'node_modules', name);
      fs.rmSync(pkg, { recursive: true, force: true });
      for (const [file, text] of Object.entries({ ...files, 'package.json': JSON.stringify(packageJson) })) {
        fs.mkdirSync(path.dirname(path.join(pkg, file)), { recursive: true });
        fs.writeFileSync(path.join(pkg, file), text);
      }
      fs.writeFileSync(path.join(project, 'src/main.js'), main);
      const vite = path.join(ROOT, 'node_modules/vite/bin/vite.js');
      return run(process.execPath, [vite, 'build', '--config', path.join(project, 'vite.config.mjs')], { cwd: project }).then(
        () => ({
          failed: false,
          output: fs
            .readdirSync(path.join(project, 'dist/assets'))
            .map((file) => fs.readFileSync(path.join(project, 'dist/assets', file), 'utf8'))
            .join('\n'),
        }),
        (error: { stderr: string }) => ({ failed: true, output: error.stderr }),
      );
    },
    remove: () => fs.rmSync(project, { recursive: true, force: true }),
  };
}

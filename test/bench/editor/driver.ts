/**
 * What test/bench/editorBench.ts and editorProfile.ts both do with the editor benchmark's pages:
 * build them, serve them, open one in a fresh Chromium profile, click into the typing target and
 * type the sentence key by key as BENCH-METHOD.md says.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../helpers/browser';
import { TYPED_SENTENCE } from './document';
import type { KeyTiming } from './harness';

/** The character of the target paragraph the click puts the caret before. */
export const TYPING_TARGET_OFFSET = 30;

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
};

/** A tiny static server for the built pages, on 127.0.0.1. */
export function serve(root: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const file = path.join(root, path.normalize(pathname).replace(/^([/\\])+/, ''));
    if (!file.startsWith(root) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((done) => server.close(() => done())) }),
    ),
  );
}

/** Builds the pages (production bundles; `minify: false` keeps names readable for a profile) and returns where they are. */
export async function buildBenchPages(options: { minify?: boolean } = {}): Promise<string> {
  process.env.NODE_ENV = 'production';
  const { build } = await import('vite');
  const { BENCH_EDITOR_OUT_DIR, benchBuildConfigs } = await import('./vite.config');
  for (const config of benchBuildConfigs(options)) await build(config);
  return BENCH_EDITOR_OUT_DIR;
}

/** Chromium with a fresh profile (1280 × 800) and its page; `close` deletes the profile too. */
export async function freshBrowser(prefix: string): Promise<{ context: BrowserContext; page: Page; close(): Promise<void> }> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 800 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    close: async () => {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Scrolls the typing target to the centre (twice: content-visibility may settle sizes on the way)
 * and returns where its character TYPING_TARGET_OFFSET is, for the click.
 */
export async function locateTypingTarget(page: Page): Promise<{ x: number; y: number }> {
  await page.evaluate((offset) => window.bench.locateCharacter(offset), TYPING_TARGET_OFFSET);
  await page.waitForTimeout(100);
  const point = await page.evaluate((offset) => window.bench.locateCharacter(offset), TYPING_TARGET_OFFSET);
  if (!point) throw new Error('typing target not found');
  return point;
}

/** Types the sentence one key at a time, each after the last one's frame and 100 ms of quiet; their timings. */
export async function typeSentence(page: Page): Promise<KeyTiming[]> {
  const keys: KeyTiming[] = [];
  for (const ch of TYPED_SENTENCE) {
    await page.evaluate(() => window.bench.startKey());
    await page.keyboard.type(ch);
    keys.push(await page.evaluate(() => window.bench.settle()));
  }
  return keys;
}

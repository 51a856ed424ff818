/**
 * `npm run bench:editor-profile`: where ours spends a keystroke. Not a benchmark (nothing is
 * compared): a tool for the next person chasing the keystroke target of `npm run bench:editor`.
 * Builds the benchmark's pages unminified (readable names), opens ours at one size and variant,
 * clicks the target as the benchmark does, then records a V8 CPU profile (sampling every 50 µs)
 * while the benchmark's sentence is typed key by key, and prints the functions with the most self
 * time and the most total time (own + callees), both in ms per keystroke.
 *   PROFILE_SIZE=20000 PROFILE_VARIANT=mixed PROFILE_TOP=40 npm run bench:editor-profile
 * PROFILE_TREE=0.05 also prints the call tree's branches over 0.05 ms a keystroke.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TYPED_SENTENCE } from './editor/document';
import { buildBenchPages, freshBrowser, locateTypingTarget, serve, typeSentence } from './editor/driver';

const SIZE = Number(process.env.PROFILE_SIZE ?? 20000);
const VARIANT = process.env.PROFILE_VARIANT === 'plain' ? 'plain' : 'mixed';
const TOP = Number(process.env.PROFILE_TOP ?? 40);

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The profile's entries that are not script: idle, the browser's own work, the root. */
const NOT_SCRIPT = new Set(['(idle)', '(program)', '(root)']);

const frameName = (node: ProfileNode) => {
  const { functionName, url, lineNumber } = node.callFrame;
  return `${functionName || '(anonymous)'} ${url ? `${path.basename(url)}:${lineNumber + 1}` : ''}`.trim();
};

/** Self and total (own + callees, a function counted once per stack) time by function, ms. */
function aggregate(profile: Profile): { self: Map<string, number>; total: Map<string, number> } {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  profile.samples.forEach((id, index) => {
    const ms = (profile.timeDeltas[index + 1] ?? 0) / 1000;
    const leaf = byId.get(id);
    if (!leaf) return;
    self.set(frameName(leaf), (self.get(frameName(leaf)) ?? 0) + ms);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const name = frameName(byId.get(at) as ProfileNode);
      if (seen.has(name)) continue;
      seen.add(name);
      total.set(name, (total.get(name) ?? 0) + ms);
    }
  });
  return { self, total };
}

/** The call tree from the root, merged by name along each path, with the branches over `minMs` a keystroke. */
function printTree(profile: Profile, keys: number, minMs: number): void {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMs = new Map<number, number>();
  profile.samples.forEach((id, index) => selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[index + 1] ?? 0) / 1000));
  interface Branch {
    ms: number;
    children: Map<string, Branch>;
  }
  const grow = (id: number, into: Branch): number => {
    const node = byId.get(id) as ProfileNode;
    let ms = selfMs.get(id) ?? 0;
    for (const child of node.children ?? []) {
      const name = frameName(byId.get(child) as ProfileNode);
      const branch = into.children.get(name) ?? { ms: 0, children: new Map() };
      into.children.set(name, branch);
      const childMs = grow(child, branch);
      branch.ms += childMs;
      ms += childMs;
    }
    return ms;
  };
  const root: Branch = { ms: 0, children: new Map() };
  root.ms = grow(profile.nodes[0].id, root);
  console.log(`\ncall tree (ms per keystroke, branches over ${minMs})`);
  const walk = (branch: Branch, depth: number) => {
    for (const [name, child] of [...branch.children].sort((a, b) => b[1].ms - a[1].ms)) {
      if (child.ms / keys < minMs || name === '(idle)') continue;
      console.log(`${(child.ms / keys).toFixed(3).padStart(8)} ${'  '.repeat(depth)}${name}`);
      walk(child, depth + 1);
    }
  };
  walk(root, 0);
}

function print(title: string, figures: Map<string, number>, keys: number): void {
  console.log(`\n${title} (ms per keystroke)`);
  for (const [name, ms] of [...figures]
    .filter(([name]) => !NOT_SCRIPT.has(name))
    .sort((a, b) => b[1] - a[1])
    .slice(0, TOP)) {
    console.log(`${(ms / keys).toFixed(3).padStart(8)}  ${name}`);
  }
}

async function main() {
  const server = await serve(await buildBenchPages({ minify: false }));
  const browser = await freshBrowser('editor-profile-');
  try {
    const { context, page } = browser;
    await page.goto(`${server.url}/ours.html?n=${SIZE}&variant=${VARIANT}`);
    await page.evaluate(() => window.bench.mounted);
    await page.waitForTimeout(500);
    const point = await locateTypingTarget(page);
    await page.mouse.click(point.x, point.y);
    await page.waitForTimeout(400);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 50 });
    await cdp.send('Profiler.start');
    const latencies = (await typeSentence(page)).map((key) => key.latency).filter((latency): latency is number => latency !== null);
    const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: Profile };
    const keys = TYPED_SENTENCE.length;
    const { self, total } = aggregate(profile);
    console.log(`ours, ${SIZE} blocks, ${VARIANT}: ${keys} keys; latencies (ms) ${latencies.map((l) => l.toFixed(1)).join(' ')}`);
    const busy = [...self].filter(([name]) => !NOT_SCRIPT.has(name)).reduce((sum, [, ms]) => sum + ms, 0);
    const react = total.get([...total.keys()].find((name) => name.startsWith('performWorkOnRoot ')) ?? '') ?? 0;
    console.log(`script per keystroke: ${(busy / keys).toFixed(2)} ms, of which React's render and commit ${(react / keys).toFixed(2)} ms`);
    print('self time', self, keys);
    print('total time', total, keys);
    if (process.env.PROFILE_TREE) printTree(profile, keys, Number(process.env.PROFILE_TREE));
    const file = path.join(os.tmpdir(), `editor-profile-${Date.now()}.cpuprofile`);
    fs.writeFileSync(file, JSON.stringify(profile));
    console.log(`\nthe whole profile (open in Chromium's DevTools, Performance): ${file}`);
  } finally {
    await browser.close();
    await server.close();
  }
}

await main();

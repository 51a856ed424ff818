/**
 * `npm run bench:toggles` — does a page of toggles open as fast as one without them (issue 39)?
 *
 * Pages of the same size on one server (SQLite): 200 toggles, each with two paragraphs nested
 * under it (closed, as a reader finds them: folded away), and the same 600 blocks as 200
 * paragraphs with two nested under each (the baseline), twice — the second copy, the control,
 * shows what the same page measures against itself: the noise of the ratio. Each is opened in a
 * fresh Chromium context, in turn (the order rotating), BENCH_REPS times; measured from
 * navigation: the first screen (the first block's text in the DOM, the next frame), editable (the
 * editor's contenteditable, the next frame), and the main thread's work in the first 1.5 s (CDP
 * Performance metrics: the chunks mounted after the first one are in it). Figures are medians
 * (p90) of the same run; ratios are medians of each repetition's own ratio to the baseline
 * (../shared/design/BENCH-METHOD.md).
 *
 *   BENCH_REPS=9 BENCH_TOGGLES=200 npm run bench:toggles
 */
import { randomUUID } from 'node:crypto';
import { launchBrowser } from '../helpers/browser';
import { fetchJson, signInToProcess, startServerProcess } from '../helpers/serverProcess';

const REPS = Number(process.env.BENCH_REPS ?? 9);
const TOGGLES = Number(process.env.BENCH_TOGGLES ?? 200);
const EMAIL = 'toggles-bench@example.com';
const S = '/api/v3/spaces';
/** The main thread's work is read this long after navigation (the chunks mounted after the first screen are in it). */
const MAIN_THREAD_WINDOW_MS = 1500;

type NewBlock = { id: string; type: string; data: unknown; parentId: string | null; placeAfter: string | null };

/** `count` heads (toggles or paragraphs), each with two paragraphs nested under it. */
function pageBlocks(head: 'toggle' | 'text', count: number): NewBlock[] {
  const blocks: NewBlock[] = [];
  let previousHead: string | null = null;
  for (let i = 0; i < count; i++) {
    const id = randomUUID();
    blocks.push({
      id,
      type: head,
      data: { tokens: [{ text: `Вопрос ${i + 1}: как сделать то, о чём спрашивают чаще всего?` }] },
      parentId: null,
      placeAfter: previousHead,
    });
    let previous: string | null = null;
    for (let j = 0; j < 2; j++) {
      const child = randomUUID();
      blocks.push({
        id: child,
        type: 'text',
        data: { tokens: [{ text: `Ответ ${i + 1}.${j + 1}: подробности, которые видны, когда раскрыто.` }] },
        parentId: id,
        placeAfter: previous,
      });
      previous = child;
    }
    previousHead = id;
  }
  return blocks;
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};
const ms = (n: number) => `${n.toFixed(0)} ms`;

async function main() {
  const server = await startServerProcess({ LOG_REQUESTS: 'false' });
  const browser = await launchBrowser();
  try {
    const cookie = await signInToProcess(server, EMAIL);
    const kinds = { toggles: 'toggle', baseline: 'text', control: 'text' } as const;
    type Kind = keyof typeof kinds;
    const names = Object.keys(kinds) as Kind[];
    const pages = {} as Record<Kind, string>;
    for (const name of names) {
      const page = await fetchJson<{ data: { id: string } }>(`${server.url}${S}/section/private`, {
        method: 'POST',
        cookie,
        body: JSON.stringify({ title: `Страница: ${name}` }),
      });
      const blocks = pageBlocks(kinds[name], TOGGLES);
      for (let at = 0; at < blocks.length; at += 500) {
        await fetchJson(`${server.url}${S}/blocks/create`, {
          method: 'POST',
          cookie,
          body: JSON.stringify({ pageId: page.data.id, blocks: blocks.slice(at, at + 500) }),
        });
      }
      pages[name] = page.data.id;
    }
    const [cookieName, cookieValue] = cookie.split(';')[0].split('=');

    const open = async (pageId: string) => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      await context.addCookies([{ name: cookieName, value: cookieValue, url: server.url }]);
      await context.addInitScript(() => {
        const w = window as unknown as { __firstScreen?: number; __editable?: number };
        const observer = new MutationObserver(() => {
          if (
            w.__firstScreen === undefined &&
            document.querySelector('[data-slate-editor] [data-block-id]:not([data-block-id^="pageHeading"]), [data-top-editor] [data-top-block]')
          ) {
            w.__firstScreen = -1;
            requestAnimationFrame(() => (w.__firstScreen = performance.now()));
          }
          if (w.__editable === undefined && document.querySelector('[data-slate-editor][contenteditable="true"]')) {
            w.__editable = -1;
            requestAnimationFrame(() => (w.__editable = performance.now()));
          }
        });
        observer.observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['contenteditable'] });
      });
      const tab = await context.newPage();
      const cdp = await context.newCDPSession(tab);
      await cdp.send('Performance.enable');
      await tab.goto(`${server.url}/${pageId}`);
      await tab.waitForFunction(
        () => {
          const w = window as unknown as { __firstScreen?: number; __editable?: number };
          return (w.__firstScreen ?? -1) > 0 && (w.__editable ?? -1) > 0;
        },
        undefined,
        { timeout: 60_000 },
      );
      const drawn = await tab.evaluate(() => {
        const w = window as unknown as { __firstScreen: number; __editable: number };
        return {
          firstScreen: w.__firstScreen,
          editable: w.__editable,
          toggles: document.querySelectorAll('[data-slate-editor] .block-toggle').length,
          blocks: document.querySelectorAll('[data-slate-editor] [data-block-id]').length,
        };
      });
      await tab.waitForTimeout(Math.max(0, MAIN_THREAD_WINDOW_MS - drawn.editable));
      const { metrics } = await cdp.send('Performance.getMetrics');
      await context.close();
      return { ...drawn, mainThread: 1000 * (metrics.find((m) => m.name === 'TaskDuration')?.value ?? 0) };
    };

    // One of each first, not counted (the server's and the browser's caches warm).
    for (const name of names) await open(pages[name]);
    type Figure = 'firstScreen' | 'editable' | 'mainThread';
    const figures: Figure[] = ['firstScreen', 'editable', 'mainThread'];
    const results = Object.fromEntries(names.map((name) => [name, { firstScreen: [], editable: [], mainThread: [] }])) as unknown as Record<
      Kind,
      Record<Figure, number[]>
    >;
    let drawn = { toggles: 0, blocks: 0 };
    for (let rep = 0; rep < REPS; rep++) {
      for (let k = 0; k < names.length; k++) {
        const name = names[(rep + k) % names.length];
        const measured = await open(pages[name]);
        for (const figure of figures) results[name][figure].push(measured[figure]);
        if (name === 'toggles') drawn = { toggles: measured.toggles, blocks: measured.blocks };
      }
    }
    const labels: Record<Kind, string> = {
      toggles: `${TOGGLES} toggles, 2 paragraphs folded in each`,
      baseline: `baseline: ${TOGGLES} paragraphs, 2 nested in each`,
      control: 'control: the baseline again',
    };
    const cell = (values: number[]) => `${ms(quantile(values, 0.5))} (p90 ${ms(quantile(values, 0.9))})`;
    process.stdout.write(`\nA page of ${TOGGLES} toggles (${TOGGLES * 3} blocks), ${REPS} opens each, medians (p90):\n`);
    for (const name of names) {
      const r = results[name];
      process.stdout.write(
        `${labels[name].padEnd(44)} first screen ${cell(r.firstScreen)}   editable ${cell(r.editable)}   main thread ${cell(r.mainThread)}\n`,
      );
    }
    const ratio = (name: Kind, figure: Figure) =>
      quantile(
        results[name][figure].map((value, rep) => value / results.baseline[figure][rep]),
        0.5,
      ).toFixed(2);
    for (const name of ['toggles', 'control'] as const) {
      process.stdout.write(
        `${name} ÷ baseline, median of ${REPS} repetitions: editable ${ratio(name, 'editable')}×, first screen ${ratio(name, 'firstScreen')}×, main thread ${ratio(name, 'mainThread')}×\n`,
      );
    }
    process.stdout.write(`(drawn at the measure: ${drawn.toggles} toggles, ${drawn.blocks} blocks; what is folded away is drawn as empty elements)\n`);
  } finally {
    await browser.close();
    await server.stop();
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

/**
 * `npm run bench:toggles` — does a page of toggles open as fast as one without them (issue 39)?
 *
 * Two pages of the same size on one server (SQLite): 200 toggles, each with two paragraphs
 * nested under it (closed, as a reader finds them: folded away), and the same 600 blocks as 200
 * paragraphs with two nested under each (the baseline). Each is opened in a fresh Chromium
 * context, alternately, BENCH_REPS times; measured from navigation: the first screen (the first
 * block's text in the DOM, the next frame) and editable (the editor's contenteditable, the next
 * frame). Figures are medians (and p90) of the same run: compare the two lines, not runs on
 * different machines (../shared/design/BENCH-METHOD.md).
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
    const pages: Record<'toggles' | 'paragraphs', string> = { toggles: '', paragraphs: '' };
    for (const [name, head] of [
      ['toggles', 'toggle'],
      ['paragraphs', 'text'],
    ] as const) {
      const page = await fetchJson<{ data: { id: string } }>(`${server.url}${S}/section/private`, {
        method: 'POST',
        cookie,
        body: JSON.stringify({ title: `Страница: ${name}` }),
      });
      const blocks = pageBlocks(head, TOGGLES);
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
      await tab.goto(`${server.url}/${pageId}`);
      await tab.waitForFunction(
        () => {
          const w = window as unknown as { __firstScreen?: number; __editable?: number };
          return (w.__firstScreen ?? -1) > 0 && (w.__editable ?? -1) > 0;
        },
        undefined,
        { timeout: 60_000 },
      );
      const measured = await tab.evaluate(() => {
        const w = window as unknown as { __firstScreen: number; __editable: number };
        return { firstScreen: w.__firstScreen, editable: w.__editable, toggles: document.querySelectorAll('.block-toggle').length };
      });
      await context.close();
      return measured;
    };

    // One of each first, not counted (the server's and the browser's caches warm).
    await open(pages.toggles);
    await open(pages.paragraphs);
    const results: Record<'toggles' | 'paragraphs', { firstScreen: number[]; editable: number[] }> = {
      toggles: { firstScreen: [], editable: [] },
      paragraphs: { firstScreen: [], editable: [] },
    };
    let drawnToggles = 0;
    for (let rep = 0; rep < REPS; rep++) {
      for (const name of rep % 2 === 0 ? (['toggles', 'paragraphs'] as const) : (['paragraphs', 'toggles'] as const)) {
        const measured = await open(pages[name]);
        results[name].firstScreen.push(measured.firstScreen);
        results[name].editable.push(measured.editable);
        if (name === 'toggles') drawnToggles = measured.toggles;
      }
    }
    const line = (label: string, values: { firstScreen: number[]; editable: number[] }) =>
      `${label.padEnd(44)} first screen ${ms(quantile(values.firstScreen, 0.5))} (p90 ${ms(quantile(values.firstScreen, 0.9))})   editable ${ms(quantile(values.editable, 0.5))} (p90 ${ms(quantile(values.editable, 0.9))})`;
    process.stdout.write(`\nA page of ${TOGGLES} toggles (${TOGGLES * 3} blocks), ${REPS} opens each, medians (p90):\n`);
    process.stdout.write(`${line(`${TOGGLES} toggles, 2 paragraphs folded in each`, results.toggles)}\n`);
    process.stdout.write(`${line(`baseline: ${TOGGLES} paragraphs, 2 nested in each`, results.paragraphs)}\n`);
    const ratio = quantile(results.toggles.editable, 0.5) / quantile(results.paragraphs.editable, 0.5);
    process.stdout.write(`editable, toggles ÷ baseline: ${ratio.toFixed(2)}× (toggles drawn in the first screen's chunks: ${drawnToggles})\n`);
  } finally {
    await browser.close();
    await server.stop();
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

/**
 * The baselines the Table and Board benches scroll beside the real views (BENCH-METHOD: «Why every
 * browser figure needs a baseline beside it»): the simplest virtualized page of the same rows —
 * no framework, no library, a few dozen lines of DOM code in the page.
 *
 *  - **Table** (`tableBaselineHtml`): a scroll box of the grid's size and place, a tall spacer, one
 *    absolutely positioned row (`translateY`) per row in the visible range and `overscan` more on
 *    each side, of the grid's row height, with the cells the grid drew at the top (the same
 *    fields, the same widths, the gutter's width first) holding the same texts (numbers and dates
 *    formatted as the grid formats them, an option's name, «✓»). On each scroll event the rows
 *    that left the range are removed and the ones that came in are made (kept by index, as a
 *    keyed list does). Rows are read as the grid's row store reads them: windows of 100 from the
 *    same API address (`GET …/rows?viewId&filter&sorts&offset&limit`), the windows in view and
 *    one either side, the first alone until the count is known; a row not read yet is drawn
 *    empty with `is-loading`.
 *  - **Board** (`boardBaselineHtml`): the board's columns at the board's offsets, each a header
 *    and a scroll box of the real one's size holding a virtualized list of cards of the real
 *    cards' size (40 px and 24 px per shown field with a value, the board's own estimate, 8 px
 *    apart; a card not read yet as tall as one showing every field) and texts (the title, then
 *    price, date and tags as the card shows them), read in the board's windows of 30 per column
 *    (`…&group=` as a column asks). The board box scrolls sideways as the real one does.
 *
 * The page is served on the server's origin (`openBaseline`): the browser context answers its one
 * address itself, then stops intercepting, so the page's API reads go to the same server, with
 * the same cookie, over the same loopback as the real view's.
 */
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { addSessionCookie } from '../helpers/browser';

/** Where the real view drew, read from its page (`readTableGeometry`, `readBoardGeometry`). */
interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface BaselineField {
  fieldId: string;
  type: string;
  format?: string;
  options?: Array<{ id: string; name: string }>;
}

export interface TableGeometry {
  box: Box;
  rowHeight: number;
  headerHeight: number;
  gutter: number;
  /** The grid's canvas width (the spacer's). */
  totalWidth: number;
  /** The columns drawn at the top, in order (data-col), and their widths. */
  columns: Array<{ col: number; width: number }>;
  font: string;
}

export interface BoardGeometry {
  /** The board's scroll box and its content's width. */
  board: Box & { scrollWidth: number };
  /** Each column: its place in the board's content, its header's height, its cards' scroll box. */
  columns: Array<{ left: number; width: number; headHeight: number; cards: Box }>;
  cardWidth: number;
  font: string;
}

/** The Table view's scroll box, rows and drawn columns, as a baseline page copies them. */
export function readTableGeometry(tab: Page): Promise<TableGeometry> {
  return tab.locator('.db-scroll').evaluate((scroll) => {
    const rect = scroll.getBoundingClientRect();
    const row = scroll.querySelector('.db-row') as HTMLElement;
    const header = scroll.querySelector('.db-header') as HTMLElement;
    const gutter = row.querySelector('.db-gutter') as HTMLElement;
    const cells = [...row.querySelectorAll<HTMLElement>('[data-col]')];
    return {
      box: { left: rect.left, top: rect.top, width: scroll.clientWidth, height: scroll.clientHeight },
      rowHeight: row.getBoundingClientRect().height,
      headerHeight: header.getBoundingClientRect().height,
      gutter: gutter.getBoundingClientRect().width,
      totalWidth: (scroll.firstElementChild as HTMLElement).getBoundingClientRect().width,
      columns: cells.map((cell) => ({ col: Number(cell.dataset.col), width: cell.getBoundingClientRect().width })),
      font: getComputedStyle(cells[1] ?? cells[0]).font,
    };
  });
}

/** The Board view's box, columns and cards' boxes, as a baseline page copies them. */
export function readBoardGeometry(tab: Page): Promise<BoardGeometry> {
  return tab.locator('.db-board').evaluate((board) => {
    const rect = board.getBoundingClientRect();
    const columns = [...board.querySelectorAll<HTMLElement>('.db-board-column')].map((column) => {
      const box = column.getBoundingClientRect();
      const cards = column.querySelector('.db-board-cards') as HTMLElement;
      const cardsBox = cards.getBoundingClientRect();
      return {
        left: box.left - rect.left + board.scrollLeft,
        width: box.width,
        headHeight: (column.querySelector('.db-board-column-head') as HTMLElement).getBoundingClientRect().height,
        cards: { left: cardsBox.left - box.left, top: cardsBox.top - box.top, width: cards.clientWidth, height: cards.clientHeight },
      };
    });
    const card = board.querySelector('.db-card:not(.is-loading)') as HTMLElement;
    return {
      board: { left: rect.left, top: rect.top, width: board.clientWidth, height: board.clientHeight, scrollWidth: board.scrollWidth },
      columns,
      cardWidth: card.getBoundingClientRect().width,
      font: getComputedStyle(card).font,
    };
  });
}

/**
 * What both pages share: the formatting of a cell as the app shows it (src/features/database/fields/
 * format.ts: ru-RU numbers, «25 нояб. 2026 г.»), and a row store as simple as can be: windows of
 * `size` rows at `address(offset)`, the ones around `first…last` read, far ones dropped.
 */
const PAGE_COMMON = `
const NUMBERS = {
  plain: new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 10 }),
  rub: new Intl.NumberFormat('ru-RU', { style: 'currency', currency: 'RUB', maximumFractionDigits: 2 }),
};
const DAY = new Intl.DateTimeFormat('ru-RU', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const MOMENT = new Intl.DateTimeFormat('ru-RU', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });
const textOf = (field, row) => {
  if (field.fieldId === 'MAIN_FIELD') return row.data.title;
  if (field.type === 'createdTime') return MOMENT.format(Date.parse(row.createdAt));
  const value = row.data.values[field.fieldId];
  if (value === undefined || value === null) return '';
  switch (field.type) {
    case 'number': return (NUMBERS[field.format] || NUMBERS.plain).format(value);
    case 'checkbox': return value === true ? '✓' : '';
    case 'date': return DAY.format(Date.parse(value + 'T00:00:00Z'));
    case 'select': return (field.options.find((o) => o.id === value) || { name: '' }).name;
    case 'multiSelect': return value.map((id) => (field.options.find((o) => o.id === id) || { name: '' }).name).join(' ');
    default: return String(value);
  }
};
const rowWindows = (address, size, changed) => {
  const windows = new Map();
  const loading = new Set();
  const store = { count: null, row: (i) => { const w = windows.get(Math.floor(i / size)); return w && w[i % size]; } };
  let visible = [0, 0];
  const ensure = () => {
    const lastWindow = store.count === null ? Infinity : Math.max(0, Math.ceil(store.count / size) - 1);
    const from = Math.max(0, Math.floor(visible[0] / size) - 1);
    const to = Math.max(from, Math.min(lastWindow, Math.floor(visible[1] / size) + 1));
    for (const w of [...windows.keys()]) if (w < from - 3 || w > to + 3) windows.delete(w);
    const last = store.count === null ? from : to;
    for (let w = from; w <= last; w++) if (!windows.has(w) && !loading.has(w)) load(w);
  };
  const load = async (w) => {
    loading.add(w);
    const response = await fetch(address(w * size, size), { credentials: 'same-origin' });
    const body = await response.json();
    loading.delete(w);
    windows.set(w, body.data);
    const known = store.count !== null;
    store.count = body.meta.count;
    changed(w * size, w * size + body.data.length - 1, !known);
    if (!known) ensure();
  };
  store.setVisible = (first, last) => { visible = [first, Math.max(first, last)]; ensure(); };
  return store;
};
const jsonQuery = (values) => '?' + Object.entries(values).map(([k, v]) => k + '=' + encodeURIComponent(JSON.stringify(v))).join('&');
`;

export function tableBaselineHtml(
  geometry: TableGeometry,
  databaseId: string,
  viewId: string,
  fields: BaselineField[],
  overscan: number,
  windowSize: number,
): string {
  const config = { geometry, databaseId, viewId, fields, overscan, windowSize };
  return `<!doctype html><html lang="ru"><head><meta charset="utf-8"><title>table baseline</title><style>
body { margin: 0; font: ${geometry.font}; color: #37352f; }
#box { position: absolute; overflow: auto; }
#spacer { position: relative; }
.row { position: absolute; left: 0; top: 0; display: flex; box-sizing: border-box; border-bottom: 1px solid #e9e9e7; background: #fff; }
.cell { flex: none; box-sizing: border-box; padding: 0 8px; overflow: hidden; white-space: nowrap; text-overflow: ellipsis; border-right: 1px solid #e9e9e7; }
.num { text-align: right; }
</style></head><body><div id="box"><div id="spacer"></div></div><script>
${PAGE_COMMON}
const C = ${JSON.stringify(config)};
const G = C.geometry;
const box = document.getElementById('box');
const spacer = document.getElementById('spacer');
Object.assign(box.style, { left: G.box.left + 'px', top: G.box.top + 'px', width: G.box.width + 'px', height: G.box.height + 'px' });
spacer.style.width = G.totalWidth + 'px';
const columns = G.columns.map((c) => ({ ...c, field: C.fields[c.col] }));
const rows = new Map();
const address = (offset, limit) => '/api/v3/spaces/database/' + encodeURIComponent(C.databaseId) + '/rows' + jsonQuery({ viewId: C.viewId, filter: null, sorts: [], offset, limit });
const fill = (element, row) => {
  element.className = 'row';
  element.textContent = '';
  const gutter = document.createElement('div');
  gutter.className = 'cell';
  gutter.style.width = G.gutter + 'px';
  element.append(gutter);
  for (const column of columns) {
    const cell = document.createElement('div');
    cell.className = column.field.type === 'number' ? 'cell num' : 'cell';
    cell.style.width = column.width + 'px';
    if (row) cell.textContent = textOf(column.field, row);
    element.append(cell);
  }
  if (!row) element.className = 'row is-loading';
};
const draw = () => {
  const count = store.count || 0;
  const top = box.scrollTop - G.headerHeight;
  const first = Math.max(0, Math.floor(top / G.rowHeight) - C.overscan);
  const last = Math.min(count - 1, Math.ceil((top + G.box.height) / G.rowHeight) + C.overscan);
  for (const [i, element] of rows) if (i < first || i > last) { element.remove(); rows.delete(i); }
  for (let i = first; i <= last; i++) {
    if (rows.has(i)) continue;
    const element = document.createElement('div');
    element.style.cssText = 'height:' + G.rowHeight + 'px;line-height:' + (G.rowHeight - 1) + 'px;width:' + G.totalWidth + 'px;transform:translateY(' + (G.headerHeight + i * G.rowHeight) + 'px)';
    fill(element, store.row(i));
    spacer.append(element);
    rows.set(i, element);
  }
  store.setVisible(first, last);
};
const store = rowWindows(address, C.windowSize, (from, to, first) => {
  spacer.style.height = G.headerHeight + store.count * G.rowHeight + 'px';
  if (first) return draw();
  for (let i = from; i <= to; i++) if (rows.has(i)) fill(rows.get(i), store.row(i));
});
box.addEventListener('scroll', draw, { passive: true });
store.setVisible(0, 0);
</script></body></html>`;
}

export function boardBaselineHtml(
  geometry: BoardGeometry,
  databaseId: string,
  viewId: string,
  groups: Array<{ value: string | null; name: string }>,
  shown: BaselineField[],
  title: BaselineField,
  overscan: number,
  windowSize: number,
): string {
  const config = { geometry, databaseId, viewId, groups, shown, title, overscan, windowSize };
  return `<!doctype html><html lang="ru"><head><meta charset="utf-8"><title>board baseline</title><style>
body { margin: 0; font: ${geometry.font}; color: #37352f; }
#board { position: absolute; overflow-x: auto; overflow-y: hidden; }
.column { position: absolute; top: 0; background: #f7f7f5; border-radius: 6px; }
.head { box-sizing: border-box; padding: 8px; font-size: 13px; }
.cards { position: absolute; overflow-y: auto; box-sizing: border-box; padding: 0 8px; }
.card { position: absolute; left: 0; top: 0; box-sizing: border-box; padding: 8px; border: 1px solid #e9e9e7; border-radius: 6px; background: #fff; overflow: hidden; }
.title { line-height: 22px; font-weight: 500; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.field { line-height: 24px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
</style></head><body><div id="board"><div id="content"></div></div><script>
${PAGE_COMMON}
const C = ${JSON.stringify(config)};
const G = C.geometry;
const board = document.getElementById('board');
Object.assign(board.style, { left: G.board.left + 'px', top: G.board.top + 'px', width: G.board.width + 'px', height: G.board.height + 'px' });
const content = document.getElementById('content');
Object.assign(content.style, { position: 'relative', width: G.board.scrollWidth + 'px', height: G.board.height + 'px' });
const GAP = 8, BASE = 40, LINE = 24;
const empty = (v) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
const heightOf = (row) => BASE + LINE * (row ? C.shown.filter((f) => !empty(row.data.values[f.fieldId])).length : C.shown.length);
C.groups.forEach((group, k) => {
  const place = G.columns[k];
  const column = document.createElement('section');
  column.className = 'column';
  Object.assign(column.style, { left: place.left + 'px', width: place.width + 'px', height: place.cards.top + place.cards.height + 'px' });
  const head = document.createElement('div');
  head.className = 'head';
  head.style.height = place.headHeight + 'px';
  column.append(head);
  const cards = document.createElement('div');
  cards.className = 'cards';
  Object.assign(cards.style, { left: place.cards.left + 'px', top: place.cards.top + 'px', width: place.cards.width + 'px', height: place.cards.height + 'px' });
  const spacer = document.createElement('div');
  spacer.style.position = 'relative';
  cards.append(spacer);
  column.append(cards);
  content.append(column);
  let offsets = [0];
  const drawn = new Map();
  const layout = () => {
    offsets = new Array(store.count + 1);
    offsets[0] = 0;
    for (let i = 0; i < store.count; i++) offsets[i + 1] = offsets[i] + heightOf(store.row(i)) + GAP;
    spacer.style.height = Math.max(0, offsets[store.count] - GAP) + 'px';
    for (const [i, element] of drawn) place_(element, i);
  };
  const place_ = (element, i) => {
    const row = store.row(i);
    element.style.transform = 'translateY(' + offsets[i] + 'px)';
    element.style.height = heightOf(row) + 'px';
    if (element.__row === row) return;
    element.__row = row;
    element.textContent = '';
    element.className = row ? 'card' : 'card is-loading';
    if (!row) return;
    const title = document.createElement('div');
    title.className = 'title';
    title.textContent = row.data.title;
    element.append(title);
    for (const field of C.shown) {
      if (empty(row.data.values[field.fieldId])) continue;
      const line = document.createElement('div');
      line.className = 'field';
      line.textContent = textOf(field, row);
      element.append(line);
    }
  };
  const indexAt = (y) => {
    let lo = 0, hi = store.count - 1;
    while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (offsets[mid] <= y) lo = mid; else hi = mid - 1; }
    return lo;
  };
  const draw = () => {
    const count = store.count || 0;
    if (!count) return;
    const first = Math.max(0, indexAt(cards.scrollTop) - C.overscan);
    const last = Math.min(count - 1, indexAt(cards.scrollTop + place.cards.height) + C.overscan);
    for (const [i, element] of drawn) if (i < first || i > last) { element.remove(); drawn.delete(i); }
    for (let i = first; i <= last; i++) {
      if (drawn.has(i)) continue;
      const element = document.createElement('div');
      element.style.width = G.cardWidth + 'px';
      place_(element, i);
      spacer.append(element);
      drawn.set(i, element);
    }
    store.setVisible(first, last);
  };
  const address = (offset, limit) =>
    '/api/v3/spaces/database/' + encodeURIComponent(C.databaseId) + '/rows' + jsonQuery({ viewId: C.viewId, filter: null, sorts: [], group: group.value, offset, limit });
  const store = rowWindows(address, C.windowSize, () => { layout(); draw(); });
  head.textContent = group.name + ' ';
  cards.addEventListener('scroll', draw, { passive: true });
  store.setVisible(0, 0);
});
</script></body></html>`;
}

/** Where a gallery drew (`readGalleryGeometry`): its scroll box, a card's size, the cards a line and the gap. */
export interface GalleryGeometry {
  box: Box;
  cardWidth: number;
  cardHeight: number;
  pictureHeight: number;
  perLine: number;
  gap: number;
  font: string;
}

/** The gallery's geometry, read from its page (its scroll box and first card). */
export function readGalleryGeometry(tab: Page): Promise<GalleryGeometry> {
  return tab.evaluate(() => {
    const box = document.querySelector('.db-gallery')!.getBoundingClientRect();
    const card = document.querySelector('.db-gallery-card')!;
    const rect = card.getBoundingClientRect();
    const line = card.parentElement!;
    const picture = card.querySelector('.db-gallery-picture');
    return {
      box: { left: box.left, top: box.top, width: box.width, height: box.height },
      cardWidth: rect.width,
      cardHeight: rect.height,
      pictureHeight: picture ? picture.getBoundingClientRect().height : 0,
      perLine: getComputedStyle(line).gridTemplateColumns.split(' ').length,
      gap: parseFloat(getComputedStyle(line).columnGap) || 12,
      font: getComputedStyle(card).font,
    };
  });
}

/**
 * **Gallery** (`galleryBaselineHtml`): a scroll box of the gallery's size and place holding lines
 * of cards of its card size (a grey picture box, the title, a line per shown field), a line
 * absolutely placed per line in the visible range and `overscan` more each side, made on each
 * scroll event, read in windows of 100 as the gallery reads them (with its `preview`).
 */
export function galleryBaselineHtml(
  geometry: GalleryGeometry,
  databaseId: string,
  viewId: string,
  shown: BaselineField[],
  overscan: number,
  windowSize: number,
): string {
  const config = { geometry, databaseId, viewId, shown, overscan, windowSize };
  return `<!doctype html><html lang="ru"><head><meta charset="utf-8"><title>gallery baseline</title><style>
body { margin: 0; font: ${geometry.font}; color: #37352f; }
#gallery { position: absolute; overflow-y: auto; }
.line { position: absolute; left: 0; top: 0; display: flex; }
.card { box-sizing: border-box; border: 1px solid #e9e9e7; border-radius: 6px; background: #fff; overflow: hidden; }
.picture { background: #f1f1ef; border-bottom: 1px solid #e9e9e7; }
.title { padding: 8px 8px 2px; line-height: 22px; font-weight: 600; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.field { height: 26px; padding: 0 8px; font-size: 13px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
</style></head><body><div id="gallery"><div id="spacer"></div></div><script>
${PAGE_COMMON}
const C = ${JSON.stringify(config)};
const G = C.geometry;
const box = document.getElementById('gallery');
Object.assign(box.style, { left: G.box.left + 'px', top: G.box.top + 'px', width: G.box.width + 'px', height: G.box.height + 'px' });
const spacer = document.getElementById('spacer');
spacer.style.position = 'relative';
const LINE = G.cardHeight + G.gap;
const drawn = new Map();
const card = (row) => {
  const element = document.createElement('div');
  element.className = row ? 'card' : 'card is-loading';
  Object.assign(element.style, { width: G.cardWidth + 'px', height: G.cardHeight + 'px', marginRight: G.gap + 'px' });
  if (!row) return element;
  if (G.pictureHeight) {
    const picture = document.createElement('div');
    picture.className = 'picture';
    picture.style.height = G.pictureHeight + 'px';
    element.append(picture);
  }
  const title = document.createElement('div');
  title.className = 'title';
  title.textContent = row.data.title;
  element.append(title);
  for (const field of C.shown) {
    const line = document.createElement('div');
    line.className = 'field';
    line.textContent = textOf(field, row);
    element.append(line);
  }
  return element;
};
const fill = (element, i) => {
  const rows = [];
  for (let k = 0; k < G.perLine; k++) if (i * G.perLine + k < store.count) rows.push(store.row(i * G.perLine + k));
  const key = rows.map((row) => (row ? row.id : '')).join();
  if (element.__key === key) return;
  element.__key = key;
  element.textContent = '';
  for (const row of rows) element.append(card(row));
};
const draw = () => {
  const count = store.count || 0;
  if (!count) return;
  const lines = Math.ceil(count / G.perLine);
  spacer.style.height = lines * LINE + 'px';
  const first = Math.max(0, Math.floor(box.scrollTop / LINE) - C.overscan);
  const last = Math.min(lines - 1, Math.floor((box.scrollTop + G.box.height) / LINE) + C.overscan);
  for (const [i, element] of drawn) if (i < first || i > last) { element.remove(); drawn.delete(i); }
  for (let i = first; i <= last; i++) {
    let element = drawn.get(i);
    if (!element) {
      element = document.createElement('div');
      element.className = 'line';
      element.style.transform = 'translateY(' + i * LINE + 'px)';
      spacer.append(element);
      drawn.set(i, element);
    }
    fill(element, i);
  }
  store.setVisible(first * G.perLine, Math.min(count - 1, (last + 1) * G.perLine - 1));
};
const address = (offset, limit) =>
  '/api/v3/spaces/database/' + encodeURIComponent(C.databaseId) + '/rows' + jsonQuery({ viewId: C.viewId, filter: null, sorts: [], preview: 'pageContent', offset, limit });
const store = rowWindows(address, C.windowSize, draw);
box.addEventListener('scroll', draw, { passive: true });
store.setVisible(0, 0);
</script></body></html>`;
}

/**
 * The baseline page `html` opened in a fresh context on the server's origin (`serverUrl`, signed
 * in with `cookie`, `script` run first as the real view's page has it): the context answers the
 * page's own address and stops intercepting once it is loaded. Ready when `ready` (a selector) is
 * in the page.
 */
export async function openBaseline(
  browser: Browser,
  serverUrl: string,
  cookie: string,
  viewport: { width: number; height: number },
  script: string,
  html: string,
  ready: string,
): Promise<{ context: BrowserContext; tab: Page; cdp: CDPSession }> {
  const context = await browser.newContext({ viewport });
  await addSessionCookie(context, cookie, serverUrl);
  await context.addInitScript(script);
  const url = `${serverUrl}/__bench/baseline`;
  await context.route(url, (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html }));
  const tab = await context.newPage();
  tab.setDefaultTimeout(30_000);
  await tab.goto(url);
  await context.unroute(url);
  await tab.locator(ready).first().waitFor();
  return { context, tab, cdp: await context.newCDPSession(tab) };
}

/**
 * The check of a baseline page against the view it stands beside, before any figure (and the
 * baseline's warm-up, as the view has one): the texts of the same first row or card in both
 * (`view` and `baseline` selectors, white space aside) must be the same.
 */
export async function checkBaseline(view: Page, viewItem: string, baseline: Page, baselineItem: string): Promise<void> {
  const text = async (tab: Page, selector: string) => {
    const item = tab.locator(selector).first();
    await item.waitFor();
    return (await item.evaluate((el) => (el as HTMLElement).innerText)).replace(/\s+/g, '');
  };
  const [seen, drawn] = [await text(view, viewItem), await text(baseline, baselineItem)];
  if (seen !== drawn) throw new Error(`the baseline page draws «${drawn}» where the view shows «${seen}»`);
}

import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MAIN_FIELD_ID, type ChartConfig, type DatabaseConfig, type DatabaseLayout } from '../../../../schema/blocks/database';
import type { ChartAnswer } from '../../../../schema/databaseChart';
import '../../../app/i18n';
import type { DatabaseApi } from '../api';
import { DatabaseContext, type DatabaseContextValue } from '../context';
import ChartView from './ChartView';

/*
 * The line and pie chart layouts (`lineChart`, `pieChart`: docs/web-app.md «Chart views») drawn
 * in jsdom: Recharts' SVG from the server's grouping, the setup bar each layout has, and what a
 * change of it saves. The browser test (test/e2e/databaseChart.e2e.test.ts) draws them in Chromium.
 */

const config: DatabaseConfig = {
  fields: {
    [MAIN_FIELD_ID]: { name: 'Название', type: 'text' },
    status: {
      name: 'Статус',
      type: 'select',
      options: [
        { id: 'o1', name: 'Новая', color: 'blue' },
        { id: 'o2', name: 'В работе', color: 'orange' },
        { id: 'o3', name: 'Готово', color: 'green' },
      ],
    },
    when: { name: 'Дата', type: 'date' },
    price: { name: 'Цена', type: 'number', format: 'rub' },
  },
};

/** Three categories, one series: 2 000, 3 and 1 rows, 2 006 in all. */
const byStatus: ChartAnswer = {
  categories: [
    { key: 'o1', label: 'Новая' },
    { key: 'o2', label: 'В работе' },
    { key: 'o3', label: 'Готово' },
  ],
  series: [],
  points: [
    { x: 'o1', series: null, value: 2000 },
    { x: 'o2', series: null, value: 3 },
    { x: 'o3', series: null, value: 1 },
  ],
  rows: 2006,
  hidden: [],
};

/** Months by status: two series. */
const monthsBySeries: ChartAnswer = {
  categories: [
    { key: '2026-01', label: 'янв. 2026' },
    { key: '2026-02', label: 'февр. 2026' },
    { key: '2026-03', label: 'март 2026' },
  ],
  series: [
    { key: 'o1', label: 'Новая' },
    { key: 'o3', label: 'Готово' },
  ],
  points: [
    { x: '2026-01', series: 'o1', value: 4 },
    { x: '2026-02', series: 'o1', value: 6 },
    { x: '2026-03', series: 'o1', value: 2 },
    { x: '2026-01', series: 'o3', value: 1 },
    { x: '2026-02', series: 'o3', value: 3 },
    { x: '2026-03', series: 'o3', value: 5 },
  ],
  rows: 21,
  hidden: [],
};

// jsdom lays nothing out: Recharts' container is given a size when it is observed, as a browser would.
class SizedResizeObserver {
  constructor(private readonly callback: ResizeObserverCallback) {}
  observe(target: Element) {
    this.callback([{ target, contentRect: { width: 800, height: 360 } } as unknown as ResizeObserverEntry], this as unknown as ResizeObserver);
  }
  unobserve() {}
  disconnect() {}
}
beforeAll(() => {
  Object.assign(globalThis, { ResizeObserver: SizedResizeObserver });
  // No canvas in jsdom: the x axis's labels are measured by the guess (chartConfig.ts `labelWidth`).
  jest.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
});
afterAll(() => {
  delete (globalThis as { ResizeObserver?: unknown }).ResizeObserver;
  jest.restoreAllMocks();
});

function mount(layout: DatabaseLayout, answer: ChartAnswer, editable = true) {
  const asked: ChartConfig[] = [];
  const saved: Array<Partial<DatabaseLayout>> = [];
  const db: DatabaseContextValue = {
    databaseId: 'db',
    pageId: 'page',
    config,
    editable,
    api: {
      chart: async (_databaseId: string, _viewId: string, chart?: ChartConfig) => {
        asked.push(chart!);
        return answer;
      },
    } as unknown as DatabaseApi,
    apply: () => undefined,
    saveView: async (_viewId, patch) => void saved.push(patch),
    saveField: async () => true,
    members: [],
  };
  const view = render(
    <DatabaseContext.Provider value={db}>
      <ChartView layout={layout} track={() => () => undefined} />
    </DatabaseContext.Provider>,
  );
  return { asked, saved, ...view };
}

/** The texts of the elements `selector` finds, their spaces plain (figures are written with no-break spaces). */
const texts = (root: ParentNode, selector: string) => [...root.querySelectorAll(selector)].map((element) => (element.textContent ?? '').replace(/\s/g, ' '));

/** The figure of this kind once Recharts has drawn `selector` (its series come a render after the axes). */
async function drawn(kind: string, selector: string): Promise<HTMLElement> {
  const figure = await screen.findByRole('figure', { name: kind });
  await waitFor(() => expect(figure.querySelector(selector)).not.toBeNull());
  return figure;
}

const layoutOf = (type: DatabaseLayout['type'], chart: ChartConfig): DatabaseLayout => ({ uid: 'v1', type, name: 'Диаграмма', orderedFields: [], chart });
const setup = () => screen.queryByRole('group', { name: 'Настройка диаграммы' });
const select = (name: string) => within(setup()!).getByLabelText(name) as HTMLSelectElement;

describe('a lineChart layout', () => {
  it('draws one line through the categories, named by what it measures; the caption counts the rows', async () => {
    const chart: ChartConfig = { x: { fieldId: 'status' }, y: { aggregate: 'count' } };
    const { asked, container } = mount(layoutOf('lineChart', chart), byStatus);
    const figure = await drawn('Линии', '.recharts-line');
    expect(asked).toEqual([chart]);
    // Lines, not bars nor a pie.
    expect(figure.querySelectorAll('.recharts-line')).toHaveLength(1);
    expect(figure.querySelector('.recharts-line-curve')?.getAttribute('d')).toMatch(/^M/);
    expect(figure.querySelectorAll('.recharts-bar-rectangle, .recharts-pie-sector')).toHaveLength(0);
    // Every category on the x axis, in the server's order; the y axis the Russian way.
    const ticks = texts(figure, '.recharts-xAxis-tick-labels text');
    expect(ticks).toEqual(['Новая', 'В работе', 'Готово']);
    const yTicks = texts(figure, '.recharts-yAxis-tick-labels text');
    expect(yTicks).toContain('2 000');
    // One series: no legend.
    expect(figure.querySelector('.recharts-legend-wrapper')).toBeNull();
    expect(texts(container, '.db-chart-caption')).toEqual(['По 2 006 строкам']);
  });

  it('several series are several lines with a legend of their names, in the series’ order (not alphabetical)', async () => {
    const { container } = mount(
      layoutOf('lineChart', { x: { fieldId: 'when', bucket: 'month' }, y: { aggregate: 'count' }, series: { fieldId: 'status' } }),
      monthsBySeries,
    );
    const figure = await drawn('Линии', '.recharts-line');
    expect(figure.querySelectorAll('.recharts-line')).toHaveLength(2);
    expect(texts(container, '.recharts-legend-item-text')).toEqual(['Новая', 'Готово']);
    // The tooltip (here by the keyboard: the chart takes the focus, → goes to a category) lists them so too.
    const surface = figure.querySelector('svg.recharts-surface') as SVGElement;
    await act(async () => void fireEvent.focus(surface));
    await act(async () => void fireEvent.keyDown(surface, { key: 'ArrowRight' }));
    await waitFor(() => expect(texts(figure, '.recharts-tooltip-item-name')).toEqual(['Новая', 'Готово']));
    expect(texts(figure, '.recharts-tooltip-label')[0]).toMatch(/^(янв\.|февр\.|март) 2026 · Число строк$/);
  });

  it('its setup: no choice of kind (the layout is lines), a series, and running totals — which it saves', async () => {
    const chart: ChartConfig = { x: { fieldId: 'status' }, y: { aggregate: 'count' } };
    const { saved } = mount(layoutOf('lineChart', chart), byStatus);
    await screen.findByRole('figure', { name: 'Линии' });
    expect(within(setup()!).queryByLabelText('Вид')).toBeNull();
    expect(select('Ряды')).toBeTruthy();
    const cumulative = within(setup()!).getByRole('checkbox', { name: 'Нарастающим итогом' });
    await act(async () => void fireEvent.click(cumulative));
    expect(saved).toEqual([{ chart: { ...chart, cumulative: true } }]);
    // An average cannot run on: the choice goes with it.
    await act(async () => void fireEvent.change(select('Значение'), { target: { value: 'average:price' } }));
    expect(saved[1]).toEqual({ chart: { ...chart, y: { aggregate: 'average', fieldId: 'price' }, cumulative: false } });
  });
});

describe('a pieChart layout', () => {
  it('draws a slice per category, labelled with its figure; the legend names the categories in the slices’ order', async () => {
    const { container } = mount(layoutOf('pieChart', { x: { fieldId: 'status' }, y: { aggregate: 'count' } }), byStatus);
    const figure = await drawn('Круговая', '.recharts-pie-label-text');
    const slices = figure.querySelectorAll('.recharts-pie-sector');
    expect(slices).toHaveLength(3);
    // Slices in the theme's chart colours, one each.
    expect([...figure.querySelectorAll('.recharts-pie-sector path')].map((p) => p.getAttribute('fill'))).toEqual([
      'var(--chart-1)',
      'var(--chart-2)',
      'var(--chart-3)',
    ]);
    expect(texts(figure, '.recharts-pie-label-text')).toEqual(['2 000', '3', '1']);
    expect(texts(container, '.recharts-legend-item-text')).toEqual(['Новая', 'В работе', 'Готово']);
    // No axes and no lines or bars.
    expect(figure.querySelectorAll('.recharts-xAxis, .recharts-line, .recharts-bar-rectangle')).toHaveLength(0);
  });

  it('a sum in roubles is labelled in roubles', async () => {
    const sums: ChartAnswer = { ...byStatus, points: byStatus.points.map((p) => ({ ...p, value: (p.value ?? 0) * 1500.5 })) };
    mount(layoutOf('pieChart', { x: { fieldId: 'status' }, y: { aggregate: 'sum', fieldId: 'price' } }), sums);
    const figure = await drawn('Круговая', '.recharts-pie-label-text');
    expect(texts(figure, '.recharts-pie-label-text')).toEqual(['3 001 000,00 ₽', '4 501,50 ₽', '1 500,50 ₽']);
  });

  it('its setup has no series and no running totals (a pie has neither), nor a choice of kind', async () => {
    mount(layoutOf('pieChart', { x: { fieldId: 'status' }, y: { aggregate: 'count' } }), byStatus);
    await screen.findByRole('figure', { name: 'Круговая' });
    expect(within(setup()!).queryByLabelText('Ряды')).toBeNull();
    expect(within(setup()!).queryByRole('checkbox', { name: 'Нарастающим итогом' })).toBeNull();
    expect(within(setup()!).queryByLabelText('Вид')).toBeNull();
    expect(select('Ось X').value).toBe('status');
  });

  it('readers see the chart without the setup', async () => {
    mount(layoutOf('pieChart', { x: { fieldId: 'status' }, y: { aggregate: 'count' } }), byStatus, false);
    await screen.findByRole('figure', { name: 'Круговая' });
    expect(setup()).toBeNull();
  });
});

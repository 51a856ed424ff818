import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  Legend,
  Line,
  LineChart,
  Pie,
  PieChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
  type LegendPayload,
} from 'recharts';
import {
  CHART_AGGREGATES,
  CHART_BUCKETS,
  CHART_KINDS,
  CHART_SORTS,
  DATE_LIKE_TYPES,
  LAYOUT_CHART_KINDS,
  type ChartConfig,
  type ChartKey,
  type ChartKind,
  type DatabaseFieldType,
  type DatabaseLayout,
} from '../../../../schema/blocks/database';
import type { ChartAnswer } from '../../../../schema/databaseChart';
import { asStoredField } from '../../../../schema/formula/field';
import { Popover } from '../../../ui/Popover';
import type { LiveView } from '../context';
import { defaultChart, formatFigure, labelWidth, measureName, xAxisTicks } from './chartConfig';
import { formatNumber } from '../fields/format';
import { useDatabase } from '../context';

/** The series' colours: the theme's chart palette (database.css), in order. */
const PALETTE = ['var(--chart-1)', 'var(--chart-2)', 'var(--chart-3)', 'var(--chart-4)', 'var(--chart-5)', 'var(--chart-6)'];
/** A chart read again this long after the last of several changes in a row. */
const REFRESH_MS = 300;

/**
 * A chart view (issue 17: Chart, BarChart, LineChart, PieChart): the view's rows grouped on the
 * server (`GET …/chart`, docs/api/databases.md «Charts»), drawn with Recharts — bars, lines or a
 * pie; a `chart` layout lets the user choose. Editors set it up in the bar above it (x and its
 * bucket, the value, a series, the order, running totals); each change is saved to the view and
 * drawn from the server's answer. Read again when the rows change (realtime). Its own chunk
 * (Recharts): loaded only where a chart is shown.
 */
export default function ChartView({ layout, track }: { layout: DatabaseLayout; track(view: LiveView): () => void }) {
  const { t } = useTranslation('automation');
  const db = useDatabase();
  const chart = layout.chart ?? null;
  const kind: ChartKind = LAYOUT_CHART_KINDS[layout.type] ?? chart?.kind ?? 'bar';
  const [answer, setAnswer] = useState<ChartAnswer | null>(null);
  const [failed, setFailed] = useState(false);
  const [reads, setReads] = useState(0);
  const key = JSON.stringify([chart, layout.filter ?? null]);

  useEffect(() => {
    if (!chart) return;
    const controller = new AbortController();
    // The config on screen (a change shows before its save is answered: the server's would still be the old one).
    db.api.chart(db.databaseId, layout.uid, chart, controller.signal).then(
      (next) => {
        setAnswer(next);
        setFailed(false);
      },
      () => !controller.signal.aborted && setFailed(true),
    );
    return () => controller.abort();
    // The config and filter by value (`key`), not by the layout object's identity.
  }, [db.api, db.databaseId, layout.uid, key, reads]); // eslint-disable-line react-hooks/exhaustive-deps

  // Others' changes of the rows: read again, once for several in a row.
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const again = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setReads((n) => n + 1), REFRESH_MS);
  }, []);
  useEffect(() => track({ applyChange: again, refreshSoon: again }), [track, again]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const save = (next: ChartConfig) => void db.saveView(layout.uid, { chart: next });
  const data = useMemo(() => (answer ? chartRows(answer) : []), [answer]);
  // What it measures («Число строк», «Сумма: Цена»): the single series' name, and in every tooltip.
  const measure = chart ? measureName(db.config, chart.y, t) : t('database.chart.value');
  const series = answer && answer.series.length > 0 ? answer.series : [{ key: null as ChartKey, label: measure }];
  const figure = (value: unknown) => (chart ? formatFigure(typeof value === 'number' ? value : null, db.config, chart.y) : String(value));
  // The plot's width, about (the figure's less the margins and a y axis of ~60 px; it sizes to its labels), for the x axis's labels.
  const [width, setWidth] = useState(0);
  const figureRef = useRef<HTMLElement>(null);
  const ticks = useMemo(() => {
    const font = figureRef.current ? `12px ${getComputedStyle(figureRef.current).fontFamily}` : '12px sans-serif';
    return xAxisTicks(
      data.map((row) => String(row.label)),
      width - 76,
      (label) => labelWidth(label, font),
    );
  }, [data, width]);
  const xAxis = (
    <XAxis
      dataKey="label"
      stroke="var(--text-secondary)"
      interval={ticks.interval}
      angle={ticks.angle}
      textAnchor={ticks.angle ? 'end' : 'middle'}
      height={ticks.height}
    />
  );
  const yAxis = <YAxis stroke="var(--text-secondary)" width="auto" allowDecimals={false} tickFormatter={(value: number) => formatNumber(value)} />;
  // «Число строк: 12»; with series, each series by its name under «Категория · Число строк».
  const tooltipLabel = (label: unknown) => (series.length > 1 ? `${String(label)} · ${measure}` : String(label));
  const tooltipValue = (value: unknown, name: unknown): [string, string] => [figure(value), String(name ?? measure)];
  // Recharts sorts a legend's and a tooltip's names alphabetically unless told: the chart's own
  // order instead (the server's, as «Порядок» asks, «Без значения» last) — that of the slices,
  // the stacks and the colours.
  const seriesOrder = (item: Pick<LegendPayload, 'dataKey'>) => series.findIndex((s) => seriesKey(s.key) === item.dataKey);
  const sliceOrder = (item: LegendPayload) => data.findIndex((row) => row.label === item.value);

  return (
    <div className="db-chart">
      {db.editable && <ChartSetup layout={layout} chart={chart} kind={kind} onChange={save} answer={answer} />}
      {!chart ? (
        <div className="db-empty">{t('database.chart.notSet')}</div>
      ) : failed ? (
        <div className="db-error">{t('database.chart.failed')}</div>
      ) : !answer ? (
        <div className="db-empty">{t('database.loading')}</div>
      ) : data.length === 0 ? (
        <div className="db-empty">{t('database.chart.empty')}</div>
      ) : (
        <figure ref={figureRef} className="db-chart-figure" aria-label={t(`database.chart.kinds.${kind}`)}>
          <ResponsiveContainer width="100%" height={360} onResize={(w) => setWidth(w)}>
            {kind === 'pie' ? (
              <PieChart>
                <Pie
                  data={data}
                  dataKey={seriesKey(series[0].key)}
                  nameKey="label"
                  outerRadius={140}
                  label={({ value }: { value?: unknown }) => figure(value)}
                  isAnimationActive={false}
                >
                  {data.map((row, i) => (
                    <Cell key={row.label} fill={PALETTE[i % PALETTE.length]} />
                  ))}
                </Pie>
                <Tooltip separator=": " formatter={(value, name) => [figure(value), `${String(name)} · ${measure}`]} />
                <Legend itemSorter={sliceOrder} />
              </PieChart>
            ) : kind === 'line' ? (
              <LineChart data={data} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
                <CartesianGrid stroke="var(--border)" vertical={false} />
                {xAxis}
                {yAxis}
                <Tooltip separator=": " formatter={tooltipValue} labelFormatter={tooltipLabel} itemSorter={seriesOrder} />
                {series.length > 1 && <Legend itemSorter={seriesOrder} />}
                {series.map((s, i) => (
                  <Line
                    key={String(s.key)}
                    type="monotone"
                    dataKey={seriesKey(s.key)}
                    name={s.label}
                    stroke={PALETTE[i % PALETTE.length]}
                    strokeWidth={2}
                    dot={false}
                    isAnimationActive={false}
                    connectNulls
                  />
                ))}
              </LineChart>
            ) : (
              <BarChart data={data} margin={{ top: 8, right: 16, bottom: 8, left: 0 }}>
                <CartesianGrid stroke="var(--border)" vertical={false} />
                {xAxis}
                {yAxis}
                <Tooltip cursor={{ fill: 'var(--bg-hover)' }} separator=": " formatter={tooltipValue} labelFormatter={tooltipLabel} itemSorter={seriesOrder} />
                {series.length > 1 && <Legend itemSorter={seriesOrder} />}
                {series.map((s, i) => (
                  <Bar
                    key={String(s.key)}
                    dataKey={seriesKey(s.key)}
                    name={s.label}
                    fill={PALETTE[i % PALETTE.length]}
                    stackId={series.length > 1 ? 'stack' : undefined}
                    isAnimationActive={false}
                  />
                ))}
              </BarChart>
            )}
          </ResponsiveContainer>
          <figcaption className="db-chart-caption">{t('database.chart.rows', { count: answer.rows, n: formatNumber(answer.rows) })}</figcaption>
        </figure>
      )}
    </div>
  );
}

/** A series' data key in Recharts' rows. */
const seriesKey = (key: ChartKey) => `s:${JSON.stringify(key)}`;

/** The answer as Recharts' rows: one per category, its label and each series' value. */
export function chartRows(answer: ChartAnswer): Array<Record<string, string | number | null>> {
  const rows = new Map<string, Record<string, string | number | null>>();
  for (const category of answer.categories) rows.set(JSON.stringify(category.key), { label: category.label });
  for (const point of answer.points) {
    const row = rows.get(JSON.stringify(point.x));
    if (row) row[seriesKey(point.series)] = point.value;
  }
  return [...rows.values()];
}

/** The bar above a chart (editors): the kind (a `chart` layout), x and its bucket, the value, a series, the order, running totals. */
function ChartSetup({
  layout,
  chart,
  kind,
  onChange,
  answer,
}: {
  layout: DatabaseLayout;
  chart: ChartConfig | null;
  kind: ChartKind;
  onChange(next: ChartConfig): void;
  answer: ChartAnswer | null;
}) {
  const { t } = useTranslation('automation');
  const db = useDatabase();
  const fields = Object.entries(db.config.fields).filter(([, f]) => f.type !== 'files' && f.type !== 'relation');
  // Numbers, and the formulas and rollups that give numbers.
  const numbers = fields.filter(
    ([id, f]) => asStoredField(db.config.fields, id).type === 'number' && (f.type === 'number' || f.type === 'formula' || f.type === 'rollup'),
  );
  const current = chart ?? defaultChart(db.config);
  const change = (patch: Partial<ChartConfig>) => onChange({ ...current, ...patch });
  const dateLike = (fieldId: string) => !!db.config.fields[fieldId] && DATE_LIKE_TYPES.has(asStoredField(db.config.fields, fieldId).type as DatabaseFieldType);
  if (!chart) {
    return (
      <div className="db-chart-setup">
        <button type="button" className="db-button is-on" onClick={() => onChange(current)}>
          {t('database.chart.setUp')}
        </button>
      </div>
    );
  }
  return (
    <div className="db-chart-setup" role="group" aria-label={t('database.chart.setup')}>
      {layout.type === 'chart' && (
        <label>
          {t('database.chart.kind')}
          <select
            value={kind}
            onChange={(e) => {
              const next = e.target.value as ChartKind;
              // What the new kind has no control for goes: a pie's series, running totals off lines.
              change({ kind: next, ...(next === 'pie' ? { series: null } : {}), ...(next !== 'line' ? { cumulative: false } : {}) });
            }}
          >
            {CHART_KINDS.map((k) => (
              <option key={k} value={k}>
                {t(`database.chart.kinds.${k}`)}
              </option>
            ))}
          </select>
        </label>
      )}
      <label>
        {t('database.chart.x')}
        <select
          value={current.x.fieldId}
          onChange={(e) =>
            change({
              x: { fieldId: e.target.value, ...(dateLike(e.target.value) ? { bucket: 'month' } : {}) },
              hidden: [],
              ...(current.series?.fieldId === e.target.value ? { series: null } : {}),
            })
          }
        >
          {fields.map(([id, f]) => (
            <option key={id} value={id}>
              {f.name}
            </option>
          ))}
        </select>
      </label>
      {dateLike(current.x.fieldId) && (
        <label>
          {t('database.chart.bucket')}
          <select value={current.x.bucket ?? 'day'} onChange={(e) => change({ x: { ...current.x, bucket: e.target.value as (typeof CHART_BUCKETS)[number] } })}>
            {CHART_BUCKETS.map((b) => (
              <option key={b} value={b}>
                {t(`database.chart.buckets.${b}`)}
              </option>
            ))}
          </select>
        </label>
      )}
      <label>
        {t('database.chart.y')}
        <select
          value={current.y.aggregate === 'count' ? 'count' : `${current.y.aggregate}:${current.y.fieldId ?? ''}`}
          onChange={(e) => {
            const [aggregate, fieldId] = e.target.value.split(':') as [ChartConfig['y']['aggregate'], string | undefined];
            change({
              y: aggregate === 'count' ? { aggregate } : { aggregate, fieldId },
              ...(aggregate !== 'count' && aggregate !== 'sum' ? { cumulative: false } : {}),
            });
          }}
        >
          <option value="count">{t('database.chart.aggregates.count')}</option>
          {numbers.flatMap(([id, f]) =>
            CHART_AGGREGATES.filter((a) => a !== 'count').map((a) => (
              <option key={`${a}:${id}`} value={`${a}:${id}`}>
                {t(`database.chart.aggregates.${a}`)}: {f.name}
              </option>
            )),
          )}
        </select>
      </label>
      {kind !== 'pie' && (
        <label>
          {t('database.chart.series')}
          <select
            value={current.series?.fieldId ?? ''}
            onChange={(e) => change({ series: e.target.value ? { fieldId: e.target.value, ...(dateLike(e.target.value) ? { bucket: 'month' } : {}) } : null })}
          >
            <option value="">{t('database.chart.noSeries')}</option>
            {fields
              .filter(([id]) => id !== current.x.fieldId)
              .map(([id, f]) => (
                <option key={id} value={id}>
                  {f.name}
                </option>
              ))}
          </select>
        </label>
      )}
      <label>
        {t('database.chart.sort')}
        <select value={current.sort ?? 'xAsc'} onChange={(e) => change({ sort: e.target.value as (typeof CHART_SORTS)[number] })}>
          {CHART_SORTS.map((s) => (
            <option key={s} value={s}>
              {t(`database.chart.sorts.${s}`)}
            </option>
          ))}
        </select>
      </label>
      {kind === 'line' && (current.y.aggregate === 'count' || current.y.aggregate === 'sum') && (
        <label className="db-chart-check">
          <input type="checkbox" checked={current.cumulative === true} onChange={(e) => change({ cumulative: e.target.checked })} />
          {t('database.chart.cumulative')}
        </label>
      )}
      {answer && answer.categories.length + answer.hidden.length > 0 && (
        <CategoriesButton answer={answer} hidden={current.hidden ?? []} onHide={(hidden) => change({ hidden })} />
      )}
    </div>
  );
}

/** «Категории»: every category the rows hold, ticked when shown; a click hides or shows one (the config's `hidden`). */
function CategoriesButton({ answer, hidden, onHide }: { answer: ChartAnswer; hidden: ChartKey[]; onHide(hidden: ChartKey[]): void }) {
  const { t } = useTranslation('automation');
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const all = [...answer.categories, ...answer.hidden];
  const isHidden = (key: ChartKey) => hidden.some((h) => JSON.stringify(h) === JSON.stringify(key));
  return (
    <>
      <button
        ref={button}
        type="button"
        className={`db-button${answer.hidden.length ? ' is-on' : ''}`}
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen(true)}
      >
        {answer.hidden.length ? t('database.chart.hiddenCount', { count: answer.hidden.length }) : t('database.chart.categories')}
      </button>
      {open && (
        <Popover
          anchor={button.current}
          onClose={() => setOpen(false)}
          label={t('database.chart.categories')}
          className="menu db-menu db-chart-categories"
          role="menu"
        >
          {all.map((category) => (
            <button
              key={JSON.stringify(category.key)}
              type="button"
              className="menu-item"
              role="menuitemcheckbox"
              aria-checked={!isHidden(category.key)}
              onClick={() =>
                onHide(isHidden(category.key) ? hidden.filter((h) => JSON.stringify(h) !== JSON.stringify(category.key)) : [...hidden, category.key])
              }
            >
              <span className="db-check-box" aria-hidden>
                {isHidden(category.key) ? '' : '✓'}
              </span>
              {category.label}
            </button>
          ))}
        </Popover>
      )}
    </>
  );
}

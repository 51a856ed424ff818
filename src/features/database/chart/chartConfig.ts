import { DATE_LIKE_TYPES, MAIN_FIELD_ID, type ChartConfig, type DatabaseConfig } from '../../../../schema/blocks/database';
import { formatNumber } from '../fields/format';

/** A first chart for a view: its rows counted by the first status, select, checkbox or date field (else the title). */
export function defaultChart(config: DatabaseConfig): ChartConfig {
  const fields = Object.entries(config.fields);
  const x = ['status', 'select', 'checkbox', 'date'].map((type) => fields.find(([, f]) => f.type === type)?.[0]).find(Boolean) ?? MAIN_FIELD_ID;
  return {
    x: { fieldId: x, ...(config.fields[x] && DATE_LIKE_TYPES.has(config.fields[x].type) ? { bucket: 'month' as const } : {}) },
    y: { aggregate: 'count' },
  };
}

/**
 * What a chart measures, as its value control names it (and its tooltips and single series do):
 * «Число строк», or the function and the field, «Сумма: Цена».
 */
export function measureName(config: DatabaseConfig, y: ChartConfig['y'], t: (key: string) => string): string {
  const fn = t(`database.chart.aggregates.${y.aggregate}`);
  if (y.aggregate === 'count') return fn;
  const field = y.fieldId ? config.fields[y.fieldId] : undefined;
  return field ? `${fn}: ${field.name}` : fn;
}

/**
 * A chart's figure as people read it (format.ts: spaces between thousands, a comma for decimals),
 * in the measured field's format (₽, %) unless it counts rows; at most two decimals (an average).
 */
export function formatFigure(value: number | null | undefined, config: DatabaseConfig, y: ChartConfig['y']): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  const field = y.aggregate !== 'count' && y.fieldId ? config.fields[y.fieldId] : undefined;
  return formatNumber(Math.round(value * 100) / 100, field?.type === 'number' ? field.format : 'plain');
}

/** An axis label's width in px, guessed (12 px, database.css: about 7 px a character) where nothing can measure it. */
const guessWidth = (label: string) => label.length * 7;
/** The gap between two level labels, and a turned label's footprint across. */
const GAP_PX = 8;
const ROTATED_PX = 18;

/**
 * How the x axis shows its labels in `width` px (the plot's): every one level when they fit; every
 * one turned 45° when only so they fit; else every n-th, turned (Recharts' own default skips
 * labels it thinks would touch — a month gone from a year's line). `measure`: a label's width.
 */
export function xAxisTicks(
  labels: readonly string[],
  width: number,
  measure: (label: string) => number = guessWidth,
): { interval: number; angle: number; height: number } {
  const longest = labels.reduce((most, label) => Math.max(most, measure(label)), 0);
  const each = labels.length > 0 ? width / labels.length : width;
  if (width <= 0 || longest + GAP_PX <= each) return { interval: 0, angle: 0, height: 30 };
  return { interval: Math.max(0, Math.ceil(ROTATED_PX / each) - 1), angle: -45, height: Math.ceil(longest * Math.SQRT1_2) + 16 };
}

let canvas: CanvasRenderingContext2D | null | undefined;

/** A label's width in px in the chart's font (a canvas measures it; the guess where there is none, as in tests). */
export function labelWidth(label: string, font: string): number {
  if (canvas === undefined) {
    try {
      canvas = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
    } catch {
      canvas = null;
    }
  }
  if (!canvas) return guessWidth(label);
  canvas.font = font;
  return Math.ceil(canvas.measureText(label).width);
}

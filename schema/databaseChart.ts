import { z } from 'zod';
import { chartConfigSchema, type ChartKey } from './blocks/database';

/** GET database/{id}/chart (docs/api/databases.md, «Charts»): the view, and a config replacing its own (a preview while it is edited). */
export const chartQueryShape = {
  viewId: z.string().max(64),
  chart: chartConfigSchema.optional(),
};

/** A category (x) or a series: its key and what it is called (an option's name, a person's name, «Без значения»). */
export interface ChartCategory {
  key: ChartKey;
  label: string;
}

/** One figure: a category's value in a series (series null when the chart has none). */
export interface ChartPoint {
  x: ChartKey;
  series: ChartKey;
  value: number | null;
}

/** A chart's answer: categories and series in their order, the points (categories first, then series), the rows counted, the hidden categories. */
export interface ChartAnswer {
  categories: ChartCategory[];
  series: ChartCategory[];
  points: ChartPoint[];
  rows: number;
  /** The categories the config hides that the rows hold (to be shown again), in x's order. */
  hidden: ChartCategory[];
}

/** The label of the category of rows without a value. */
export const CHART_EMPTY_LABEL = 'Без значения';

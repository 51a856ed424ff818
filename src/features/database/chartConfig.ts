import { DATE_LIKE_TYPES, MAIN_FIELD_ID, type ChartConfig, type DatabaseConfig } from '../../../schema/blocks/database';
import type { DatabaseChange } from '../../../schema/database';

/** Something that hears the database's realtime changes while it is drawn (a row store, a chart). */
export interface LiveView {
  applyChange(change: DatabaseChange): void;
  refreshSoon(): void;
  /** Reads again only if what it holds was read at another revision than `revision` (the database's now); without it, `refreshSoon`. */
  refreshUnless?(revision: string): void;
}

/** A first chart for a view: its rows counted by the first status, select, checkbox or date field (else the title). */
export function defaultChart(config: DatabaseConfig): ChartConfig {
  const fields = Object.entries(config.fields);
  const x = ['status', 'select', 'checkbox', 'date'].map((type) => fields.find(([, f]) => f.type === type)?.[0]).find(Boolean) ?? MAIN_FIELD_ID;
  return {
    x: { fieldId: x, ...(config.fields[x] && DATE_LIKE_TYPES.has(config.fields[x].type) ? { bucket: 'month' as const } : {}) },
    y: { aggregate: 'count' },
  };
}

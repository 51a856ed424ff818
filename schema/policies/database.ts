import { MAIN_FIELD_ID, fieldOf, type ChartConfig, type DatabaseData, type DatabaseLayout } from '../blocks/database';

/*
 * What a published database shows its public reader (docs/security.md «What a public reader can
 * see»): the fields its views show, the rows its views let through. The server applies these to
 * every public read (server/routes/databases.ts); signed-in readers with access read everything.
 */

/** The fields a view shows: its columns, and the fields its layout draws by (group, cover, dates, chart); the title always. */
export function layoutFields(layout: DatabaseLayout): string[] {
  const ids = [MAIN_FIELD_ID, ...layout.orderedFields.map((f) => f.fieldId)];
  if (layout.groupBy) ids.push(layout.groupBy.fieldId);
  if (layout.groupBy?.sub) ids.push(layout.groupBy.sub.fieldId);
  if (layout.cover) ids.push(layout.cover.fieldId);
  if (layout.calendar) ids.push(layout.calendar.fieldId);
  if (layout.timeline) {
    ids.push(layout.timeline.startFieldId);
    if (layout.timeline.endFieldId) ids.push(layout.timeline.endFieldId);
    if (layout.timeline.dependencyFieldId) ids.push(layout.timeline.dependencyFieldId);
  }
  if (layout.chart) ids.push(...chartFields(layout.chart));
  return ids;
}

/** The fields a chart reads: its x, its series, its y's number. */
export function chartFields(chart: ChartConfig): string[] {
  return [chart.x.fieldId, ...(chart.series ? [chart.series.fieldId] : []), ...(chart.y.fieldId ? [chart.y.fieldId] : [])];
}

/** The views that show rows: all but forms (a form asks for a new row and shows none). */
export function rowLayouts(data: DatabaseData): DatabaseLayout[] {
  return data.view.layouts.filter((layout) => layout.type !== 'form');
}

/** The fields a published database shows: those of any of its views showing rows (that exist), the title always. */
export function publishedFields(data: DatabaseData): Set<string> {
  return new Set([MAIN_FIELD_ID, ...rowLayouts(data).flatMap(layoutFields)].filter((id) => fieldOf(data.config, id)));
}

/**
 * The database block as a public reader gets it: the definitions (names, options) of the fields
 * its views show, filter or sort by — never their values, which go out of shown fields only —,
 * not those of fields no view names (nor their footer figures); the views otherwise as they are
 * (the page draws them, and a public rows read compares its filter with the view's own).
 */
export function publishedData(data: DatabaseData): DatabaseData {
  const named = publishedFields(data);
  // A public form's questions (their names and options; no values: a form shows no rows).
  for (const layout of data.view.layouts)
    if (layout.type === 'form' && layout.form?.access === 'public') for (const f of layout.orderedFields) named.add(f.fieldId);
  for (const layout of data.view.layouts) {
    for (const rule of layout.filter?.rules ?? []) for (const r of 'op' in rule ? rule.rules : [rule]) named.add(r.fieldId);
    for (const sort of layout.sorts ?? []) named.add(sort.fieldId);
  }
  const fields = Object.fromEntries(Object.entries(data.config.fields).filter(([id]) => named.has(id)));
  // A footer's figure of a field left out goes with it (the block must stay whole: a copy of the public view is made from it).
  const layouts = data.view.layouts.map((layout) =>
    layout.calculations ? { ...layout, calculations: Object.fromEntries(Object.entries(layout.calculations).filter(([id]) => named.has(id))) } : layout,
  );
  return { ...data, config: { ...data.config, fields }, view: { ...data.view, layouts } };
}

/** JSON with its objects' keys in order: two configs that mean the same compare equal whatever order their keys came in. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/** Whether two values (a filter, sorts, a chart config) are the same. */
export function sameConfig(a: unknown, b: unknown): boolean {
  return canonical(a ?? null) === canonical(b ?? null);
}

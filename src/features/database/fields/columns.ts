import { MAIN_FIELD_ID, fieldOf, type DatabaseConfig, type DatabaseField, type DatabaseLayout, type OrderedField } from '../../../../schema/blocks/database';

export const DEFAULT_WIDTH = 180;
export const TITLE_WIDTH = 280;
export const MIN_WIDTH = 40;
export const MAX_WIDTH = 2000;

/** A column of the Table view: a field shown, with its width and wrap. */
export interface GridColumn {
  fieldId: string;
  field: DatabaseField;
  width: number;
  isWrap: boolean;
}

/**
 * The view's columns in order: the title first (it is the sticky first column, shown even when
 * the view does not list it), then the listed fields that exist.
 */
export function gridColumns(config: DatabaseConfig, layout: DatabaseLayout): GridColumn[] {
  const listed = layout.orderedFields.filter((entry) => fieldOf(config, entry.fieldId));
  const title = listed.find((entry) => entry.fieldId === MAIN_FIELD_ID) ?? { fieldId: MAIN_FIELD_ID, isWrap: false };
  const ordered = [title, ...listed.filter((entry) => entry.fieldId !== MAIN_FIELD_ID)];
  return ordered.map((entry) => ({
    fieldId: entry.fieldId,
    field: config.fields[entry.fieldId],
    width: entry.width ?? (entry.fieldId === MAIN_FIELD_ID ? TITLE_WIDTH : DEFAULT_WIDTH),
    isWrap: entry.isWrap,
  }));
}

/** The fields a view does not show (the «hidden» list). */
export function hiddenFields(config: DatabaseConfig, layout: DatabaseLayout): string[] {
  const shown = new Set(layout.orderedFields.map((entry) => entry.fieldId));
  return Object.keys(config.fields).filter((id) => id !== MAIN_FIELD_ID && !shown.has(id));
}

/** orderedFields with one entry changed (added at the end when missing). */
export function withOrderedField(layout: DatabaseLayout, fieldId: string, change: Partial<OrderedField>): OrderedField[] {
  const found = layout.orderedFields.some((entry) => entry.fieldId === fieldId);
  const list = found ? layout.orderedFields : [...layout.orderedFields, { fieldId, isWrap: false }];
  return list.map((entry) => (entry.fieldId === fieldId ? { ...entry, ...change } : entry));
}

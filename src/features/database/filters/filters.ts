import {
  FILTER_CONDITIONS,
  fieldOf,
  type DatabaseConfig,
  type FilterCondition,
  type FilterGroup,
  type FilterRule,
  type ViewSort,
} from '../../../../schema/blocks/database';

/**
 * The filter and sort bar's edits, as pure functions over a view's `filter` and `sorts`: every
 * result fits filterGroupSchema / sortSchema and the field types' conditions (FILTER_CONDITIONS).
 */

export const EMPTY_FILTER: FilterGroup = { op: 'and', rules: [] };

/** Conditions that compare with nothing. */
export function needsValue(condition: FilterCondition): boolean {
  return condition !== 'isEmpty' && condition !== 'isNotEmpty';
}

/** A new rule on a field: its type's first condition, no value yet (it filters nothing until one is given). */
export function newRule(config: DatabaseConfig, fieldId: string): FilterRule {
  const field = fieldOf(config, fieldId);
  const condition = field ? FILTER_CONDITIONS[field.type][0] : 'contains';
  return field?.type === 'checkbox' ? { fieldId, condition, value: true } : { fieldId, condition };
}

export function addRule(filter: FilterGroup | null | undefined, config: DatabaseConfig, fieldId: string): FilterGroup {
  const current = filter ?? EMPTY_FILTER;
  return { op: current.op, rules: [...current.rules, newRule(config, fieldId)] };
}

export function removeRule(filter: FilterGroup, index: number): FilterGroup | null {
  const rules = filter.rules.filter((_, i) => i !== index);
  return rules.length === 0 ? null : { op: filter.op, rules };
}

export function setOp(filter: FilterGroup, op: 'and' | 'or'): FilterGroup {
  return { op, rules: filter.rules };
}

/** A value typed into a rule, as the field's type compares it. */
export function ruleValue(config: DatabaseConfig, fieldId: string, raw: string | boolean): FilterRule['value'] {
  const field = fieldOf(config, fieldId);
  if (typeof raw === 'boolean') return raw;
  if (!field) return raw;
  if (field.type === 'number') {
    const n = Number(raw.replace(',', '.').replace(/\s/g, ''));
    return raw.trim() === '' ? undefined : Number.isFinite(n) ? n : raw;
  }
  return raw === '' ? undefined : raw;
}

/**
 * One rule changed: another field resets the condition (when the new type has not got it) and
 * the value; a condition without a value drops it.
 */
export function updateRule(
  filter: FilterGroup,
  index: number,
  config: DatabaseConfig,
  patch: { fieldId?: string; condition?: FilterCondition; value?: string | boolean },
): FilterGroup {
  const rules = filter.rules.map((entry, i) => {
    if (i !== index || 'op' in entry) return entry;
    let rule: FilterRule = { ...entry };
    if (patch.fieldId !== undefined && patch.fieldId !== rule.fieldId) {
      const field = fieldOf(config, patch.fieldId);
      const allowed = field ? FILTER_CONDITIONS[field.type] : [];
      rule =
        allowed.includes(rule.condition) && field?.type !== 'checkbox' ? { fieldId: patch.fieldId, condition: rule.condition } : newRule(config, patch.fieldId);
    }
    if (patch.condition !== undefined) rule = { ...rule, condition: patch.condition };
    if (patch.value !== undefined) {
      const value = ruleValue(config, rule.fieldId, patch.value);
      rule = value === undefined ? { fieldId: rule.fieldId, condition: rule.condition } : { ...rule, value };
    }
    if (!needsValue(rule.condition)) rule = { fieldId: rule.fieldId, condition: rule.condition };
    return rule;
  });
  return { op: filter.op, rules };
}

export function addSort(sorts: readonly ViewSort[] | undefined, fieldId: string): ViewSort[] {
  return [...(sorts ?? []).filter((s) => s.fieldId !== fieldId), { fieldId, direction: 'asc' }];
}

export function updateSort(sorts: readonly ViewSort[], index: number, patch: Partial<ViewSort>): ViewSort[] {
  return sorts.map((s, i) => (i === index ? { ...s, ...patch } : s)).filter((s, i, list) => list.findIndex((o) => o.fieldId === s.fieldId) === i);
}

export function removeSort(sorts: readonly ViewSort[], index: number): ViewSort[] {
  return sorts.filter((_, i) => i !== index);
}

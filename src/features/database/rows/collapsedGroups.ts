import { useCallback, useMemo, useState } from 'react';

/*
 * Which groups of a grouped Table view are collapsed: a person's view preference, kept in this
 * browser (localStorage, one key per database and view), never sent to the server (docs/web-app.md,
 * «Table view»). A group is named by its value, so it stays collapsed while other groups come and
 * go; a view grouped by another field starts with every group open. Where storage cannot be used
 * (turned off, full), the choice lasts while the view is open.
 */

const storageKey = (databaseId: string, viewId: string) => `db.collapsedGroups:${databaseId}:${viewId}`;

/** A group's name in the list: its value as JSON (an option or user id, true/false, null). */
export const groupKey = (value: unknown): string => JSON.stringify(value ?? null);

/** The collapsed groups saved for a view grouped by `fieldId` (none when it was grouped by another field). */
export function readCollapsed(databaseId: string, viewId: string, fieldId: string): string[] {
  try {
    const raw = globalThis.localStorage?.getItem(storageKey(databaseId, viewId));
    const saved = (raw ? JSON.parse(raw) : null) as { fieldId?: unknown; groups?: unknown } | null;
    if (!saved || saved.fieldId !== fieldId || !Array.isArray(saved.groups)) return [];
    return saved.groups.filter((g): g is string => typeof g === 'string');
  } catch {
    return [];
  }
}

export function writeCollapsed(databaseId: string, viewId: string, fieldId: string, groups: readonly string[]): void {
  const key = storageKey(databaseId, viewId);
  try {
    if (groups.length === 0) globalThis.localStorage?.removeItem(key);
    else globalThis.localStorage?.setItem(key, JSON.stringify({ fieldId, groups }));
  } catch {
    // Not kept: the state below still holds it while the view is open.
  }
}

/** The collapsed groups of a view grouped by `fieldId`, and a toggle of one (by its groupKey). */
export function useCollapsedGroups(databaseId: string, viewId: string, fieldId: string | undefined): [ReadonlySet<string>, (group: string) => void] {
  const key = `${databaseId} ${viewId} ${fieldId ?? ''}`;
  const stored = useMemo<ReadonlySet<string>>(() => new Set(fieldId ? readCollapsed(databaseId, viewId, fieldId) : []), [databaseId, viewId, fieldId]);
  const [toggled, setToggled] = useState<{ key: string; groups: ReadonlySet<string> } | null>(null);
  const collapsed = toggled?.key === key ? toggled.groups : stored;
  const toggle = useCallback(
    (group: string) => {
      if (!fieldId) return;
      const next = new Set(collapsed);
      if (next.has(group)) next.delete(group);
      else next.add(group);
      writeCollapsed(databaseId, viewId, fieldId, [...next]);
      setToggled({ key, groups: next });
    },
    [collapsed, databaseId, viewId, fieldId, key],
  );
  return [collapsed, toggle];
}

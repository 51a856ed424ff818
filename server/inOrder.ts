/**
 * Runs tasks one after another per key, in the order they were handed in (an AI proxy room's
 * events, a page's version announcements): each starts once the key's one before has settled, so
 * a task that reads the database first cannot be overtaken by a later one that does not. A task's
 * failure is its caller's to handle and does not stop the next. Only keys with a task pending are
 * kept.
 */
export function inOrderByKey(): (key: string, task: () => unknown) => Promise<void> {
  const last = new Map<string, Promise<void>>();
  return (key, task) => {
    const next = (last.get(key) ?? Promise.resolve()).then(async () => {
      await task();
    });
    const settled = next.catch(() => undefined);
    last.set(key, settled);
    void settled.then(() => {
      if (last.get(key) === settled) last.delete(key);
    });
    return next;
  };
}

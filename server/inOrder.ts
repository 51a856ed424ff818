/**
 * A place in a key's order, taken now and used later: taken inside a transaction, under the lock
 * that orders what it records, and used after the commit, so what was recorded first is
 * announced first however long the commit and the reads after it take.
 */
export interface Turn {
  /** Runs `task` in this place, once the key's turns before it have settled; answers as it settles. */
  run(task: () => unknown): Promise<void>;
  /** Leaves this place empty (nothing to announce, or the transaction failed): the turns after it go on. Nothing once run. */
  pass(): void;
}

/** Runs a task in its key's order (see inOrderByKey); `turn` takes a place now for a task given later. */
export interface InOrder {
  (key: string, task: () => unknown): Promise<void>;
  turn(key: string): Turn;
}

/**
 * Runs tasks one after another per key, in the order they were handed in or their turns taken
 * (an AI proxy room's events, a page's version announcements): each starts once the key's one
 * before has settled, so a task that reads the database first cannot be overtaken by a later one
 * that does not. A task's failure is its caller's to handle and does not stop the next. Only keys
 * with a task pending are kept.
 */
export function inOrderByKey(): InOrder {
  const last = new Map<string, Promise<void>>();
  const turn = (key: string): Turn => {
    let give: (task: (() => unknown) | null) => void = () => undefined;
    const given = new Promise<(() => unknown) | null>((resolve) => (give = resolve));
    const next = (last.get(key) ?? Promise.resolve()).then(async () => {
      const task = await given;
      if (task) await task();
    });
    const settled = next.catch(() => undefined);
    last.set(key, settled);
    void settled.then(() => {
      if (last.get(key) === settled) last.delete(key);
    });
    return {
      run: (task) => {
        give(task);
        return next;
      },
      pass: () => give(null),
    };
  };
  return Object.assign((key: string, task: () => unknown) => turn(key).run(task), { turn });
}

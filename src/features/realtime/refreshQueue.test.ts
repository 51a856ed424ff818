import { createRefreshQueue } from './refreshQueue';

/*
 * The refetch queue behind the live sidebar and inbox: a burst of events is one refetch per list,
 * an event during a refetch makes one more, a steady stream still refetches, and nothing runs
 * after dispose.
 */

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

/** A run function whose calls are recorded and finish when the test says so. */
function recorder() {
  const calls: string[] = [];
  const finish: Array<() => void> = [];
  const run = (key: string) => {
    calls.push(key);
    return new Promise<void>((resolve) => finish.push(resolve));
  };
  return {
    calls,
    run,
    finishAll: async () => {
      for (const done of finish.splice(0)) done();
      // Let the promise chain (then → finally) settle.
      for (let i = 0; i < 5; i++) await Promise.resolve();
    },
  };
}

const tick = async (ms: number) => {
  jest.advanceTimersByTime(ms);
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

test('a burst of events for one list is one refetch, 150 ms after the first; other lists are their own', async () => {
  const r = recorder();
  const queue = createRefreshQueue(r.run);
  queue.schedule('section:all');
  await tick(100);
  queue.schedule('section:all');
  queue.schedule('children:p');
  queue.schedule('section:all');
  expect(r.calls).toEqual([]);
  expect(queue.busy('section:all')).toBe(true);
  await tick(50);
  expect(r.calls).toEqual(['section:all']);
  await tick(100);
  expect(r.calls).toEqual(['section:all', 'children:p']);
  await r.finishAll();
  await tick(1000);
  expect(r.calls).toEqual(['section:all', 'children:p']);
  expect(queue.busy('section:all')).toBe(false);
});

test('an event while the list is being fetched fetches it once more afterwards (never two at once)', async () => {
  const r = recorder();
  const queue = createRefreshQueue(r.run);
  queue.schedule('k');
  await tick(150);
  expect(r.calls).toEqual(['k']);
  // Three events while the answer is on its way: one more refetch, after it, not beside it.
  queue.schedule('k');
  await tick(150);
  queue.schedule('k');
  queue.schedule('k');
  await tick(500);
  expect(r.calls).toEqual(['k']);
  await r.finishAll();
  await tick(150);
  expect(r.calls).toEqual(['k', 'k']);
  await r.finishAll();
  await tick(1000);
  expect(r.calls).toEqual(['k', 'k']);
});

test('a steady stream of events still refetches every 150 ms (not starved by a debounce)', async () => {
  const calls: number[] = [];
  const queue = createRefreshQueue(async () => {
    calls.push(Date.now());
  });
  for (let i = 0; i < 20; i++) {
    queue.schedule('k');
    await tick(50);
  }
  // 1 s of events every 50 ms: about one refetch per 150 ms.
  expect(calls.length).toBeGreaterThanOrEqual(5);
  expect(calls.length).toBeLessThanOrEqual(7);
});

test('a failed refetch is reported and the list can be refetched again', async () => {
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  let n = 0;
  const queue = createRefreshQueue(async () => {
    n++;
    if (n === 1) throw new Error('no network');
  });
  queue.schedule('k');
  await tick(150);
  expect(warn).toHaveBeenCalledWith('refetch: refetching k failed', expect.objectContaining({ error: expect.any(Error), key: 'k' }));
  queue.schedule('k');
  await tick(150);
  expect(n).toBe(2);
  warn.mockRestore();
});

test('nothing runs after dispose, and a refetch running then is not repeated', async () => {
  const r = recorder();
  const queue = createRefreshQueue(r.run);
  queue.schedule('a');
  await tick(150);
  queue.schedule('a');
  queue.schedule('b');
  queue.dispose();
  await r.finishAll();
  await tick(1000);
  queue.schedule('c');
  await tick(1000);
  expect(r.calls).toEqual(['a']);
});

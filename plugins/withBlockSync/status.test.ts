import { REFUSAL_NOTICE_MS, createSyncStatus, syncStatusOf, type SyncFacts, type SyncStatus } from './status';

const calm: SyncFacts = { refused: false, offline: false, pending: false };

describe('syncStatusOf', () => {
  it('a refusal wins over a lost connection, which wins over work in progress', () => {
    expect(syncStatusOf(calm, false)).toBe('saved');
    expect(syncStatusOf({ ...calm, pending: true }, false)).toBe('pending');
    expect(syncStatusOf({ ...calm, pending: true, offline: true }, false)).toBe('offline');
    expect(syncStatusOf({ refused: true, offline: true, pending: true }, false)).toBe('error');
    expect(syncStatusOf({ ...calm, offline: true }, true)).toBe('error');
  });
});

describe('createSyncStatus', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  function setup() {
    let facts = calm;
    const told: SyncStatus[] = [];
    const status = createSyncStatus(
      () => facts,
      (next) => told.push(next),
    );
    return { status, told, set: (next: Partial<SyncFacts>) => (facts = { ...calm, ...next }) };
  }

  it('tells a change once, and only a change', () => {
    const { status, told, set } = setup();
    status.refresh();
    expect(told).toEqual([]);
    set({ pending: true });
    status.refresh();
    status.refresh();
    set({});
    status.refresh();
    expect(told).toEqual(['pending', 'saved']);
    expect(status.current()).toBe('saved');
  });

  it('a refusal says error at once and for REFUSAL_NOTICE_MS, then the status comes back by itself', () => {
    const { status, told } = setup();
    status.refusal();
    expect(status.current()).toBe('error');
    jest.advanceTimersByTime(REFUSAL_NOTICE_MS - 1);
    status.refresh();
    expect(status.current()).toBe('error');
    jest.advanceTimersByTime(1);
    expect(told).toEqual(['error', 'saved']);
  });

  it('a request that goes through ends the notice early', () => {
    const { status } = setup();
    status.refusal();
    status.accepted();
    status.refresh();
    expect(status.current()).toBe('saved');
  });
});

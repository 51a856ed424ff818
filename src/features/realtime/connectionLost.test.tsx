import { act, render, renderHook, screen } from '@testing-library/react';
import type { RealtimeStatus } from '../../app/realtimeConnection';
import '../../app/i18n';
import { DROPPED_MS, NEVER_CONNECTED_MS, useConnectionLost } from './connectionLost';
import { ConnectionIndicator } from './LiveShell';

/*
 * When the shell says «Нет соединения»: after a connection that was up has been down for a
 * second, or one that never came up for three; never for a blip, and never without a connection
 * (signed out, no workspace).
 */

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

function track(connection: object | null, status: RealtimeStatus) {
  return renderHook(({ c, s }: { c: object | null; s: RealtimeStatus }) => useConnectionLost(c, s), { initialProps: { c: connection, s: status } });
}

const wait = (ms: number) => act(() => void jest.advanceTimersByTime(ms));

test('a connection that never comes up is lost after 3 s', () => {
  const connection = {};
  const hook = track(connection, 'connecting');
  wait(NEVER_CONNECTED_MS - 100);
  expect(hook.result.current).toBe(false);
  // The first attempt failed: still counted from the start, not from the failure.
  hook.rerender({ c: connection, s: 'offline' });
  wait(99);
  expect(hook.result.current).toBe(false);
  wait(2);
  expect(hook.result.current).toBe(true);
  hook.rerender({ c: connection, s: 'online' });
  expect(hook.result.current).toBe(false);
});

test('a dropped connection is lost after 1 s down; a shorter blip shows nothing', () => {
  const connection = {};
  const hook = track(connection, 'connecting');
  wait(200);
  hook.rerender({ c: connection, s: 'online' });
  hook.rerender({ c: connection, s: 'offline' });
  wait(DROPPED_MS - 200);
  hook.rerender({ c: connection, s: 'online' });
  wait(5_000);
  expect(hook.result.current).toBe(false);

  hook.rerender({ c: connection, s: 'offline' });
  wait(DROPPED_MS - 1);
  expect(hook.result.current).toBe(false);
  wait(1);
  expect(hook.result.current).toBe(true);
  wait(60_000);
  expect(hook.result.current).toBe(true);
  hook.rerender({ c: connection, s: 'online' });
  expect(hook.result.current).toBe(false);
});

test('no connection (signed out, no workspace) is never reported; a new connection starts over', () => {
  const hook = track(null, 'offline');
  wait(10_000);
  expect(hook.result.current).toBe(false);
  const first = {};
  hook.rerender({ c: first, s: 'connecting' });
  wait(500);
  hook.rerender({ c: first, s: 'online' });
  // Signed out and in again: a new connection, which gets its 3 s again.
  const second = {};
  hook.rerender({ c: second, s: 'connecting' });
  wait(DROPPED_MS + 100);
  expect(hook.result.current).toBe(false);
  wait(NEVER_CONNECTED_MS);
  expect(hook.result.current).toBe(true);
});

test('the note says the connection is lost and that changes will be saved', () => {
  const { rerender } = render(<ConnectionIndicator lost={false} />);
  expect(screen.getByRole('status').textContent).toBe('');
  rerender(<ConnectionIndicator lost />);
  expect(screen.getByRole('status').textContent).toBe('Нет соединения — изменения сохранятся, когда связь вернётся');
});

import { Suspense } from 'react';
import { act, render, screen } from '@testing-library/react';
import { preloadable } from './preloadable';

function Greeting({ name }: { name: string }) {
  return <p>Привет, {name}</p>;
}

/** A loader whose answer the test gives when it wants. */
function heldLoader() {
  let give: (module: { default: typeof Greeting }) => void = () => undefined;
  const load = jest.fn(() => new Promise<{ default: typeof Greeting }>((resolve) => (give = resolve)));
  return { load, give: () => give({ default: Greeting }) };
}

test('a screen whose code is not loaded suspends, and is drawn once it comes (the code asked for once)', async () => {
  const { load, give } = heldLoader();
  const Chunk = preloadable(load);
  render(
    <Suspense fallback={<p>Загрузка…</p>}>
      <Chunk name="Анна" />
    </Suspense>,
  );
  expect(screen.getByText('Загрузка…')).toBeTruthy();
  expect(load).toHaveBeenCalledTimes(1);
  await act(async () => give());
  expect(await screen.findByText('Привет, Анна')).toBeTruthy();
  void Chunk.preload();
  expect(load).toHaveBeenCalledTimes(1);
});

test('a screen preloaded before it is drawn is drawn at once, with no stand-in', async () => {
  const { load, give } = heldLoader();
  const Chunk = preloadable(load);
  const loading = Chunk.preload();
  give();
  await loading;
  render(
    <Suspense fallback={<p>Загрузка…</p>}>
      <Chunk name="Борис" />
    </Suspense>,
  );
  // In the first commit itself: nothing suspended.
  expect(screen.getByText('Привет, Борис')).toBeTruthy();
  expect(screen.queryByText('Загрузка…')).toBeNull();
});

test('a failed load is asked for again', async () => {
  const load = jest.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValueOnce({ default: Greeting });
  const Chunk = preloadable(load);
  await expect(Chunk.preload()).rejects.toThrow('offline');
  await expect(Chunk.preload()).resolves.toBe(Greeting);
  expect(load).toHaveBeenCalledTimes(2);
});

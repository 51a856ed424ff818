import { inOrderByKey } from './inOrder';

const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('tasks of one key run in the order given, a slow one first holding back the next; other keys do not wait', async () => {
  const inOrder = inOrderByKey();
  const ran: string[] = [];
  await Promise.all([
    inOrder('page', async () => {
      await later(30);
      ran.push('page 1');
    }),
    inOrder('page', () => ran.push('page 2')),
    inOrder('other', () => ran.push('other 1')),
  ]);
  expect(ran).toEqual(['other 1', 'page 1', 'page 2']);
});

test("a task's failure goes to its caller, and the key's next task still runs", async () => {
  const inOrder = inOrderByKey();
  const ran: string[] = [];
  const failed = inOrder('page', async () => {
    throw new Error('could not read');
  });
  const next = inOrder('page', () => ran.push('after'));
  await expect(failed).rejects.toThrow('could not read');
  await next;
  expect(ran).toEqual(['after']);
});

test('a turn taken first runs first, though its task is given after a later one; a turn passed holds nothing back', async () => {
  const inOrder = inOrderByKey();
  const ran: string[] = [];
  const first = inOrder.turn('page');
  const skipped = inOrder.turn('page');
  const second = inOrder('page', () => ran.push('second'));
  await later(20);
  expect(ran).toEqual([]);
  skipped.pass();
  await later(5);
  expect(ran).toEqual([]);
  await first.run(() => ran.push('first'));
  await second;
  expect(ran).toEqual(['first', 'second']);
  // Passing a turn already run changes nothing.
  first.pass();
  expect(ran).toEqual(['first', 'second']);
});

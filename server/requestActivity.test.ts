import Fastify from 'fastify';
import { RequestActivity, trackRequests } from './requestActivity';

test('in use while a request is in flight and for the quiet time after the last one, not after', () => {
  let now = 1_000;
  const activity = new RequestActivity(1_000, () => now);
  expect(activity.busy()).toBe(false);
  activity.started();
  now += 5_000; // a long request: in use all along
  expect(activity.busy()).toBe(true);
  activity.ended();
  now += 999;
  expect(activity.busy()).toBe(true);
  now += 1;
  expect(activity.busy()).toBe(false);
  // Two at once: in use until both have ended.
  activity.started();
  activity.started();
  activity.ended();
  now += 2_000;
  expect(activity.busy()).toBe(true);
  activity.ended();
  now += 1_000;
  expect(activity.busy()).toBe(false);
});

test("an app's requests are counted from their start to their answer", async () => {
  const app = Fastify();
  // The quiet time on a clock of the test's: on a loaded machine the line after an answer may run
  // more than a real 30 ms later.
  let now = 1_000;
  const activity = trackRequests(app, new RequestActivity(30, () => now));
  let seenDuring: boolean | undefined;
  app.get('/slow', async () => {
    seenDuring = activity.busy();
    await new Promise((resolve) => setTimeout(resolve, 60));
    return { ok: true };
  });
  await app.ready();
  try {
    expect(activity.busy()).toBe(false);
    expect((await app.inject({ method: 'GET', url: '/slow' })).statusCode).toBe(200);
    // Still in use after 60 ms in the handler: it was in flight; and just after its answer.
    expect(seenDuring).toBe(true);
    expect(activity.busy()).toBe(true);
    now += 50;
    expect(activity.busy()).toBe(false);
    // Unknown paths (404) are requests too.
    await app.inject({ method: 'GET', url: '/nowhere' });
    expect(activity.busy()).toBe(true);
  } finally {
    await app.close();
  }
});

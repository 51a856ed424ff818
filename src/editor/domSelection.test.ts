import { placeNowOrAfterFrame } from './domSelection';

const frames = (n: number) =>
  new Promise<void>((resolve) => {
    const next = (left: number) => (left === 0 ? resolve() : requestAnimationFrame(() => next(left - 1)));
    next(n);
  });

describe('placeNowOrAfterFrame', () => {
  test('placed now: no frame, no cleanup', () => {
    const place = jest.fn();
    const failed = jest.fn();
    expect(placeNowOrAfterFrame(place, failed)).toBeUndefined();
    expect(place).toHaveBeenCalledTimes(1);
    expect(failed).not.toHaveBeenCalled();
  });

  test('the DOM known only a few frames later (a loaded machine): placed then, not failed', async () => {
    let attempts = 0;
    const place = jest.fn(() => {
      attempts++;
      if (attempts < 4) throw new Error('Cannot resolve a DOM node from Slate node');
    });
    const failed = jest.fn();
    expect(placeNowOrAfterFrame(place, failed)).toBeInstanceOf(Function);
    await frames(8);
    expect(place).toHaveBeenCalledTimes(4);
    expect(failed).not.toHaveBeenCalled();
  });

  test('never known: failed once, after five more tries', async () => {
    const place = jest.fn(() => {
      throw new Error('Cannot resolve a DOM node from Slate node');
    });
    const failed = jest.fn();
    placeNowOrAfterFrame(place, failed);
    await frames(10);
    expect(place).toHaveBeenCalledTimes(6);
    expect(failed).toHaveBeenCalledTimes(1);
  });

  test('cleaned up (the effect ran again): no more tries', async () => {
    const place = jest.fn(() => {
      throw new Error('Cannot resolve a DOM node from Slate node');
    });
    const failed = jest.fn();
    const cleanup = placeNowOrAfterFrame(place, failed);
    await frames(2);
    cleanup?.();
    const tried = place.mock.calls.length;
    await frames(8);
    expect(place).toHaveBeenCalledTimes(tried);
    expect(failed).not.toHaveBeenCalled();
  });
});

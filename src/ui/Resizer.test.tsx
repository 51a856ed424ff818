import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { Resizer } from './Resizer';

/*
 * A side panel's edge: a drag draws each step live and gives the width once, at its end; arrow
 * keys step 16 px outward or inward (outward is right for a right edge, left for a left one);
 * double-click puts the default back; never outside min–max.
 */

// jsdom has no PointerEvent: a MouseEvent with a pointer id stands in (button, clientX are a mouse's).
if (typeof window.PointerEvent === 'undefined') {
  class PointerEventShim extends MouseEvent {
    pointerId: number;
    constructor(type: string, init: PointerEventInit = {}) {
      super(type, init);
      this.pointerId = init.pointerId ?? 0;
    }
  }
  window.PointerEvent = PointerEventShim as unknown as typeof PointerEvent;
}

function Panel({ edge, done }: { edge: 'left' | 'right'; done: number[] }) {
  const [width, setWidth] = useState(400);
  const [live, setLive] = useState<number | null>(null);
  return (
    <>
      <output data-testid="live">{live ?? 'none'}</output>
      <Resizer
        width={live ?? width}
        min={320}
        max={600}
        defaultWidth={400}
        edge={edge}
        label="Ширина панели"
        onLive={setLive}
        onDone={(next) => {
          done.push(next);
          setWidth(next);
        }}
      />
    </>
  );
}

test.each([
  ['left', -100, 500],
  ['right', 100, 500],
] as const)('a %s edge dragged outward by 100 px: live steps, one width at the end', (edge, dx, expected) => {
  const done: number[] = [];
  render(<Panel edge={edge} done={done} />);
  const grip = screen.getByRole('separator', { name: 'Ширина панели' });
  fireEvent.pointerDown(grip, { button: 0, clientX: 700, pointerId: 1 });
  fireEvent.pointerMove(grip, { clientX: 700 + dx / 2, pointerId: 1 });
  expect(screen.getByTestId('live').textContent).toBe(String(450));
  expect(grip.classList.contains('is-dragging')).toBe(true);
  fireEvent.pointerMove(grip, { clientX: 700 + dx, pointerId: 1 });
  expect(done).toEqual([]);
  fireEvent.pointerUp(grip, { clientX: 700 + dx, pointerId: 1 });
  expect(done).toEqual([expected]);
  expect(screen.getByTestId('live').textContent).toBe('none');
  expect(grip.getAttribute('aria-valuenow')).toBe(String(expected));
  expect(grip.classList.contains('is-dragging')).toBe(false);
  expect(document.body.classList.contains('is-resizing')).toBe(false);
});

test('a drag past the limits stops at them', () => {
  const done: number[] = [];
  render(<Panel edge="left" done={done} />);
  const grip = screen.getByRole('separator');
  fireEvent.pointerDown(grip, { button: 0, clientX: 700, pointerId: 1 });
  fireEvent.pointerUp(grip, { clientX: 0, pointerId: 1 });
  fireEvent.pointerDown(grip, { button: 0, clientX: 700, pointerId: 1 });
  fireEvent.pointerUp(grip, { clientX: 1400, pointerId: 1 });
  expect(done).toEqual([600, 320]);
});

test('arrow keys step outward and inward by the edge it is on; a double-click resets', () => {
  const left: number[] = [];
  const { unmount } = render(<Panel edge="left" done={left} />);
  fireEvent.keyDown(screen.getByRole('separator'), { key: 'ArrowLeft' });
  fireEvent.keyDown(screen.getByRole('separator'), { key: 'ArrowLeft' });
  fireEvent.keyDown(screen.getByRole('separator'), { key: 'ArrowRight' });
  fireEvent.doubleClick(screen.getByRole('separator'));
  expect(left).toEqual([416, 432, 416, 400]);
  unmount();
  const right: number[] = [];
  render(<Panel edge="right" done={right} />);
  fireEvent.keyDown(screen.getByRole('separator'), { key: 'ArrowLeft' });
  fireEvent.keyDown(screen.getByRole('separator'), { key: 'ArrowRight' });
  expect(right).toEqual([384, 400]);
});

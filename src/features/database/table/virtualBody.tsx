import { memo, useEffect, useLayoutEffect, useReducer, useRef, useState, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import {
  Virtualizer,
  elementScroll,
  observeElementOffset,
  observeElementRect,
  type PartialKeys,
  type VirtualItem,
  type VirtualizerOptions,
} from '@tanstack/react-virtual';

type Options = PartialKeys<VirtualizerOptions<HTMLDivElement, Element>, 'observeElementRect' | 'observeElementOffset' | 'scrollToFn'>;

/** A virtualizer that renders nobody by itself: what is drawn from it (`VirtualBody`) listens. */
export interface QuietVirtualizer {
  instance: Virtualizer<HTMLDivElement, Element>;
  /** Called on each change of what is in view (`sync`: within the scroll event, to be drawn before its frame is painted). */
  listen(listener: (sync: boolean) => void): () => void;
}

/**
 * `useVirtualizer` (@tanstack/react-virtual) without the render of the component that holds it on
 * each change of the range: a grid's component holds the virtualizer (to scroll to a row, to
 * measure), and only its body (`VirtualBody`) renders again as the rows scrolled in change. The
 * grid's whole component rendered on every scrolled frame before (its hooks and header: ≈ 30 % of
 * the frame's script, ADR 7). The same steps as react-virtual's own hook otherwise: the options
 * set on each render, mounted and updated in layout effects, and a change in a scroll event drawn
 * at once (`flushSync`) unless it comes from measuring a row as it is attached.
 */
export function useQuietVirtualizer(options: Options): QuietVirtualizer {
  const listeners = useRef(new Set<(sync: boolean) => void>());
  const measuring = useRef(false);
  const resolved: VirtualizerOptions<HTMLDivElement, Element> = {
    observeElementRect,
    observeElementOffset,
    scrollToFn: elementScroll,
    ...options,
    onChange: (instance, sync) => {
      for (const listener of listeners.current) listener(sync && !measuring.current);
      options.onChange?.(instance, sync);
    },
  };
  const [quiet] = useState<QuietVirtualizer>(() => {
    const instance = new Virtualizer(resolved);
    const measureElement = instance.measureElement;
    instance.measureElement = (node) => {
      measuring.current = true;
      try {
        measureElement(node);
      } finally {
        measuring.current = false;
      }
    };
    return {
      instance,
      listen: (listener) => {
        listeners.current.add(listener);
        return () => listeners.current.delete(listener);
      },
    };
  });
  quiet.instance.setOptions(resolved);
  useLayoutEffect(() => quiet.instance._didMount(), [quiet]);
  useLayoutEffect(() => quiet.instance._willUpdate());
  return quiet;
}

interface VirtualBodyProps {
  virtualizer: QuietVirtualizer;
  className: string;
  /** An item drawn (the holder's current closure: a new one draws the body again). */
  renderItem(item: VirtualItem): ReactNode;
  /** The items in view changed (their first or last index): what is in view now. */
  onRange(items: readonly VirtualItem[]): void;
  /** After each drawing, the DOM updated (its holder may look for what it waits to see drawn). */
  afterDraw?(): void;
}

/** What a `useQuietVirtualizer` has in view, drawn: rendered again on each of its changes and when its holder renders. */
export const VirtualBody = memo(function VirtualBody({ virtualizer, className, renderItem, onRange, afterDraw }: VirtualBodyProps) {
  const [, redraw] = useReducer((n: number) => n + 1, 0);
  useLayoutEffect(
    () =>
      virtualizer.listen((sync) => {
        if (sync) flushSync(redraw);
        else redraw();
      }),
    [virtualizer],
  );
  const items = virtualizer.instance.getVirtualItems();
  const first = items.length ? items[0].index : -1;
  const last = items.length ? items[items.length - 1].index : -1;
  const latest = useRef({ items, onRange });
  latest.current = { items, onRange };
  useEffect(() => latest.current.onRange(latest.current.items), [first, last, onRange]);
  useLayoutEffect(() => afterDraw?.());
  return (
    <div className={className} style={{ height: virtualizer.instance.getTotalSize() }}>
      {items.map(renderItem)}
    </div>
  );
});

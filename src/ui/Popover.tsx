import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { registerPopoverAnchor } from './modal';
import './overlay.css';

/**
 * A floating panel under (or above) `anchor`, kept inside the viewport; Escape or a click
 * outside closes it.
 */
export function Popover({
  anchor,
  onClose,
  children,
  className,
  label,
  align = 'start',
  role = 'dialog',
}: {
  anchor: HTMLElement | null;
  onClose(): void;
  children: ReactNode;
  className?: string;
  label: string;
  align?: 'start' | 'end';
  role?: 'dialog' | 'menu';
}) {
  const panel = useRef<HTMLDivElement>(null);
  const [pos, setPos] = useState<{ top: number; left: number } | null>(null);
  const close = useRef(onClose);
  close.current = onClose;

  useLayoutEffect(() => {
    const place = () => {
      const el = panel.current;
      if (!el) return;
      const box = anchor?.getBoundingClientRect() ?? { top: 80, bottom: 80, left: 16, right: 16 };
      const width = el.offsetWidth;
      const height = el.offsetHeight;
      const margin = 8;
      let left = align === 'end' ? box.right - width : box.left;
      left = Math.max(margin, Math.min(left, window.innerWidth - width - margin));
      let top = box.bottom + 4;
      if (top + height > window.innerHeight - margin && box.top - height - 4 > margin) top = box.top - height - 4;
      top = Math.max(margin, Math.min(top, window.innerHeight - height - margin));
      setPos({ top, left });
    };
    place();
    window.addEventListener('resize', place);
    return () => window.removeEventListener('resize', place);
  }, [anchor, align]);

  // A modal opened from one of its items gives the focus back to the anchor when it closes.
  useLayoutEffect(() => {
    const el = panel.current;
    if (!el) return;
    registerPopoverAnchor(el, anchor);
    return () => {
      registerPopoverAnchor(el, null);
      // Closed with the focus inside (an item chosen, a value picked): back to its anchor, as on
      // Escape, not to the page's body. A focus an action moved elsewhere stays there.
      if (anchor?.isConnected && el.contains(document.activeElement)) anchor.focus({ preventScroll: true });
    };
  }, [anchor]);

  useEffect(() => {
    const onDown = (event: MouseEvent) => {
      const target = event.target as Node;
      if (panel.current?.contains(target) || anchor?.contains(target)) return;
      close.current();
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.stopPropagation();
        close.current();
        anchor?.focus();
      }
    };
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [anchor]);

  return createPortal(
    <div
      ref={panel}
      role={role}
      aria-label={label}
      className={['popover', className].filter(Boolean).join(' ')}
      style={pos ? { top: pos.top, left: pos.left } : { top: -9999, left: -9999 }}
    >
      {children}
    </div>,
    document.body,
  );
}

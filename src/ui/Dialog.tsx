import { useEffect, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import './overlay.css';

/** Open dialogs, innermost last: Escape closes only the innermost. */
const stack: object[] = [];

/** A modal dialog over a dimmed page: Escape or a click on the backdrop closes it; focus moves in. */
export function Dialog({
  title,
  onClose,
  children,
  className,
  footer,
}: {
  title: string;
  onClose(): void;
  children: ReactNode;
  className?: string;
  footer?: ReactNode;
}) {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    const first = box.current?.querySelector<HTMLElement>('[autofocus], input, button:not([disabled])');
    first?.focus();
    const me = {};
    stack.push(me);
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && stack[stack.length - 1] === me) {
        event.stopPropagation();
        close.current();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      stack.splice(stack.indexOf(me), 1);
      previous?.focus?.();
    };
  }, []);
  return createPortal(
    <div className="dialog-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div ref={box} role="dialog" aria-modal="true" aria-label={title} className={['dialog', className].filter(Boolean).join(' ')}>
        <div className="dialog-head">
          <h2 className="dialog-title">{title}</h2>
          <button type="button" className="icon-button dialog-close" aria-label={t('dialog.close')} onClick={onClose}>
            ×
          </button>
        </div>
        <div className="dialog-body">{children}</div>
        {footer && <div className="dialog-footer">{footer}</div>}
      </div>
    </div>,
    document.body,
  );
}

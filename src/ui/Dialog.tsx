import { useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { useModal } from './modal';
import { tabbables } from './tabbable';
import './overlay.css';
import { useDocumentTitle } from '../app/documentTitle';

/**
 * A modal dialog over a dimmed page: focus moves in and stays in (Tab goes round, the page behind
 * is inert), Escape or a click on the backdrop closes it, and the focus goes back to its opener.
 */
export function Dialog({
  title,
  onClose,
  children,
  className,
  footer,
  namesScreen = false,
}: {
  title: string;
  onClose(): void;
  children: ReactNode;
  className?: string;
  footer?: ReactNode;
  /** A screen of its own (the trash, the settings): its title is the document's while it is open. */
  namesScreen?: boolean;
}) {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  useDocumentTitle(namesScreen ? title : null);
  useModal(box, {
    onEscape: onClose,
    initialFocus: (element) => tabbables(element).find((control) => control.matches('input, textarea, select')) ?? tabbables(element)[0],
  });
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

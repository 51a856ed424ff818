import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CloseIcon } from '../../ui/icons';

const MESSAGE_MS = 6000;

/** What went wrong last (a refused move or create), said for a while; `report` says it. */
export function useSidebarMessage() {
  const [message, setMessage] = useState<string | null>(null);
  const report = useCallback((text: string) => setMessage(text), []);
  const dismiss = useCallback(() => setMessage(null), []);
  useEffect(() => {
    if (!message) return;
    const timer = setTimeout(() => setMessage(null), MESSAGE_MS);
    return () => clearTimeout(timer);
  }, [message]);
  return { message, report, dismiss };
}

export function SidebarMessage({ message, onDismiss }: { message: string | null; onDismiss: () => void }) {
  const { t } = useTranslation();
  if (!message) return null;
  return (
    <div className="sidebar-message" role="alert">
      <span>{message}</span>
      <button type="button" className="icon-button sidebar-message-close" aria-label={t('sidebar.dismiss')} onClick={onDismiss}>
        <CloseIcon size={14} />
      </button>
    </div>
  );
}

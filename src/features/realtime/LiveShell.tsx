import { useTranslation } from 'react-i18next';
import { useRealtime, useRealtimeStatus } from '../../app/RealtimeProvider';
import { CloudOffIcon } from '../../ui/icons';
import { useConnectionLost } from './connectionLost';
import { useLiveInbox, useRealtimeErrors } from './liveShell';
import './realtime.css';

/**
 * «Нет соединения»: a quiet note at the bottom of the screen while the realtime connection is
 * lost (the editor keeps working and queues edits meanwhile); gone when it is back.
 */
export function ConnectionIndicator({ lost }: { lost: boolean }) {
  const { t } = useTranslation();
  // The live region stays in the page so screen readers hear the note appear.
  return (
    <div className="connection-status" role="status" aria-live="polite">
      {lost && (
        <div className="connection-lost">
          <CloudOffIcon size={16} className="connection-lost-icon" />
          <span>
            <strong>{t('realtime.offline.title')}</strong>
            <span className="connection-lost-detail"> — {t('realtime.offline.detail')}</span>
          </span>
        </div>
      )}
    </div>
  );
}

/** The realtime side of the signed-in shell: the connection note, error reports, the live inbox. */
export function LiveShell() {
  const connection = useRealtime();
  const status = useRealtimeStatus();
  const lost = useConnectionLost(connection, status);
  useRealtimeErrors(connection);
  useLiveInbox(connection);
  return <ConnectionIndicator lost={lost} />;
}

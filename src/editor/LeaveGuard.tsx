import { useContext, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { UNSAFE_DataRouterContext, useBlocker } from 'react-router-dom';
import { Button } from '../ui/Button';
import './leaveGuard.css';

/** How long a navigation waits for the edits to reach the server before it asks. */
export const SAVE_BEFORE_LEAVE_MS = 3000;

export interface LeaveGuardProps {
  /** Whether some edit has not reached the server yet. */
  unsaved(): boolean;
  /** Sends everything now; resolves when the queue is empty (or gave up for now). */
  save(): Promise<void>;
}

/**
 * Leaving a page inside the app while edits are unsent: they are sent at once, and the app
 * leaves as soon as they are saved; only when that does not happen within SAVE_BEFORE_LEAVE_MS
 * (offline, refused) does it ask, with the translated dirtyData message. (Closing the tab is
 * the browser's beforeunload dialog, whose text browsers do not let pages set.)
 * Needs a data router (src/main.tsx); elsewhere (tests with a MemoryRouter) it does nothing.
 */
export function LeaveGuard(props: LeaveGuardProps) {
  return useContext(UNSAFE_DataRouterContext) ? <Guard {...props} /> : null;
}

function Guard({ unsaved, save }: LeaveGuardProps) {
  const { t } = useTranslation('common');
  const blocker = useBlocker(({ currentLocation, nextLocation }) => currentLocation.pathname !== nextLocation.pathname && unsaved());
  const [asking, setAsking] = useState(false);

  useEffect(() => {
    if (blocker.state !== 'blocked') {
      setAsking(false);
      return;
    }
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, SAVE_BEFORE_LEAVE_MS);
    });
    void Promise.race([save(), waited]).then(() => {
      clearTimeout(timer);
      if (cancelled) return;
      if (unsaved()) setAsking(true);
      else blocker.proceed();
    });
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [blocker, save, unsaved]);

  if (blocker.state !== 'blocked' || !asking) return null;
  return (
    <div className="leave-guard-backdrop">
      <div className="leave-guard editor-panel" role="alertdialog" aria-modal="true" aria-labelledby="leave-guard-text">
        <p id="leave-guard-text">{t('dirtyData')}</p>
        <div className="leave-guard-actions">
          <Button kind="outline" onClick={() => blocker.reset()} autoFocus>
            {t('stayOnPage')}
          </Button>
          <Button tone="attention" onClick={() => blocker.proceed()}>
            {t('leavePage')}
          </Button>
        </div>
      </div>
    </div>
  );
}

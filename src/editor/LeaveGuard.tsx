import { useContext, useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { UNSAFE_DataRouterContext, useBlocker } from 'react-router-dom';
import { Button } from '../ui/Button';
import { useModal } from '../ui/modal';
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
    <LeaveQuestion
      question={t('dirtyData')}
      stay={t('stayOnPage')}
      leave={t('leavePage')}
      onStay={() => blocker.reset?.()}
      onLeave={() => blocker.proceed?.()}
    />
  );
}

/** The question, a modal over the page (focus held inside; Escape stays). */
function LeaveQuestion({ question, stay, leave, onStay, onLeave }: { question: string; stay: string; leave: string; onStay(): void; onLeave(): void }) {
  const box = useRef<HTMLDivElement>(null);
  useModal(box, { onEscape: onStay });
  return createPortal(
    <div className="leave-guard-backdrop">
      <div ref={box} className="leave-guard editor-panel" role="alertdialog" aria-modal="true" aria-labelledby="leave-guard-text">
        <p id="leave-guard-text">{question}</p>
        <div className="leave-guard-actions">
          <Button kind="outline" onClick={onStay} autoFocus>
            {stay}
          </Button>
          <Button tone="attention" onClick={onLeave}>
            {leave}
          </Button>
        </div>
      </div>
    </div>,
    document.body,
  );
}

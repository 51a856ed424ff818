import { useCallback, useEffect, useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { Editor, Range, Transforms, type BaseRange, type Path, type RangeRef } from 'slate';
import { ReactEditor, useSlate } from 'slate-react';
import type { AiAction } from '../../../schema/ai';
import type { BlockElement } from '../../../schema/slate';
import { noteAiModelMissing, useAiInstallation } from '../../app/appConfig';
import { useRealtime } from '../../app/RealtimeProvider';
import { startAiCall, type AiConnection } from './aiClient';
import { blockIndex, insertAiResult } from './aiInsert';
import { AiPanel, type AiPanelHandle } from './AiPanel';
import { nextPhase, type AiPhase, type AiPhaseEvent } from './aiState';
import { contextAround, continueInput, improvedRange, improveInput, tooLong } from './aiText';

/** One use of the assistant: what it does, where, and its state. Editor-only (never in the document or the undo history). */
interface AiSession {
  /** Told apart from the session before it (late answers of a cancelled call are ignored). */
  key: number;
  action: AiAction;
  /** The block the panel sits under (improve: the last block of the selection). */
  anchorUid: string;
  /** improve: the selection, kept up to date through edits. */
  range: RangeRef | null;
  /** generate: the instruction. */
  prompt: string;
  phase: AiPhase;
}

export interface AiAssistantControl {
  /** «Написать с ИИ» / «Продолжить текст» at a block (the slash menu's AI group). */
  start(action: 'generate' | 'continue', path: Path): void;
  /** «Улучшить с ИИ» for a selection (the floating toolbar). */
  improve(selection: BaseRange): void;
  /** Escape in the editor closes the panel; true when handled. */
  handleKey(event: { key: string }): boolean;
  /** The panel (or nothing), to render inside <Slate>, in the editor's frame. */
  panel: ReactNode;
}

type Input = { text: string; context: string } | { fail: AiPhaseEvent };

/** What a call of the session sends, read from the document now (a retry reads it again). */
function inputOf(editor: Editor, session: AiSession): Input | null {
  const index = blockIndex(editor, session.anchorUid);
  if (index < 0) return null;
  if (session.action === 'generate') return { text: session.prompt, context: contextAround(editor, index) };
  if (session.action === 'continue') {
    const input = continueInput(editor, index);
    if (input.text.trim() === '') return { fail: { type: 'fail', reason: 'unknownError', message: 'nothing to continue', hint: 'nothingToContinue' } };
    return input;
  }
  const range = session.range?.current;
  if (!range) return null;
  const input = improveInput(editor, range);
  if (input.text.trim() === '') return { fail: { type: 'fail', reason: 'emptyChangeError', message: 'nothing to change' } };
  if (tooLong(input.text)) return { fail: { type: 'fail', reason: 'unknownError', message: 'too long', hint: 'tooLong' } };
  return input;
}

let sessions = 0;

/**
 * The AI assistant of an editor (issue 7): opened from the slash menu or the selection toolbar,
 * it calls the server over the realtime connection (aiClient.ts) and shows the panel under the
 * block; an accepted result goes in as ordinary blocks, one undo step (aiInsert.ts).
 */
export function useAiAssistant(editor: Editor, enabled: boolean, frame: RefObject<HTMLElement | null>): AiAssistantControl {
  const connection = useRealtime();
  const connectionRef = useRef<AiConnection | null>(connection);
  connectionRef.current = connection;
  // The server's timeout (GET /api/config): the client waits that long and a margin more.
  const installation = useAiInstallation();
  const serverTimeoutMs = useRef(installation.timeoutMs);
  serverTimeoutMs.current = installation.timeoutMs;
  const [session, setSession] = useState<AiSession | null>(null);
  const current = useRef<AiSession | null>(null);
  current.current = session;
  const cancelCall = useRef<(() => void) | null>(null);

  const update = useCallback((key: number, event: AiPhaseEvent) => {
    setSession((s) => (s && s.key === key ? { ...s, phase: nextPhase(s.phase, event) } : s));
  }, []);

  const run = useCallback(
    (s: AiSession) => {
      cancelCall.current?.();
      cancelCall.current = null;
      const input = inputOf(editor, s);
      if (!input) {
        setSession(null);
        return;
      }
      if ('fail' in input) {
        update(s.key, input.fail);
        return;
      }
      update(s.key, { type: 'send' });
      cancelCall.current = startAiCall(
        connectionRef.current,
        s.action,
        input,
        {
          onDelta: (_delta, text) => update(s.key, { type: 'delta', text }),
          onResult: (text) => update(s.key, { type: 'result', text }),
          onError: (failure) => {
            // The server has no model after all (its configuration changed since the page loaded): the menus follow.
            if (failure.hint === 'notConfigured') noteAiModelMissing();
            update(s.key, { type: 'fail', ...failure });
          },
        },
        { serverTimeoutMs: serverTimeoutMs.current },
      );
    },
    [editor, update],
  );

  const open = useCallback(
    (next: AiSession) => {
      cancelCall.current?.();
      cancelCall.current = null;
      current.current?.range?.unref();
      current.current = next;
      setSession(next);
      if (next.phase.status !== 'rest') run(next);
    },
    [run],
  );

  /** Closes the panel; `restore`: the caret goes back where the assistant was opened (the selection, for improve). */
  const close = useCallback(
    (restore: boolean) => {
      cancelCall.current?.();
      cancelCall.current = null;
      const s = current.current;
      current.current = null;
      setSession(null);
      if (!s) return;
      const range = s.range?.unref() ?? null;
      if (!restore) return;
      try {
        const index = blockIndex(editor, s.anchorUid);
        if (range) Transforms.select(editor, range);
        else if (index > 0) Transforms.select(editor, Editor.end(editor, [index]));
        ReactEditor.focus(editor as ReactEditor);
      } catch {
        // The editor is gone or the place is: nothing to go back to.
      }
    },
    [editor],
  );

  useEffect(
    () => () => {
      cancelCall.current?.();
      current.current?.range?.unref();
    },
    [],
  );

  const start = useCallback(
    (action: 'generate' | 'continue', path: Path) => {
      const block = editor.children[path[0]] as BlockElement | undefined;
      if (!enabled || !block) return;
      open({
        key: ++sessions,
        action,
        anchorUid: block.uid,
        range: null,
        prompt: '',
        phase: action === 'generate' ? { status: 'rest' } : { status: 'pending', reason: 'sending', text: '' },
      });
    },
    [editor, enabled, open],
  );

  const improve = useCallback(
    (selection: BaseRange) => {
      if (!enabled || Range.isCollapsed(selection)) return;
      const end = Range.end(selection);
      const block = editor.children[end.path[0]] as BlockElement | undefined;
      if (!block || end.path[0] < 1) return;
      const range = Editor.rangeRef(editor, selection, { affinity: 'inward' });
      // The selection is drawn by the panel's highlight; the toolbar over it goes.
      Transforms.collapse(editor, { edge: 'end' });
      open({ key: ++sessions, action: 'improve', anchorUid: block.uid, range, prompt: '', phase: { status: 'pending', reason: 'sending', text: '' } });
    },
    [editor, enabled, open],
  );

  const handleKey = (event: { key: string }): boolean => {
    if (!current.current || event.key !== 'Escape') return false;
    close(true);
    return true;
  };

  const accept = (mode: 'below' | 'replace') => {
    const s = current.current;
    if (!s || s.phase.status !== 'result') return;
    const range = s.range?.current ?? null;
    const done = insertAiResult(editor, s.phase.text, mode === 'replace' && range ? { mode: 'replace', range } : { mode: 'below', uid: s.anchorUid });
    close(false);
    if (done) ReactEditor.focus(editor as ReactEditor);
  };

  const panel = session ? (
    <AiLayer
      key={session.key}
      session={session}
      frame={frame}
      onGone={() => close(false)}
      onSubmitPrompt={(prompt) => {
        const next = { ...session, prompt };
        current.current = next;
        setSession(next);
        run(next);
      }}
      onInsert={() => accept('below')}
      onReplace={session.action === 'improve' ? () => accept('replace') : undefined}
      onRetry={() => {
        const s = current.current;
        if (s) run(s);
      }}
      onClose={() => close(true)}
    />
  ) : null;

  return { start, improve, handleKey, panel };
}

interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}
interface Place {
  top: number;
  left: number;
  width: number;
}

/** Narrower than this, the panel takes the frame's width (phones). */
const MIN_PANEL_WIDTH = 340;

interface AiLayerProps {
  session: AiSession;
  frame: RefObject<HTMLElement | null>;
  onGone(): void;
  onSubmitPrompt(prompt: string): void;
  onInsert(): void;
  onReplace?(): void;
  onRetry(): void;
  onClose(): void;
}

/**
 * The panel placed under its block inside the editor's frame (it scrolls with the page), and the
 * improved selection drawn as a highlight. Placed again after every change of the document
 * (useSlate re-renders it) and when the frame changes size.
 */
function AiLayer({ session, frame, onGone, ...actions }: AiLayerProps) {
  const editor = useSlate();
  const [place, setPlace] = useState<Place | null>(null);
  const [boxes, setBoxes] = useState<Box[]>([]);
  const panel = useRef<AiPanelHandle>(null);
  const gone = useRef(onGone);
  gone.current = onGone;

  const measure = useCallback(() => {
    const root = frame.current;
    if (!root) return;
    if (blockIndex(editor, session.anchorUid) < 0) {
      gone.current();
      return;
    }
    const element = root.querySelector(`[data-block-id="${CSS.escape(session.anchorUid)}"]`);
    const editable = root.querySelector<HTMLElement>('[data-slate-editor]');
    if (!element || !editable) return;
    const origin = root.getBoundingClientRect();
    const rect = element.getBoundingClientRect();
    const column = editable.getBoundingClientRect();
    const style = getComputedStyle(editable);
    let left = column.left - origin.left + (parseFloat(style.paddingLeft) || 0);
    let width = column.width - (parseFloat(style.paddingLeft) || 0) - (parseFloat(style.paddingRight) || 0);
    if (width < MIN_PANEL_WIDTH) {
      left = 8;
      width = Math.max(0, origin.width - 16);
    }
    const next = { top: Math.round(rect.bottom - origin.top + 6), left: Math.round(left), width: Math.round(width) };
    setPlace((previous) => (previous && previous.top === next.top && previous.left === next.left && previous.width === next.width ? previous : next));
    // What «Заменить» will replace: across blocks, the whole blocks (aiText.ts).
    const range = session.range?.current ? improvedRange(editor, session.range.current) : null;
    let drawn: Box[] = [];
    if (range && !Range.isCollapsed(range)) {
      try {
        const dom = ReactEditor.toDOMRange(editor as ReactEditor, range);
        drawn = [...dom.getClientRects()]
          .filter((r) => r.width > 0 && r.height > 0)
          .map((r) => ({
            left: Math.round(r.left - origin.left),
            top: Math.round(r.top - origin.top),
            width: Math.round(r.width),
            height: Math.round(r.height),
          }));
      } catch {
        drawn = [];
      }
    }
    setBoxes((previous) => (JSON.stringify(previous) === JSON.stringify(drawn) ? previous : drawn));
  }, [editor, frame, session.anchorUid, session.range]);

  // After every render (the document or the state changed).
  useLayoutEffect(() => {
    measure();
  });

  useEffect(() => {
    const root = frame.current;
    if (!root || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => measure());
    observer.observe(root);
    window.addEventListener('resize', measure);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', measure);
    };
  }, [frame, measure]);

  // Opened: the focus goes to the panel, which comes into view.
  const placed = place !== null;
  useEffect(() => {
    if (!placed) return;
    // The editor lets go first: Slate, still counting itself focused (a blur while it moves its own
    // selection is ignored), would put the DOM selection — and with it the focus — back on its next render.
    if (ReactEditor.isFocused(editor as ReactEditor)) ReactEditor.blur(editor as ReactEditor);
    panel.current?.focus();
    panel.current?.element?.scrollIntoView?.({ block: 'nearest' });
  }, [placed, editor]);

  // The result or the error: in view too (the text may have grown past the screen's end).
  const status = session.phase.status;
  useEffect(() => {
    if (status === 'result' || status === 'error') panel.current?.element?.scrollIntoView?.({ block: 'nearest' });
  }, [status]);

  if (!place) return null;
  return (
    <>
      {boxes.length > 0 ? (
        <div className="ai-highlight-layer" aria-hidden>
          {boxes.map((box, i) => (
            <div key={i} className="ai-highlight" style={box} />
          ))}
        </div>
      ) : null}
      <AiPanel
        ref={panel}
        action={session.action}
        phase={session.phase}
        prompt={session.prompt}
        style={{ top: place.top, left: place.left, width: place.width }}
        {...actions}
      />
    </>
  );
}

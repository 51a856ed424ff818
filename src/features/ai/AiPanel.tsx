import { forwardRef, useEffect, useImperativeHandle, useRef, useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { AI_LIMITS, type AiAction } from '../../../schema/ai';
import { CloseIcon, SparklesIcon } from '../../ui/icons';
import { AiPreview } from './AiPreview';
import type { AiPhase } from './aiState';
import './ai.css';

export interface AiPanelProps {
  action: AiAction;
  phase: AiPhase;
  /** generate: the instruction given (shown over its result). */
  prompt: string;
  onSubmitPrompt(prompt: string): void;
  /** «Вставить ниже». */
  onInsert(): void;
  /** «Заменить» (improve: the selection). */
  onReplace?(): void;
  /** «Попробовать ещё раз». */
  onRetry(): void;
  /** «Отменить», Escape. */
  onClose(): void;
  style?: CSSProperties;
}

export interface AiPanelHandle {
  /** Moves the focus into the panel (the prompt, the main button, or the panel itself). */
  focus(): void;
  element: HTMLDivElement | null;
}

/** The text of an error: the reason in Russian (or what the panel found itself). */
export function useAiErrorText(phase: AiPhase): string {
  const { t } = useTranslation('common');
  if (phase.status !== 'error') return '';
  if (phase.hint === 'tooLong') return t('ai.errors.tooLong', { max: AI_LIMITS.text.toLocaleString('ru') });
  if (phase.hint) return t(`ai.errors.${phase.hint}`);
  if (phase.reason === 'rateLimitError' && phase.retryAfter) return t('ai.errors.rateLimitErrorWait', { seconds: phase.retryAfter });
  return t(`ai.errors.${phase.reason}`);
}

/**
 * The assistant's panel under the block it acts on: rest (the prompt of «Написать с ИИ»),
 * pending — sending, then receiving with the text as it arrives —, the result with its actions,
 * or the error with its reason. Escape closes it; the focus moves to what there is to do next.
 */
export const AiPanel = forwardRef<AiPanelHandle, AiPanelProps>(function AiPanel(
  { action, phase, prompt, onSubmitPrompt, onInsert, onReplace, onRetry, onClose, style },
  ref,
) {
  const { t } = useTranslation('common');
  const [draft, setDraft] = useState(prompt);
  const root = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const primary = useRef<HTMLButtonElement>(null);
  const preview = useRef<HTMLDivElement>(null);
  const errorText = useAiErrorText(phase);

  const focus = () => {
    if (input.current) input.current.focus({ preventScroll: true });
    else if (primary.current) primary.current.focus({ preventScroll: true });
    else root.current?.focus({ preventScroll: true });
  };
  useImperativeHandle(ref, () => ({ focus, element: root.current }));

  // A new state: the focus follows when it was in the panel (never taken from the editor).
  useEffect(() => {
    const active = document.activeElement;
    if (!root.current || (active && active !== document.body && !root.current.contains(active))) return;
    focus();
  }, [phase.status]);

  // While the text streams in, its end stays in view (unless the reader scrolled up).
  const text = phase.status === 'pending' || phase.status === 'result' ? phase.text : '';
  useEffect(() => {
    const box = preview.current;
    if (!box || phase.status !== 'pending') return;
    if (box.scrollHeight - box.scrollTop - box.clientHeight < 48) box.scrollTop = box.scrollHeight;
  }, [text, phase.status]);

  const status =
    phase.status === 'pending'
      ? t(`ai.status.${phase.reason}`)
      : phase.status === 'result'
        ? t('ai.status.result')
        : phase.status === 'error'
          ? t('ai.status.error')
          : null;

  return (
    <div
      ref={root}
      className={`ai-panel editor-panel is-${phase.status}${phase.status === 'pending' ? ` is-${phase.reason}` : ''}`}
      style={style}
      role="dialog"
      aria-label={t(`ai.title.${action}`)}
      tabIndex={-1}
      data-ai-action={action}
      data-ai-status={phase.status === 'pending' ? `pending-${phase.reason}` : phase.status}
      onMouseDown={(event) => event.stopPropagation()}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault();
          event.stopPropagation();
          onClose();
        }
      }}
    >
      <div className="ai-panel-head">
        <SparklesIcon size={16} className="ai-panel-icon" />
        <span className="ai-panel-title">{t(`ai.title.${action}`)}</span>
        {status ? (
          <span className="ai-panel-status" role="status">
            {phase.status === 'pending' ? <span className="ai-panel-dots" aria-hidden /> : null}
            {status}
          </span>
        ) : null}
        <button
          type="button"
          className="button button-xxs button-flat ai-panel-close"
          aria-label={t('ai.actions.close')}
          title={t('ai.actions.close')}
          onClick={onClose}
        >
          <CloseIcon size={14} />
        </button>
      </div>

      {action === 'generate' && phase.status !== 'rest' && prompt ? <div className="ai-panel-prompt">{prompt}</div> : null}

      {phase.status === 'rest' ? (
        <form
          className="ai-panel-form"
          onSubmit={(event) => {
            event.preventDefault();
            if (draft.trim() !== '') onSubmitPrompt(draft.trim());
          }}
        >
          <input
            ref={input}
            className="ai-panel-input input-compact"
            type="text"
            value={draft}
            maxLength={2000}
            placeholder={t('ai.prompt.placeholder')}
            aria-label={t('ai.prompt.label')}
            onChange={(event) => setDraft(event.target.value)}
          />
          <button type="submit" className="button button-s button-solid" disabled={draft.trim() === ''}>
            {t('ai.prompt.submit')}
          </button>
        </form>
      ) : null}

      {phase.status === 'pending' && phase.reason === 'sending' ? (
        <div className="ai-panel-skeleton" aria-hidden>
          <span />
          <span />
        </div>
      ) : null}

      {(phase.status === 'pending' && phase.reason === 'receiving') || phase.status === 'result' ? (
        <div className="ai-panel-text" ref={preview} aria-live="polite" aria-busy={phase.status === 'pending'}>
          <AiPreview text={text} streaming={phase.status === 'pending'} />
        </div>
      ) : null}

      {phase.status === 'error' ? (
        <div className="ai-panel-error" role="alert" data-reason={phase.reason}>
          {errorText}
        </div>
      ) : null}

      {phase.status !== 'rest' ? (
        <div className="ai-panel-actions">
          {phase.status === 'result' ? (
            <>
              <button ref={primary} type="button" className="button button-s button-solid" onClick={onInsert}>
                {t('ai.actions.insert')}
              </button>
              {onReplace ? (
                <button type="button" className="button button-s button-outline" onClick={onReplace}>
                  {t('ai.actions.replace')}
                </button>
              ) : null}
              <button type="button" className="button button-s button-flat" onClick={onRetry}>
                {t('ai.actions.retry')}
              </button>
            </>
          ) : null}
          {phase.status === 'error' ? (
            <button ref={primary} type="button" className="button button-s button-outline" onClick={onRetry}>
              {t('ai.actions.retry')}
            </button>
          ) : null}
          <button type="button" className="button button-s button-flat ai-panel-discard" onClick={onClose}>
            {t('ai.actions.discard')}
          </button>
        </div>
      ) : null}
    </div>
  );
});

import { fireEvent, render, screen } from '@testing-library/react';
import '../../app/i18n';
import { AI_ERROR_REASONS, type AiAction } from '../../../schema/ai';
import { AiPanel, type AiPanelProps } from './AiPanel';
import type { AiPhase } from './aiState';

/*
 * The panel in each of its states: what it shows and offers, in Russian, and its keys.
 */

function panel(action: AiAction, phase: AiPhase, extra: Partial<AiPanelProps> = {}) {
  const calls: string[] = [];
  const props: AiPanelProps = {
    action,
    phase,
    prompt: '',
    onSubmitPrompt: (prompt) => calls.push(`submit:${prompt}`),
    onInsert: () => calls.push('insert'),
    onRetry: () => calls.push('retry'),
    onClose: () => calls.push('close'),
    ...(action === 'improve' ? { onReplace: () => calls.push('replace') } : {}),
    ...extra,
  };
  const view = render(<AiPanel {...props} />);
  return { calls, view, rerender: (next: AiPhase) => view.rerender(<AiPanel {...props} phase={next} />) };
}

const buttons = () => screen.queryAllByRole('button').map((b) => b.textContent || b.getAttribute('aria-label'));

test('rest (generate): a prompt; «Написать» sends it, only when there is one', () => {
  const { calls } = panel('generate', { status: 'rest' });
  const dialog = screen.getByRole('dialog', { name: 'Написать с ИИ' });
  expect(dialog.dataset.aiStatus).toBe('rest');
  const submit = screen.getByRole('button', { name: 'Написать' }) as HTMLButtonElement;
  expect(submit.disabled).toBe(true);
  fireEvent.change(screen.getByRole('textbox', { name: 'Что написать?' }), { target: { value: '  план встречи ' } });
  expect(submit.disabled).toBe(false);
  fireEvent.submit(submit.closest('form')!);
  expect(calls).toEqual(['submit:план встречи']);
});

test('pending: sending, then receiving with the text so far; «Отменить» stops it', () => {
  const { calls, rerender } = panel('continue', { status: 'pending', reason: 'sending', text: '' });
  const dialog = screen.getByRole('dialog', { name: 'Продолжить текст' });
  expect(dialog.dataset.aiStatus).toBe('pending-sending');
  expect(screen.getByRole('status').textContent).toBe('Отправляю запрос…');
  expect(buttons()).toEqual(['Закрыть', 'Отменить']);

  rerender({ status: 'pending', reason: 'receiving', text: 'Первая фраза, **вторая**' });
  expect(dialog.dataset.aiStatus).toBe('pending-receiving');
  expect(screen.getByRole('status').textContent).toBe('Пишу…');
  expect(dialog.querySelector('.ai-preview')?.textContent).toBe('Первая фраза, вторая');
  expect(dialog.querySelector('.ai-preview strong')?.textContent).toBe('вторая');
  fireEvent.click(screen.getByRole('button', { name: 'Отменить' }));
  expect(calls).toEqual(['close']);
});

test('result: the text as blocks, and insert below / try again / discard (replace for improve)', () => {
  const { calls } = panel('continue', { status: 'result', text: '## Итог\n\n1. раз\n2. два' });
  const dialog = screen.getByRole('dialog');
  expect([...dialog.querySelectorAll('.ai-preview > *')].map((e) => e.textContent)).toEqual(['Итог', '1.раз', '2.два']);
  expect(buttons()).toEqual(['Закрыть', 'Вставить ниже', 'Попробовать ещё раз', 'Отменить']);
  fireEvent.click(screen.getByRole('button', { name: 'Вставить ниже' }));
  fireEvent.click(screen.getByRole('button', { name: 'Попробовать ещё раз' }));
  expect(calls).toEqual(['insert', 'retry']);
  // Escape closes.
  fireEvent.keyDown(dialog, { key: 'Escape' });
  expect(calls).toEqual(['insert', 'retry', 'close']);
});

test('result of improve offers «Заменить»', () => {
  const { calls } = panel('improve', { status: 'result', text: 'Исправленный текст.' });
  expect(buttons()).toEqual(['Закрыть', 'Вставить ниже', 'Заменить', 'Попробовать ещё раз', 'Отменить']);
  fireEvent.click(screen.getByRole('button', { name: 'Заменить' }));
  expect(calls).toEqual(['replace']);
});

test('every error reason is explained in Russian, with «Попробовать ещё раз»', () => {
  const seen = new Set<string>();
  for (const reason of AI_ERROR_REASONS) {
    const { view, calls } = panel('improve', { status: 'error', reason, message: 'x' });
    const alert = screen.getByRole('alert');
    expect(alert.dataset.reason).toBe(reason);
    expect(alert.textContent).toMatch(/[а-яё]/i);
    expect(alert.textContent).not.toMatch(/ai\.errors/);
    seen.add(alert.textContent!);
    fireEvent.click(screen.getByRole('button', { name: 'Попробовать ещё раз' }));
    expect(calls).toEqual(['retry']);
    view.unmount();
  }
  // Each reason has its own words.
  expect(seen.size).toBe(AI_ERROR_REASONS.length);
  panel('improve', { status: 'error', reason: 'emptyChangeError', message: 'nothing to change' });
  expect(screen.getByRole('alert').textContent).toBe('Нечего улучшать');
});

test('a rate limit with Retry-After says how long to wait; hints replace the reason', () => {
  const first = panel('generate', { status: 'error', reason: 'rateLimitError', message: 'Rate limit exceeded', retryAfter: 42 });
  expect(screen.getByRole('alert').textContent).toBe('Слишком много запросов к ИИ. Попробуйте через 42 с.');
  first.view.unmount();
  // Without the wait: the general words.
  const unknownWait = panel('generate', { status: 'error', reason: 'rateLimitError', message: 'Rate limit exceeded' });
  expect(screen.getByRole('alert').textContent).toBe('Слишком много запросов к ИИ. Подождите немного и попробуйте ещё раз.');
  unknownWait.view.unmount();
  // No model on the server (503 ai.not_configured): the administrator must connect one.
  const second = panel('continue', { status: 'error', reason: 'unknownError', message: 'no model', hint: 'notConfigured' });
  expect(screen.getByRole('alert').textContent).toMatch(/^Модель ИИ не подключена.*администратор должен подключить модель.*AI_BASE_URL/);
  second.view.unmount();
  panel('improve', { status: 'error', reason: 'unknownError', message: 'too long', hint: 'tooLong' });
  expect(screen.getByRole('alert').textContent).toMatch(/не больше 20\s000 символов/);
});

import { render } from '@testing-library/react';
import { useRef } from 'react';
import { historyActionOf, stopUnsupportedHistory, useHistoryInput } from './historyInput';

/*
 * The browser's history actions (spec §8): undo and redo are done by the app's histories; a
 * history action type the app does not support is sent to error reporting (`history`), not
 * swallowed silently and not shown to the person.
 */

let lines: { level: string; line: string; details: unknown }[];
beforeEach(() => {
  lines = [];
  for (const level of ['error', 'warn', 'info'] as const) {
    jest.spyOn(console, level).mockImplementation((...[line, details]: unknown[]) => void lines.push({ level, line: String(line), details }));
  }
});
afterEach(() => jest.restoreAllMocks());

const beforeInput = (inputType: string) => new InputEvent('beforeinput', { inputType, bubbles: true, cancelable: true });

test('historyUndo and historyRedo are undo and redo; typing is no history action; nothing of it is reported', () => {
  expect(historyActionOf('historyUndo')).toBe('undo');
  expect(historyActionOf('historyRedo')).toBe('redo');
  expect(historyActionOf('insertText')).toBeNull();
  expect(historyActionOf('deleteContentBackward')).toBeNull();
  expect(lines).toEqual([]);
});

test('any other history action type is reported as an error and does nothing', () => {
  expect(historyActionOf('historyRevert')).toBeNull();
  expect(lines).toEqual([{ level: 'error', line: 'history: unsupported history action type «historyRevert»', details: { inputType: 'historyRevert' } }]);
});

test('the editor: an unsupported history action is reported and stopped (handled); the rest is left to Slate', () => {
  const unsupported = beforeInput('historyRevert');
  expect(stopUnsupportedHistory(unsupported)).toBe(true);
  expect(unsupported.defaultPrevented).toBe(true);
  for (const type of ['historyUndo', 'historyRedo', 'insertText']) {
    const event = beforeInput(type);
    expect(stopUnsupportedHistory(event)).toBe(false);
    expect(event.defaultPrevented).toBe(false);
  }
  expect(lines.map((l) => l.line)).toEqual(['history: unsupported history action type «historyRevert»']);
});

test('a field standing for a history: the browser’s undo and redo do the history’s, never the field’s own', () => {
  const done: string[] = [];
  function Grid({ tag }: { tag: string }) {
    const sink = useRef<HTMLTextAreaElement>(null);
    // New functions each render (as the table's are): the latest are the ones called.
    useHistoryInput(sink, { undo: () => void done.push(`undo ${tag}`), redo: () => void done.push(`redo ${tag}`) });
    return <textarea ref={sink} aria-label="grid" />;
  }
  const { getByLabelText, rerender, unmount } = render(<Grid tag="a" />);
  const field = getByLabelText('grid');
  const undo = beforeInput('historyUndo');
  field.dispatchEvent(undo);
  expect(undo.defaultPrevented).toBe(true);
  rerender(<Grid tag="b" />);
  field.dispatchEvent(beforeInput('historyRedo'));
  const typing = beforeInput('insertText');
  field.dispatchEvent(typing);
  expect(typing.defaultPrevented).toBe(false);
  const unsupported = beforeInput('historyRevert');
  field.dispatchEvent(unsupported);
  expect(unsupported.defaultPrevented).toBe(true);
  expect(done).toEqual(['undo a', 'redo b']);
  expect(lines.map((l) => l.line)).toEqual(['history: unsupported history action type «historyRevert»']);
  unmount();
  field.dispatchEvent(beforeInput('historyUndo'));
  expect(done).toHaveLength(2);
});

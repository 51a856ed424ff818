import type { KeyboardEvent, PointerEvent } from 'react';
import { useReadOnly, type RenderElementProps } from 'slate-react';
import { blockRootProps, editorT, Icon, isEmptyBlock, stopKeys, useSetBlockFields, type BlockIcons, type BlockViews } from '../../../src/editor/blockView';
import { clampPercent, type ProgressElement } from './block';
import './progress.css';

/** Arrow keys move the bar by a tenth; with Shift, by one percent. */
const STEP = 10;
const FINE_STEP = 1;

/**
 * A progress bar: a slider (mouse: click or drag along it; keys: ←/→, Shift for single percents,
 * Home/End) and the block's own text after it. A reader sees the bar and cannot move it.
 */
export function ProgressView({ element, attributes, children }: RenderElementProps) {
  const readOnly = useReadOnly();
  const progress = element as ProgressElement;
  const setFields = useSetBlockFields(progress);
  const value = clampPercent(progress.value ?? 0);
  const set = (next: number) => {
    const percent = clampPercent(next);
    if (!readOnly && percent !== value) setFields({ value: percent });
  };
  const fromPointer = (event: PointerEvent<HTMLDivElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    if (box.width > 0) set(((event.clientX - box.left) / box.width) * 100);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = event.shiftKey ? FINE_STEP : STEP;
    const next = { ArrowRight: value + step, ArrowUp: value + step, ArrowLeft: value - step, ArrowDown: value - step, Home: 0, End: 100 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    stopKeys(event);
    set(next);
  };
  return (
    <div {...attributes} {...blockRootProps(element, 'block-progress')}>
      <div className="progress-control" contentEditable={false}>
        <div
          className="progress-track"
          role="slider"
          tabIndex={readOnly ? -1 : 0}
          aria-label={editorT('progress.label')}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={value}
          aria-valuetext={`${value} %`}
          aria-readonly={readOnly || undefined}
          onKeyDown={onKeyDown}
          onPointerDown={(event) => {
            if (readOnly) return;
            event.preventDefault();
            event.currentTarget.setPointerCapture?.(event.pointerId);
            fromPointer(event);
          }}
          onPointerMove={(event) => {
            if (!readOnly && event.currentTarget.hasPointerCapture?.(event.pointerId)) fromPointer(event);
          }}
        >
          <div className="progress-fill" style={{ width: `${value}%` }} />
        </div>
        <span className="progress-value">{value} %</span>
      </div>
      <div className="progress-text" data-placeholder={isEmptyBlock(element) ? editorT('progress.placeholder') : undefined}>
        {children}
      </div>
    </div>
  );
}

export const blockViews: BlockViews = { progressBlock: ProgressView };

/** Its picture in the slash menu: a bar two thirds full. */
export const blockIcons: BlockIcons = {
  progress: () => (
    <Icon>
      <rect x="3" y="9" width="18" height="6" rx="3" />
      <path d="M6 12h7" strokeWidth={3} />
    </Icon>
  ),
};

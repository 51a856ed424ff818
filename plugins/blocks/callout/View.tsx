import { useEffect, useRef, useState } from 'react';
import { Transforms } from 'slate';
import { ReactEditor, useReadOnly, useSlateStatic, type RenderElementProps } from 'slate-react';
import { CALLOUT_ICONS, DEFAULT_CALLOUT_ICON } from './block';
import type { CalloutElement } from '../../../schema/slate';
import './callout.css';
import { blockRootProps, editorT, isEmptyBlock, type BlockViews } from '../../../src/editor/blockView';

/** A callout: a tinted box with an icon (a button that opens a small emoji picker) and text. */
export function CalloutView({ element, attributes, children }: RenderElementProps) {
  const editor = useSlateStatic();
  const readOnly = useReadOnly();
  const [open, setOpen] = useState(false);
  const wrap = useRef<HTMLSpanElement>(null);
  const icon = (element.type === 'calloutBlock' && element.icon) || DEFAULT_CALLOUT_ICON;

  useEffect(() => {
    if (!open) return;
    const close = (event: MouseEvent) => {
      if (!wrap.current?.contains(event.target as globalThis.Node)) setOpen(false);
    };
    document.addEventListener('mousedown', close);
    return () => document.removeEventListener('mousedown', close);
  }, [open]);

  const choose = (next: string) => {
    setOpen(false);
    Transforms.setNodes<CalloutElement>(editor, { icon: next }, { at: ReactEditor.findPath(editor, element) });
  };

  return (
    <div {...attributes} {...blockRootProps(element, 'block-callout')}>
      <span className="callout-icon-wrap" contentEditable={false} ref={wrap}>
        <button
          type="button"
          className="callout-icon"
          aria-label={editorT('calloutIconLabel')}
          aria-haspopup="true"
          aria-expanded={open}
          disabled={readOnly}
          onClick={() => setOpen((o) => !o)}
        >
          {icon}
        </button>
        {open && (
          <div
            className="callout-picker"
            role="group"
            aria-label={editorT('calloutIconPicker')}
            onKeyDown={(event) => {
              if (event.key === 'Escape') {
                event.stopPropagation();
                setOpen(false);
              }
            }}
          >
            {CALLOUT_ICONS.map((option) => (
              <button
                key={option}
                type="button"
                className={option === icon ? 'is-current' : undefined}
                aria-pressed={option === icon}
                onClick={() => choose(option)}
              >
                {option}
              </button>
            ))}
          </div>
        )}
      </span>
      <div className="callout-content" data-placeholder={isEmptyBlock(element) ? editorT('calloutPlaceholder') : undefined}>
        {children}
      </div>
    </div>
  );
}

export const blockViews: BlockViews = { calloutBlock: CalloutView };

import { useRef, useState, type CSSProperties, type DragEvent, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react';
import { Transforms, type Node } from 'slate';
import { ReactEditor, useSlateStatic } from 'slate-react';
import { BLOCK_ALIGNS, MAX_SCALE, MIN_SCALE, clampScale, type BlockAlign } from '../../../plugins/blocks/image/block';
import type { BlockElement } from '../../../schema/slate';
import { clearUploadState, isImageFile, startUpload, useUploadState } from '../upload';
import './media.css';
import { editorT } from './textBlockParts';

/** Sets fields of a block element, found by the element itself (the view's props). */
export function useSetBlockFields(element: BlockElement) {
  const editor = useSlateStatic();
  return (fields: Record<string, unknown>) => {
    const path = ReactEditor.findPath(editor, element);
    Transforms.setNodes<Node>(editor, fields as Partial<Node>, { at: path });
  };
}

/** Keys typed in a block's own controls stay there (the editor must not treat them as typing). */
export function stopKeys(event: KeyboardEvent) {
  event.stopPropagation();
}

/**
 * The empty state of an image or file block: a file input and a drop zone; while a file uploads,
 * its name and a progress bar with percent; after a failure, why, with the panel to try again.
 */
export function UploadPanel({ element, kind, readOnly }: { element: BlockElement; kind: 'image' | 'file'; readOnly: boolean }) {
  const editor = useSlateStatic();
  const upload = useUploadState(element.uid);
  const [dragOver, setDragOver] = useState(false);
  const [wrongType, setWrongType] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);

  const take = (file: File | undefined) => {
    if (!file) return;
    if (kind === 'image' && !isImageFile(file)) {
      setWrongType(true);
      return;
    }
    setWrongType(false);
    void startUpload(editor, element.uid, file);
  };

  if (upload?.status === 'uploading') {
    const percent = Math.round(upload.progress * 100);
    return (
      <div className="media-panel media-panel-uploading" contentEditable={false}>
        <div className="media-panel-title">{editorT('media.uploading', { name: upload.fileName })}</div>
        <div className="media-progress" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} aria-label={editorT('media.progress')}>
          <div className="media-progress-bar" style={{ width: `${percent}%` }} />
        </div>
        <div className="media-panel-hint">{percent}%</div>
      </div>
    );
  }

  const onDrop = (event: DragEvent) => {
    // The drop is ours: Slate must not insert the file as content.
    event.preventDefault();
    event.stopPropagation();
    setDragOver(false);
    if (!readOnly) take(event.dataTransfer.files[0]);
  };
  const onDragOver = (event: DragEvent) => {
    event.preventDefault();
    event.stopPropagation();
    if (!readOnly) setDragOver(true);
  };

  const error =
    upload?.status === 'failed' ? editorT(`media.errors.${upload.error}`, { name: upload.fileName }) : wrongType ? editorT('media.errors.notAnImage') : null;
  return (
    <div
      className={`media-panel${dragOver ? ' media-panel-drag' : ''}`}
      contentEditable={false}
      onDragOver={onDragOver}
      onDragEnter={onDragOver}
      onDragLeave={() => setDragOver(false)}
      onDrop={onDrop}
    >
      <div className="media-panel-title">
        {readOnly
          ? kind === 'image'
            ? editorT('media.noImage')
            : editorT('media.noFile')
          : kind === 'image'
            ? editorT('media.emptyImage')
            : editorT('media.emptyFile')}
      </div>
      {readOnly ? null : (
        <>
          <label className="media-button">
            {kind === 'image' ? editorT('media.chooseImage') : editorT('media.chooseFile')}
            <input
              ref={inputRef}
              className="media-file-input"
              type="file"
              accept={kind === 'image' ? 'image/png,image/jpeg,image/gif,image/webp,image/avif,image/bmp' : undefined}
              onChange={(event) => {
                take(event.target.files?.[0]);
                event.target.value = '';
              }}
            />
          </label>
          <div className="media-panel-hint">{editorT('media.dropHint')}</div>
        </>
      )}
      {error ? (
        <div className="media-error" role="alert">
          {error}{' '}
          <button
            type="button"
            className="media-link-button"
            onClick={() => {
              clearUploadState(element.uid);
              setWrongType(false);
            }}
          >
            {editorT('media.dismiss')}
          </button>
        </div>
      ) : null}
    </div>
  );
}

/** Left / center / right buttons. */
export function AlignButtons({ align, onAlign }: { align: BlockAlign; onAlign(align: BlockAlign): void }) {
  const labels: Record<BlockAlign, string> = { left: editorT('media.alignLeft'), center: editorT('media.alignCenter'), right: editorT('media.alignRight') };
  const icons: Record<BlockAlign, string> = { left: '⇤', center: '↔', right: '⇥' };
  return (
    <>
      {BLOCK_ALIGNS.map((value) => (
        <button
          key={value}
          type="button"
          className="media-tool"
          aria-label={labels[value]}
          title={labels[value]}
          aria-pressed={align === value}
          onClick={() => onAlign(value)}
        >
          {icons[value]}
        </button>
      ))}
    </>
  );
}

const SCALE_STEP = 0.05;

/**
 * A box `scale` × the content width wide, aligned, with a handle on its edge that resizes it
 * (drag, or arrow keys on the focused handle). The new scale is saved when the drag ends.
 */
export function ScaledBox({
  scale,
  align,
  readOnly,
  onScale,
  naturalWidth,
  children,
}: {
  scale: number;
  align: BlockAlign;
  readOnly: boolean;
  onScale(scale: number): void;
  /** The picture's own width in pixels: at the full width (never resized) it is not stretched past it. */
  naturalWidth?: number;
  children: ReactNode;
}) {
  const boxRef = useRef<HTMLDivElement>(null);
  const drag = useRef<{ startX: number; startWidth: number; rowWidth: number } | null>(null);
  const [live, setLive] = useState<number | null>(null);
  const shown = live ?? scale;
  const edge = align === 'right' ? 'left' : 'right';

  const scaleAt = (clientX: number) => {
    const d = drag.current;
    if (!d || d.rowWidth <= 0) return scale;
    const dx = (clientX - d.startX) * (edge === 'left' ? -1 : 1) * (align === 'center' ? 2 : 1);
    return clampScale((d.startWidth + dx) / d.rowWidth);
  };
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    const box = boxRef.current;
    const row = box?.parentElement;
    if (!box || !row) return;
    event.preventDefault();
    event.stopPropagation();
    event.currentTarget.setPointerCapture?.(event.pointerId);
    drag.current = { startX: event.clientX, startWidth: box.getBoundingClientRect().width, rowWidth: row.getBoundingClientRect().width };
    setLive(scale);
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (drag.current) setLive(scaleAt(event.clientX));
  };
  const onPointerUp = (event: PointerEvent<HTMLDivElement>) => {
    if (!drag.current) return;
    const next = scaleAt(event.clientX);
    drag.current = null;
    setLive(null);
    if (next !== scale) onScale(next);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    event.stopPropagation();
    const grow = edge === 'left' ? 'ArrowLeft' : 'ArrowRight';
    const shrink = edge === 'left' ? 'ArrowRight' : 'ArrowLeft';
    if (event.key !== grow && event.key !== shrink) return;
    event.preventDefault();
    const next = clampScale(scale + (event.key === grow ? SCALE_STEP : -SCALE_STEP));
    if (next !== scale) onScale(next);
  };

  return (
    <div className={`media-row media-align-${align}`}>
      <div
        ref={boxRef}
        className="media-box"
        style={
          {
            width: `${Math.round(shown * 1000) / 10}%`,
            ...(naturalWidth && live === null && scale >= 1 ? { maxWidth: `min(100%, ${Math.round(naturalWidth)}px)` } : {}),
          } as CSSProperties
        }
      >
        {children}
        {readOnly ? null : (
          <div
            className={`media-resize media-resize-${edge}`}
            role="slider"
            tabIndex={0}
            aria-label={editorT('media.resize')}
            aria-valuemin={Math.round(MIN_SCALE * 100)}
            aria-valuemax={Math.round(MAX_SCALE * 100)}
            aria-valuenow={Math.round(shown * 100)}
            aria-valuetext={`${Math.round(shown * 100)}%`}
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={onPointerUp}
            onPointerCancel={() => {
              drag.current = null;
              setLive(null);
            }}
            onKeyDown={onKeyDown}
          />
        )}
      </div>
    </div>
  );
}

/** The words of a LinkPanel (translation keys of the editor's namespace: `${prefix}.empty`, `.placeholder`, `.inputLabel`, `.submit`, `.hint`, `.invalid`). */
export interface LinkPanelProps {
  /** The keys' prefix: `embed`, `bookmark`. */
  strings: string;
  readOnly: boolean;
  /** Whether an address may be taken (else `.invalid` is said). */
  accepts(url: string): boolean;
  onSubmit(url: string): void;
}

/**
 * The empty state of a block made from a link (an embed, a bookmark): a field for the address
 * and a button; Enter takes it too; an address refused says why. A reader sees the title alone.
 * Keys and pastes in the field stay there (not the editor's).
 */
export function LinkPanel({ strings, readOnly, accepts, onSubmit }: LinkPanelProps) {
  const [value, setValue] = useState('');
  const [invalid, setInvalid] = useState(false);
  if (readOnly) {
    return (
      <div className="media-panel" contentEditable={false}>
        <div className="media-panel-title">{editorT(`${strings}.empty`)}</div>
      </div>
    );
  }
  const submit = () => {
    const url = value.trim();
    if (!accepts(url)) setInvalid(true);
    else onSubmit(url);
  };
  return (
    <form
      className="media-panel embed-form"
      contentEditable={false}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <div className="media-panel-title">{editorT(`${strings}.empty`)}</div>
      <div className="embed-form-row">
        <input
          className="embed-input"
          type="url"
          inputMode="url"
          value={value}
          placeholder={editorT(`${strings}.placeholder`)}
          aria-label={editorT(`${strings}.inputLabel`)}
          onChange={(event) => {
            setValue(event.target.value);
            setInvalid(false);
          }}
          onKeyDown={(event) => {
            stopKeys(event);
            if (event.key === 'Enter') {
              event.preventDefault();
              submit();
            }
          }}
          onPaste={(event) => event.stopPropagation()}
        />
        <button type="submit" className="media-button">
          {editorT(`${strings}.submit`)}
        </button>
      </div>
      {invalid ? (
        <div className="media-error" role="alert">
          {editorT(`${strings}.invalid`)}
        </div>
      ) : (
        <div className="media-panel-hint">{editorT(`${strings}.hint`)}</div>
      )}
    </form>
  );
}

import { memo, useRef, useState, type PointerEvent } from 'react';
import { useReadOnly, type RenderElementProps } from 'slate-react';
import { fileUrl } from '../file/block';
import type { ImageCrop } from './block';
import type { ImageElement } from '../../../schema/slate';
import { cropFromPoints, cropLayout, type Point } from './crop';
import { AlignButtons, ScaledBox, UploadPanel, blockRootProps, editorT, useSetBlockFields, type BlockViews } from '../../../src/editor/blockView';

/** An image block: the upload panel while empty; the picture, its alignment, size and crop once uploaded. */
export const ImageView = memo(function ImageView({ attributes, children, element }: RenderElementProps) {
  const image = element as ImageElement;
  const readOnly = useReadOnly();
  return (
    <div {...attributes} {...blockRootProps(image, 'block-void block-media')}>
      {image.remoteData ? <LoadedImage image={image} readOnly={readOnly} /> : <UploadPanel element={image} kind="image" readOnly={readOnly} />}
      {children}
    </div>
  );
});

function LoadedImage({ image, readOnly }: { image: ImageElement; readOnly: boolean }) {
  const setFields = useSetBlockFields(image);
  const [natural, setNatural] = useState<{ width: number; height: number } | null>(null);
  const [cropping, setCropping] = useState(false);
  const [failed, setFailed] = useState(false);
  const remote = image.remoteData!;
  const src = fileUrl(remote.fileId);
  const layout = image.crop && natural && !cropping ? cropLayout(image.crop, natural) : null;

  const picture = (
    <img
      className="image-picture"
      src={src}
      alt={remote.title}
      draggable={false}
      style={layout?.image}
      onLoad={(event) => {
        const img = event.currentTarget;
        if (img.naturalWidth > 0 && img.naturalHeight > 0) setNatural({ width: img.naturalWidth, height: img.naturalHeight });
        setFailed(false);
      }}
      onError={() => setFailed(true)}
    />
  );

  return (
    <div className="media-body" contentEditable={false}>
      {readOnly ? null : (
        <div className="media-toolbar">
          <AlignButtons align={image.align ?? 'center'} onAlign={(align) => setFields({ align })} />
          <button type="button" className="media-tool" aria-pressed={cropping} onClick={() => setCropping((on) => !on)}>
            {editorT('media.crop')}
          </button>
        </div>
      )}
      <ScaledBox
        scale={image.scale ?? 1}
        align={image.align ?? 'center'}
        readOnly={readOnly || cropping}
        onScale={(scale) => setFields({ scale })}
        // A small picture (an imported icon, a badge) at its own size, not stretched to the column.
        naturalWidth={natural && !cropping ? natural.width * (image.crop ? image.crop.width / 100 : 1) : undefined}
      >
        {cropping ? (
          <CropEditor
            src={src}
            title={remote.title}
            crop={image.crop ?? null}
            onDone={(crop) => {
              setCropping(false);
              if (crop !== undefined) setFields({ crop });
            }}
          />
        ) : layout ? (
          <div className="image-crop-frame" style={layout.frame} data-testid="image-crop-frame">
            {picture}
          </div>
        ) : (
          picture
        )}
      </ScaledBox>
      {failed ? <div className="media-error">{editorT('media.imageUnavailable')}</div> : null}
    </div>
  );
}

/**
 * The crop mode: the whole picture with the current crop outlined; drawing a rectangle over it
 * with the pointer picks a new one. Apply saves it, Reset removes the crop, Cancel keeps it.
 * `onDone(undefined)` means no change.
 */
function CropEditor({ src, title, crop, onDone }: { src: string; title: string; crop: ImageCrop | null; onDone(crop: ImageCrop | null | undefined): void }) {
  const areaRef = useRef<HTMLDivElement>(null);
  const start = useRef<Point | null>(null);
  const [draft, setDraft] = useState<ImageCrop | null>(crop);

  const rectTo = (event: PointerEvent) => {
    const area = areaRef.current;
    if (!area || !start.current) return null;
    return cropFromPoints(start.current, { x: event.clientX, y: event.clientY }, area.getBoundingClientRect());
  };

  return (
    <div className="image-crop-editor">
      <div
        ref={areaRef}
        className="image-crop-area"
        data-testid="image-crop-area"
        onPointerDown={(event) => {
          event.preventDefault();
          event.stopPropagation();
          event.currentTarget.setPointerCapture?.(event.pointerId);
          start.current = { x: event.clientX, y: event.clientY };
        }}
        onPointerMove={(event) => {
          if (!start.current) return;
          const next = rectTo(event);
          if (next) setDraft(next);
        }}
        onPointerUp={(event) => {
          const next = rectTo(event);
          if (next) setDraft(next);
          start.current = null;
        }}
      >
        <img className="image-picture" src={src} alt={title} draggable={false} />
        {draft ? (
          <div className="image-crop-rect" style={{ left: `${draft.left}%`, top: `${draft.top}%`, width: `${draft.width}%`, height: `${draft.height}%` }} />
        ) : null}
      </div>
      <div className="media-toolbar image-crop-actions">
        <button type="button" className="media-button" onClick={() => onDone(draft)}>
          {editorT('media.cropApply')}
        </button>
        <button type="button" className="media-tool" onClick={() => onDone(null)}>
          {editorT('media.cropReset')}
        </button>
        <button type="button" className="media-tool" onClick={() => onDone(undefined)}>
          {editorT('media.cropCancel')}
        </button>
      </div>
      <div className="media-panel-hint">{editorT('media.cropHint')}</div>
    </div>
  );
}

export const blockViews: BlockViews = { imageBlock: ImageView };

import { memo } from 'react';
import { useReadOnly, type RenderElementProps } from 'slate-react';
import { fileUrl, formatFileSize } from './block';
import type { FileElement } from '../../../schema/slate';
import { UploadPanel, blockRootProps, editorT, type BlockViews } from '../../../src/editor/blockView';

/** A file block: the upload panel while empty; the file's name, size and a download link once uploaded. */
export const FileView = memo(function FileView({ attributes, children, element }: RenderElementProps) {
  const file = element as FileElement;
  const readOnly = useReadOnly();
  const remote = file.remoteData;
  return (
    <div {...attributes} {...blockRootProps(file, 'block-void block-media')}>
      {remote ? (
        <div className="file-card" contentEditable={false}>
          <span className="file-icon" aria-hidden="true">
            📎
          </span>
          <span className="file-name" title={remote.title}>
            {remote.title}
          </span>
          <span className="file-size">{formatFileSize(remote.size)}</span>
          <a className="media-button file-download" href={fileUrl(remote.fileId)} download={remote.title}>
            {editorT('media.download')}
          </a>
        </div>
      ) : (
        <UploadPanel element={file} kind="file" readOnly={readOnly} />
      )}
      {children}
    </div>
  );
});

export const blockViews: BlockViews = { fileBlock: FileView };

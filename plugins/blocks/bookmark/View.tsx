import { memo, useEffect, useState } from 'react';
import { useReadOnly, useSlateStatic, type RenderElementProps } from 'slate-react';
import { blockRootProps, editorT, Icon, LinkPanel, useSetBlockFields, type BlockIcons, type BlockViews } from '../../../src/editor/blockView';
import { embedUrlSchema } from '../embed/block';
import { bookmarkHost, type BookmarkElement } from './block';
import { loadBookmarkPreview, readCardOnce, usePreviewState } from './preview';
import './bookmark.css';

/**
 * A bookmark: a link field while empty; then a card — the page's title, two lines of its
 * description, its icon and address, its picture on the right — opening the page in a new tab.
 * Without a card (being read, or it could not be) the address is shown plainly. Writers get
 * «Обновить превью» and «Изменить ссылку» over it.
 */
export const BookmarkView = memo(function BookmarkView({ attributes, children, element }: RenderElementProps) {
  const bookmark = element as BookmarkElement;
  const readOnly = useReadOnly();
  return (
    <div {...attributes} {...blockRootProps(bookmark, 'block-void block-media block-bookmark')}>
      {bookmark.url ? <BookmarkCard bookmark={bookmark} url={bookmark.url} readOnly={readOnly} /> : <BookmarkForm bookmark={bookmark} readOnly={readOnly} />}
      {children}
    </div>
  );
});

function BookmarkForm({ bookmark, readOnly }: { bookmark: BookmarkElement; readOnly: boolean }) {
  const setFields = useSetBlockFields(bookmark);
  // The card is read once it shows (BookmarkCard).
  return (
    <LinkPanel
      strings="bookmark"
      readOnly={readOnly}
      accepts={(url) => embedUrlSchema.safeParse(url).success}
      onSubmit={(url) => setFields({ url, preview: null })}
    />
  );
}

function BookmarkCard({ bookmark, url, readOnly }: { bookmark: BookmarkElement; url: string; readOnly: boolean }) {
  const editor = useSlateStatic();
  const setFields = useSetBlockFields(bookmark);
  const state = usePreviewState(bookmark.uid);
  const [brokenImage, setBrokenImage] = useState<string | null>(null);
  const [brokenIcon, setBrokenIcon] = useState<string | null>(null);
  const preview = bookmark.preview ?? null;
  const host = bookmarkHost(url);
  const image = preview?.image && preview.image !== brokenImage ? preview.image : null;
  const icon = preview?.icon && preview.icon !== brokenIcon ? preview.icon : null;
  const loading = state?.status === 'loading';
  const unread = !preview;
  useEffect(() => {
    if (!readOnly && unread) readCardOnce(editor, bookmark.uid, url);
  }, [editor, bookmark.uid, url, readOnly, unread]);
  return (
    <div className="media-body" contentEditable={false}>
      {readOnly ? null : (
        <div className="media-toolbar">
          <button type="button" className="media-tool" disabled={loading} onClick={() => void loadBookmarkPreview(editor, bookmark.uid, url, true)}>
            {editorT('bookmark.refresh')}
          </button>
          <button type="button" className="media-tool" onClick={() => setFields({ url: null, preview: null })}>
            {editorT('bookmark.change')}
          </button>
        </div>
      )}
      <a
        className={`bookmark-card${preview ? '' : ' is-plain'}`}
        href={url}
        target="_blank"
        rel="noopener noreferrer nofollow"
        aria-busy={loading || undefined}
      >
        <span className="bookmark-text">
          {preview ? <span className="bookmark-title">{preview.title ?? host}</span> : null}
          {preview?.description ? <span className="bookmark-description">{preview.description}</span> : null}
          <span className="bookmark-source">
            {icon ? <img className="bookmark-icon" src={icon} alt="" referrerPolicy="no-referrer" onError={() => setBrokenIcon(icon)} /> : null}
            {preview?.siteName ? <span className="bookmark-site">{preview.siteName}</span> : null}
            <span className="bookmark-url">{url}</span>
          </span>
        </span>
        {image ? (
          <span className="bookmark-image">
            <img src={image} alt="" referrerPolicy="no-referrer" loading="lazy" onError={() => setBrokenImage(image)} />
          </span>
        ) : null}
      </a>
      {loading ? (
        <div className="media-panel-hint" role="status">
          {editorT('bookmark.loading')}
        </div>
      ) : state?.status === 'failed' ? (
        <div className="media-panel-hint" role="status">
          {editorT(`bookmark.${state.reason}`)}
        </div>
      ) : null}
    </div>
  );
}

export const blockViews: BlockViews = { bookmarkBlock: BookmarkView };

export const blockIcons: BlockIcons = {
  bookmark: () => (
    <Icon>
      <path d="M7 3h10a1 1 0 0 1 1 1v17l-6-4-6 4V4a1 1 0 0 1 1-1z" />
    </Icon>
  ),
};

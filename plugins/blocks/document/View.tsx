import { memo, useContext, useEffect, useState, type MouseEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { useSlateStatic, type RenderElementProps } from 'slate-react';
import { pagePath } from './block';
import type { DocumentElement } from '../../../schema/slate';
import { useAppDispatch, useAppSelector } from '../../../src/app/store';
import { pageLoaded, selectPageById } from '../../../src/features/pages/pagesSlice';
import { loadChildPages } from './childPages';
import './document.css';
import { PageIcon } from '../../../src/ui/icons';
import { PageTypeIcon } from '../../../src/ui/pageTypeIcons';
import { blockRootProps, editorPageId, editorT, NestedEditorsContext, type BlockViews } from '../../../src/editor/blockView';

/**
 * A child page as a block: its icon (else its type's, as the sidebar shows it: a table for a database) and title (from the pages slice, else loaded with the parent
 * page's children); a click opens it. A page that is gone or not readable is said so.
 */
export const DocumentView = memo(function DocumentView({ attributes, children, element }: RenderElementProps) {
  const block = element as DocumentElement;
  const editor = useSlateStatic();
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const page = useAppSelector((state) => selectPageById(state, block.pageId));
  const [missing, setMissing] = useState(false);
  const nestedEditors = useContext(NestedEditorsContext);

  useEffect(() => {
    if (page) return;
    // A synced block's editor: its nested pages are children of the page it was made on.
    const parentId = nestedEditors?.childPagesOf ?? editorPageId(editor);
    if (!parentId) return;
    let live = true;
    loadChildPages(parentId).then(
      (pages) => {
        for (const child of pages) dispatch(pageLoaded(child));
        if (live && !pages.some((p) => p.id === block.pageId)) setMissing(true);
      },
      () => {
        if (live) setMissing(true);
      },
    );
    return () => {
      live = false;
    };
  }, [page, editor, dispatch, block.pageId, nestedEditors]);

  const open = (event: MouseEvent<HTMLAnchorElement>) => {
    // A plain click opens the page in the app; with a modifier the browser opens a new tab.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(pagePath(block.pageId));
  };

  const title = page ? page.title.trim() || editorT('document.untitled') : missing ? editorT('document.unavailable') : editorT('document.loading');
  return (
    <div {...attributes} {...blockRootProps(block, 'block-void')}>
      <a
        className={`document-link${!page && missing ? ' document-link-missing' : ''}`}
        href={pagePath(block.pageId)}
        contentEditable={false}
        onClick={open}
        draggable={false}
      >
        <span className="document-icon" aria-hidden="true">
          {page?.icon || (page ? <PageTypeIcon type={page.type} size={18} /> : <PageIcon size={18} />)}
        </span>
        <span className="document-title">{title}</span>
      </a>
      {children}
    </div>
  );
});

export const blockViews: BlockViews = { documentBlock: DocumentView };

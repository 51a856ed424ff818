import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'react-redux';
import { useLocation, useNavigate } from 'react-router-dom';
import { SECTION_IDS } from '../../../schema/constants';
import { newId } from '../../../schema/ids';
import { mayBePrivateRootOf } from '../../../schema/policies/page';
import { useAppDispatch, useAppSelector, type RootState } from '../../app/store';
import { openCsvImport } from '../database/csv/openCsvImport';
import { createChildPage, loadChildren, movePageInTree, siblingsOf } from '../pages/pagesSlice';
import { mayDropOn, placeAfterBeside, placeAfterInside } from './dragAndDrop';
import { createErrorKey, moveErrorKey } from '../pages/treeErrors';
import { TreeContext, type Tree } from './TreeContext';
import { createTreeStore, type TreeStore } from './treeStore';

/** Opening a page shows where it sits: its ancestors open (in the sections that hold them). */
function useExpandActivePath(tree: TreeStore) {
  const location = useLocation();
  const activeId = /^\/[^/]+$/.test(location.pathname) ? decodeURIComponent(location.pathname.slice(1)) : null;
  const pathKey = useAppSelector((state) => (activeId ? state.pages.entities[activeId]?.path : undefined))?.join('/') ?? '';
  useEffect(() => {
    if (pathKey) tree.expand(pathKey.split('/').flatMap((ancestor) => SECTION_IDS.map((section) => `${section}/${ancestor}`)));
  }, [tree, pathKey, activeId]);
}

/**
 * The tree's state and what the rows do (expand, drag and drop a page, add a child page) for the
 * sections inside. `report` says what went wrong; `onCreatingChild` follows a child page being made.
 * What it provides stays the same object (callers pass stable functions): the rows read the state
 * that changes from the store, each what it shows.
 */
export function TreeProvider({
  report,
  onCreatingChild,
  children,
}: {
  report: (message: string) => void;
  onCreatingChild: (busy: boolean) => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const pagesStore = useStore<RootState>();
  const [store] = useState(createTreeStore);
  useExpandActivePath(store);
  // The router's navigate changes with the address; the tree's functions need not.
  const navigate = useNavigate();
  const navigateRef = useRef(navigate);
  useEffect(() => {
    navigateRef.current = navigate;
  }, [navigate]);

  const tree = useMemo<Tree>(() => {
    const pages = () => pagesStore.getState().pages;
    const ensureChildren = async (id: string) => {
      if (!pages().children[id]) await dispatch(loadChildren(id));
      return pages().children[id] ?? [];
    };
    const move = async (id: string, dst: string, placeAfter: string | null) => {
      const result = await dispatch(movePageInTree({ id, dst, placeAfter }));
      if (movePageInTree.rejected.match(result)) report(t(moveErrorKey(result.payload)));
    };
    return {
      store,
      canDropOn: (targetId) => mayDropOn(store.getState().draggingId, targetId, pages().entities[targetId]?.path ?? []),
      mayLandIn: (parent) => {
        if (parent !== 'private') return true;
        const dragged = store.getState().draggingId;
        const page = dragged ? pages().entities[dragged] : undefined;
        const userId = pagesStore.getState().auth.user?.id;
        // A root there already only changes its place (placeAfter); another becomes a root only if its own.
        return !!page && ((page.section === 'private' && page.parentId === null) || (!!userId && mayBePrivateRootOf(page, userId)));
      },
      drop: (target) => {
        const id = store.getState().draggingId;
        store.endDrag();
        if (!id) return;
        if ('section' in target) {
          void move(id, target.section, null);
          return;
        }
        if (target.position === 'inside') {
          store.setExpanded(target.key, true);
          void ensureChildren(target.id).then((children) => move(id, target.id, placeAfterInside(children, id)));
          return;
        }
        const siblings = siblingsOf(pages(), target.parent) ?? [];
        void move(id, target.parent, placeAfterBeside(siblings, id, target.id, target.position));
      },
      addChild: (parentId, key, kind = 'Note') => {
        if (kind === 'csv') return openCsvImport({ kind: 'new', place: { parentId } });
        store.setExpanded(key, true);
        onCreatingChild(true);
        void ensureChildren(parentId)
          .then(async () => {
            const result = await dispatch(createChildPage({ parentId, id: newId(), type: kind }));
            if (createChildPage.fulfilled.match(result)) navigateRef.current(`/${result.payload.id}`);
            else report(t(createErrorKey(result.payload)));
          })
          .finally(() => onCreatingChild(false));
      },
    };
  }, [dispatch, onCreatingChild, pagesStore, report, store, t]);

  return <TreeContext.Provider value={tree}>{children}</TreeContext.Provider>;
}

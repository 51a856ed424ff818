import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from 'react-redux';
import { useLocation, useNavigate } from 'react-router-dom';
import { newId } from '../../../schema/ids';
import { useAppDispatch, useAppSelector, type RootState } from '../../app/store';
import { openCsvImport } from '../csvImport/openCsvImport';
import { createChildPage, loadChildren, movePageInTree } from '../pages/pagesSlice';
import { mayDropOn, placeAfterBeside, placeAfterInside, type DropTarget } from './dragAndDrop';
import { createErrorKey, moveErrorKey } from './sidebarErrors';
import { TreeContext, type TreeApi } from './TreeContext';

function useExpandedKeys() {
  const location = useLocation();
  const activeId = /^\/[^/]+$/.test(location.pathname) ? decodeURIComponent(location.pathname.slice(1)) : null;
  const activePath = useAppSelector((state) => (activeId ? state.pages.entities[activeId]?.path : undefined));
  const [expanded, setExpandedKeys] = useState<ReadonlySet<string>>(() => new Set());
  const pathKey = activePath?.join('/') ?? '';
  // Opening a page shows where it sits: its ancestors open (in the sections that hold them).
  useEffect(() => {
    if (!pathKey) return;
    setExpandedKeys((current) => {
      const next = new Set(current);
      for (const ancestor of pathKey.split('/')) for (const section of ['private', 'all', 'favorite', 'shared']) next.add(`${section}/${ancestor}`);
      return next;
    });
  }, [pathKey, activeId]);
  const setExpanded = useCallback((key: string, open: boolean) => {
    setExpandedKeys((current) => {
      if (current.has(key) === open) return current;
      const next = new Set(current);
      if (open) next.add(key);
      else next.delete(key);
      return next;
    });
  }, []);
  return { expanded, setExpanded };
}

/**
 * The tree's state and what the rows do (expand, drag and drop a page, add a child page) for the
 * sections inside. `report` says what went wrong; `onCreatingChild` follows a child page being made.
 */
export function TreeProvider({ report, onCreatingChild, children }: { report: (message: string) => void; onCreatingChild: (busy: boolean) => void; children: ReactNode }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const store = useStore<RootState>();
  const { expanded, setExpanded } = useExpandedKeys();
  const [draggingId, setDraggingId] = useState<string | null>(null);
  const [dropTarget, setDropTarget] = useState<DropTarget | null>(null);

  const tree = useMemo<TreeApi>(() => {
    const pages = () => store.getState().pages;
    const ensureChildren = async (id: string) => {
      if (!pages().children[id]) await dispatch(loadChildren(id));
      return pages().children[id] ?? [];
    };
    const move = async (id: string, dst: string, placeAfter: string | null) => {
      const result = await dispatch(movePageInTree({ id, dst, placeAfter }));
      if (movePageInTree.rejected.match(result)) report(t(moveErrorKey(result.payload)));
    };
    return {
      isExpanded: (key) => expanded.has(key),
      setExpanded,
      draggingId,
      dropTarget,
      startDrag: (id) => setDraggingId(id),
      endDrag: () => {
        setDraggingId(null);
        setDropTarget(null);
      },
      canDropOn: (targetId) => mayDropOn(draggingId, targetId, pages().entities[targetId]?.path ?? []),
      hover: setDropTarget,
      drop: (target) => {
        const id = draggingId;
        setDraggingId(null);
        setDropTarget(null);
        if (!id) return;
        if ('section' in target) {
          void move(id, target.section, null);
          return;
        }
        if (target.position === 'inside') {
          setExpanded(target.key, true);
          void ensureChildren(target.id).then((children) => move(id, target.id, placeAfterInside(children, id)));
          return;
        }
        const siblings = (target.parent === 'private' || target.parent === 'all' ? pages().sections[target.parent] : pages().children[target.parent]) ?? [];
        void move(id, target.parent, placeAfterBeside(siblings, id, target.id, target.position));
      },
      addChild: (parentId, key, kind = 'Note') => {
        if (kind === 'csv') return openCsvImport({ kind: 'new', place: { parentId } });
        setExpanded(key, true);
        onCreatingChild(true);
        void ensureChildren(parentId)
          .then(async () => {
            const result = await dispatch(createChildPage({ parentId, id: newId(), type: kind }));
            if (createChildPage.fulfilled.match(result)) navigate(`/${result.payload.id}`);
            else report(t(createErrorKey(result.payload)));
          })
          .finally(() => onCreatingChild(false));
      },
    };
  }, [dispatch, draggingId, dropTarget, expanded, navigate, onCreatingChild, report, setExpanded, store, t]);

  return <TreeContext.Provider value={tree}>{children}</TreeContext.Provider>;
}

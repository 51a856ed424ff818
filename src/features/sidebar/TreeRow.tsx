import { memo, useEffect, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router-dom';
import type { SectionId } from '../../../schema/constants';
import { canEdit } from '../../../schema/policies/page';
import { useAppDispatch, useAppSelector } from '../../app/store';
import { ChevronRightIcon, PlusIcon } from '../../ui/icons';
import { CreatePageMenuButton } from '../pageTypes/CreatePageMenu';
import { PageTypeIcon } from '../../ui/pageTypeIcons';
import { loadChildren, selectChildIds, selectPageById } from '../pages/pagesSlice';
import { useLiveChildren } from '../realtime/liveTree';
import { DRAG_TYPE, dropPositionFor } from './dragAndDrop';
import { useDropPosition, useIsDragged, useIsExpanded, useTree } from './TreeContext';

/**
 * A page of the tree: its row (a drag source and drop target) and, expanded, its children. It
 * renders again only when what it shows changes: its page, whether it is expanded, dragged or
 * hovered by a drag (memo, and the tree's state read per row); its children's list follows them.
 */
export const TreeRow = memo(TreeRowView);

function TreeRowView({ id, parent, depth, section, movable }: { id: string; parent: string; depth: number; section: SectionId; movable: boolean }) {
  const { t } = useTranslation();
  const tree = useTree();
  const page = useAppSelector((state) => selectPageById(state, id));
  const key = `${section}/${id}`;
  const expanded = useIsExpanded(key);
  const target = useDropPosition(key);
  const dragged = useIsDragged(id);
  // A page shared from another workspace of the user's is marked with that workspace's name.
  const elsewhere = useAppSelector((state) =>
    depth === 0 && page && page.workspaceId && page.workspaceId !== state.workspaces.activeId
      ? state.workspaces.list.find((w) => w.id === page.workspaceId)?.name
      : undefined,
  );

  // Expanded: its children follow other people's changes (realtime).
  useLiveChildren(id, expanded);

  if (!page) return null;
  const editable = canEdit(page.accessLevel);
  const label = page.title || t('untitled');

  const onDragOver = (event: DragEvent<HTMLDivElement>) => {
    if (!movable || !tree.canDropOn(id)) return;
    // Beside this row is among its parent's children: where the page may not land, only inside.
    const beside = tree.mayLandIn(parent);
    if (!beside && !editable) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'move';
    const position = beside ? dropPositionFor(event, editable) : 'inside';
    tree.store.hover({ key, position });
  };

  return (
    <li className="tree-item">
      <div
        className={['tree-row', target ? `drop-${target}` : '', dragged ? 'is-dragging' : ''].filter(Boolean).join(' ')}
        style={{ paddingLeft: `calc(${depth} * 16px + var(--space-1))` }}
        data-page-id={id}
        draggable={movable && editable}
        onDragStart={(event) => {
          event.dataTransfer.setData(DRAG_TYPE, id);
          event.dataTransfer.effectAllowed = 'move';
          tree.store.startDrag(id);
        }}
        onDragEnd={() => tree.store.endDrag()}
        onDragOver={onDragOver}
        onDragLeave={(event) => {
          if (target && !event.currentTarget.contains(event.relatedTarget as Node | null)) tree.store.hover(null);
        }}
        onDrop={(event) => {
          if (!target) return;
          event.preventDefault();
          tree.drop({ id, parent, position: target, key });
        }}
      >
        <button
          type="button"
          className={expanded ? 'icon-button tree-chevron is-open' : 'icon-button tree-chevron'}
          aria-label={`${expanded ? t('sidebar.collapse') : t('sidebar.expand')}: ${label}`}
          aria-expanded={expanded}
          onClick={() => tree.store.setExpanded(key, !expanded)}
        >
          <ChevronRightIcon size={14} />
        </button>
        <NavLink to={`/${id}`} className="sidebar-page" draggable={false}>
          <span className="sidebar-page-icon" aria-hidden>
            {page.icon ?? <PageTypeIcon type={page.type} size={16} />}
          </span>
          <span className={page.title ? 'sidebar-page-title' : 'sidebar-page-title is-untitled'}>{label}</span>
          {elsewhere && (
            <span className="sidebar-page-workspace workspace-tag" title={t('sidebar.inWorkspace', { name: elsewhere })}>
              {elsewhere}
            </span>
          )}
        </NavLink>
        {editable && (
          <>
            <CreatePageMenuButton label={`${t('sidebar.newChildOfType')}: ${label}`} onPick={(kind) => tree.addChild(id, key, kind)} />
            <button
              type="button"
              className="icon-button tree-add"
              aria-label={`${t('sidebar.newChildPage')}: ${label}`}
              title={t('sidebar.newChildPage')}
              onClick={() => tree.addChild(id, key)}
            >
              <PlusIcon size={14} />
            </button>
          </>
        )}
      </div>
      {expanded && <TreeChildren id={id} depth={depth} section={section} movable={movable} />}
    </li>
  );
}

/** An expanded page's children: read on first expand, then its rows (or why there are none). */
function TreeChildren({ id, depth, section, movable }: { id: string; depth: number; section: SectionId; movable: boolean }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const childIds = useAppSelector((state) => selectChildIds(state, id));
  const childrenStatus = useAppSelector((state) => state.pages.childrenStatus[id]);
  useEffect(() => {
    if (childrenStatus === undefined) void dispatch(loadChildren(id));
  }, [childrenStatus, dispatch, id]);

  const note = { paddingLeft: `calc(${depth + 1} * 16px + 28px)` };
  return (
    // A nested list (not role="group": that made its items, «Нет вложенных страниц» among them, invalid listitems).
    <ul className="tree-children">
      {childIds === undefined ? (
        childrenStatus === 'failed' ? (
          <li className="tree-note" style={note}>
            {t('sidebar.loadFailed')} ·{' '}
            <button type="button" className="link-button" onClick={() => void dispatch(loadChildren(id))}>
              {t('sidebar.retry')}
            </button>
          </li>
        ) : (
          <li className="tree-note" style={note}>
            {t('sidebar.loading')}
          </li>
        )
      ) : childIds.length === 0 ? (
        <li className="tree-note" style={note}>
          {t('sidebar.noChildren')}
        </li>
      ) : (
        childIds.map((childId) => <TreeRow key={childId} id={childId} parent={id} depth={depth + 1} section={section} movable={movable} />)
      )}
    </ul>
  );
}

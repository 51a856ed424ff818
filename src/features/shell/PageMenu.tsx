import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { holdsDatabase, type WireElement } from '../../../schema/element';
import { canEdit, canShare } from '../../../schema/policies/page';
import { newId } from '../../../schema/ids';
import type { WireWorkspace } from '../../../schema/workspace';
import { useAppDispatch, useAppSelector } from '../../app/store';
import { Button } from '../../ui/Button';
import { CopyIcon, GlobeIcon, HistoryIcon, LinkIcon, MoreIcon, MoveIcon, StarIcon, TrashIcon } from '../../ui/icons';
import { ActionMenu, MenuItem } from '../../ui/ActionMenu';
import { showToast } from '../../ui/Toast';
import { openTrash } from '../trash/openTrash';
import { openNotificationSettings } from '../inbox/NotificationSettingsDialog';
import { BellIcon } from '../../ui/icons';
import { selectActiveWorkspace } from '../workspaces/workspacesSlice';
import { canCreateIn } from '../workspaces/workspaceRules';
import { MoveDialog } from './MoveDialog';
import { HistoryDialog } from '../history/HistoryDialog';
import { ExportDialog } from '../export/ExportDialog';
import { IMPORT_ACCEPT, importFailureText, importInto, pickFile } from '../export/importPages';
import { importProblemText } from '../export/importProblems';
import { copyText, pageActionError, reportCloneError } from '../pages/pageErrors';
import { usePublicLink } from '../pages/publicLink';
import { clonePage, patchPage, setFavorite, trashPage } from '../pages/pagesSlice';
import { openCsvImport } from '../database/csv/openCsvImport';
import { downloadCsv, findDatabaseOfPage } from '../database/csv/databaseCalls';
import { DownloadIcon, UploadIcon } from '../../ui/pageTypeIcons';

/** A Database page's database and the view on screen (the Database screen knows them; else the first view is exported). */
export interface MenuDatabase {
  id: string;
  viewId: string | null;
}

/** What the menu offers on a page at the caller's access level (docs/api/pages.md, "Who may do what"). */
export function pageActions(page: WireElement, workspace: Pick<WireWorkspace, 'id' | 'role' | 'private'> | null) {
  const live = !page.inTrash;
  // A database's row template is copied, moved, trashed and published with its database only (docs/api/databases.md «Row templates»).
  const own = live && !page.rowTemplate;
  return {
    favorite: live,
    // A copy goes beside the original (its parent editable) or to the caller's private section
    // (`copyWorkspace`: the page's workspace, else the active one, where it cannot go beside it).
    clone: own && ((inWorkspace(page, workspace?.id) && canEdit(page.accessLevel)) || canCreateIn('private', workspace)),
    move: own && canShare(page.accessLevel),
    trash: own && canEdit(page.accessLevel),
    publish: own && canShare(page.accessLevel),
    copyLink: true,
  };
}

/**
 * The workspace a copy of a page goes to, and whose rules say whether it may: the page's own when
 * the caller is a member of it, else the active one (a page shared with someone outside its
 * workspace: the copy goes to their private section).
 */
export function copyWorkspace(page: WireElement, workspaces: readonly WireWorkspace[], active: WireWorkspace | null): WireWorkspace | null {
  return workspaces.find((w) => w.id === page.workspaceId) ?? active;
}

/** Whether a page is in this workspace (one made here and not answered yet has no workspace id: the open one's). */
const inWorkspace = (page: WireElement, workspaceId: string | undefined) => !page.workspaceId || page.workspaceId === workspaceId;

/** Where a copy goes: next to the original when its parent is editable, else (null) the private section. */
function cloneTarget(page: WireElement, parent: WireElement | undefined, workspaceId: string): string | null {
  if (!page.parentId || !inWorkspace(page, workspaceId)) return null;
  if (parent ? canEdit(parent.accessLevel) : canEdit(page.accessLevel)) return page.parentId;
  return null;
}

/** Optimistic clone: the copy shows in the tree at once and opens when the server has it; a refusal takes it away. */
export function useClonePage() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const active = useAppSelector(selectActiveWorkspace);
  const workspaces = useAppSelector((state) => state.workspaces.list);
  const entities = useAppSelector((state) => state.pages.entities);
  return async (page: WireElement, options: { toElement?: string | null; open?: boolean } = {}) => {
    const workspaceId = copyWorkspace(page, workspaces, active)?.id;
    if (!workspaceId) return;
    const toElement = options.toElement !== undefined ? options.toElement : cloneTarget(page, page.parentId ? entities[page.parentId] : undefined, workspaceId);
    const id = newId();
    try {
      await dispatch(clonePage({ source: page, id, toElement, workspaceId })).unwrap();
      showToast(t('page.toasts.cloned'));
      if (options.open !== false) navigate(`/${id}`);
    } catch (error) {
      // Spec §8: a clone error is reported except on 404 (the source is gone); the copy is rolled back either way (clonePage.rejected).
      if (reportCloneError(error, { pageId: page.id, toElement, workspaceId })) showToast(`${t('page.errors.clone')}: ${pageActionError(t, error)}`, 'error');
      else showToast(t('page.errors.notFound'), 'error');
    }
  };
}

/** The star in the top bar: favourite on/off. */
export function FavoriteButton({ page }: { page: WireElement }) {
  const { t } = useTranslation();
  const toggle = useToggleFavorite();
  if (page.inTrash) return null;
  const label = page.inFavorites ? t('page.favoriteRemove') : t('page.favoriteAdd');
  return (
    <Button
      kind="flat"
      size="xxs"
      className={page.inFavorites ? 'topbar-star is-on' : 'topbar-star'}
      aria-label={label}
      title={label}
      aria-pressed={page.inFavorites}
      onClick={() => void toggle(page)}
    >
      <StarIcon size={18} filled={page.inFavorites} />
    </Button>
  );
}

function useToggleFavorite() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  return async (page: WireElement) => {
    const on = !page.inFavorites;
    try {
      await dispatch(setFavorite({ id: page.id, on })).unwrap();
      showToast(on ? t('page.toasts.favoriteAdded') : t('page.toasts.favoriteRemoved'));
    } catch (error) {
      showToast(pageActionError(t, error), 'error');
    }
  };
}

/** «Экспорт в CSV» of a Database page: the view given, else the database's first view. */
async function exportDatabase(page: WireElement, database: MenuDatabase | undefined): Promise<boolean> {
  if (database?.viewId) {
    downloadCsv(database.id, database.viewId);
    return true;
  }
  const found = await findDatabaseOfPage(page.id).catch(() => null);
  const view = found?.data.view.layouts[0];
  if (!found || !view) return false;
  downloadCsv(found.id, view.uid);
  return true;
}

/** The «⋯» menu of the top bar; a Database page's adds CSV import and export (`database`: the screen's database and view). */
export function PageMenu({ page, database }: { page: WireElement; database?: MenuDatabase }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  // The page's workspace judges what may be done with it (where a copy goes), not the one open.
  const workspace = useAppSelector((state) => copyWorkspace(page, state.workspaces.list, selectActiveWorkspace(state)));
  const [moving, setMoving] = useState(false);
  const [history, setHistory] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [publishing, setPublishing] = useState(false);
  const clone = useClonePage();
  const toggleFavorite = useToggleFavorite();
  const can = pageActions(page, workspace);

  /** Our JSON export, a Notion «Markdown & CSV» zip, Markdown or HTML (a zip of them, or one file), made under this page; the first page made opens. */
  const importHere = async () => {
    const file = await pickFile(IMPORT_ACCEPT);
    if (!file) return;
    try {
      const answer = await importInto({ parentId: page.id }, file);
      if (answer.problems.length > 0)
        showToast(
          `${t('export.importProblems')}: ${answer.problems
            .slice(0, 3)
            .map((p) => importProblemText(t, p))
            .join('; ')}`,
          'error',
          10_000,
        );
      else showToast(t('export.imported', { count: answer.pages }));
      if (answer.page) navigate(`/${answer.page.id}`);
    } catch (error) {
      showToast(importFailureText(t, error), 'error');
    }
  };

  const copyLink = async (url: string) => {
    try {
      await copyText(url);
      showToast(t('page.linkCopied'));
    } catch {
      showToast(t('page.errors.copyLink'), 'error');
    }
  };

  const toTrash = async () => {
    try {
      await dispatch(trashPage(page.id)).unwrap();
      showToast(t('page.toasts.trashed'));
      navigate('/');
    } catch (error) {
      showToast(pageActionError(t, error), 'error');
    }
  };

  const togglePublic = async () => {
    const isPublic = !page.isPublic;
    setPublishing(true);
    try {
      await dispatch(patchPage({ id: page.id, patch: { isPublic }, previous: page })).unwrap();
      if (!isPublic) showToast(t('page.toasts.unpublished'));
    } catch (error) {
      showToast(pageActionError(t, error), 'error');
    } finally {
      setPublishing(false);
    }
  };

  const items = (close: () => void) => {
    const run = (action: () => Promise<void> | void) => () => {
      close();
      void action();
    };
    return (
      <>
        <MenuItem icon={<StarIcon size={16} filled={page.inFavorites} />} disabled={!can.favorite} onClick={run(() => toggleFavorite(page))}>
          {page.inFavorites ? t('page.favoriteRemove') : t('page.favoriteAdd')}
        </MenuItem>
        <MenuItem icon={<CopyIcon size={16} />} disabled={!can.clone} onClick={run(() => clone(page))}>
          {t('page.clone')}
        </MenuItem>
        {can.move && (
          <MenuItem icon={<MoveIcon size={16} />} onClick={run(() => setMoving(true))}>
            {t('page.moveTo')}
          </MenuItem>
        )}
        <MenuItem icon={<LinkIcon size={16} />} onClick={run(() => copyLink(`${window.location.origin}/${page.id}`))}>
          {t('page.copyLink')}
        </MenuItem>
        <MenuItem icon={<HistoryIcon size={16} />} onClick={run(() => setHistory(true))}>
          {t('history.menu')}
        </MenuItem>
        <MenuItem icon={<DownloadIcon size={16} />} onClick={run(() => setExporting(true))}>
          {t('export.menu')}
        </MenuItem>
        {canEdit(page.accessLevel) && !page.inTrash && !holdsDatabase(page.type) && (
          <MenuItem icon={<UploadIcon size={16} />} onClick={run(importHere)}>
            {t('export.importMenu')}
          </MenuItem>
        )}
        {holdsDatabase(page.type) && (
          <>
            <div className="menu-separator" />
            {canEdit(page.accessLevel) && !page.inTrash && (
              <MenuItem icon={<UploadIcon size={16} />} onClick={run(() => openCsvImport({ kind: 'existing', page, databaseId: database?.id }))}>
                {t('csvImport.menu')}
              </MenuItem>
            )}
            <MenuItem
              icon={<DownloadIcon size={16} />}
              onClick={run(async () => {
                if (!(await exportDatabase(page, database))) showToast(t('csvImport.exportFailed'), 'error');
              })}
            >
              {t('csvImport.export')}
            </MenuItem>
            <div className="menu-separator" />
          </>
        )}
        {!page.inTrash && (
          <MenuItem icon={<BellIcon size={16} />} onClick={run(() => openNotificationSettings(page.id))}>
            {t('inbox.settings.menu')}
          </MenuItem>
        )}
        {can.publish && (
          <>
            <div className="menu-separator" />
            <MenuItem icon={<GlobeIcon size={16} />} disabled={publishing} onClick={() => void togglePublic()} role="menuitemcheckbox" checked={page.isPublic}>
              {page.isPublic ? t('page.unpublish') : t('page.publish')}
            </MenuItem>
          </>
        )}
        {page.isPublic && !page.inTrash && <PublicLinkRow pageId={page.id} publishing={publishing} copyLink={copyLink} run={run} />}
        <div className="menu-separator" />
        {can.trash && (
          <MenuItem icon={<TrashIcon size={16} />} danger onClick={run(toTrash)}>
            {t('page.trash')}
          </MenuItem>
        )}
        <MenuItem icon={<RestoreGlyph />} onClick={run(openTrash)}>
          {t('page.openTrash')}
        </MenuItem>
      </>
    );
  };

  return (
    <>
      <ActionMenu label={t('page.menu')} trigger={<MoreIcon size={18} />} menuClassName="page-menu">
        {items}
      </ActionMenu>
      {moving && <MoveDialog page={page} onClose={() => setMoving(false)} />}
      {history && <HistoryDialog page={page} onClose={() => setHistory(false)} />}
      {exporting && <ExportDialog subject={{ kind: 'page', pageId: page.id, workspaceId: page.workspaceId }} onClose={() => setExporting(false)} />}
    </>
  );
}

const RestoreGlyph = () => <TrashIcon size={16} style={{ opacity: 0.6 }} />;

/**
 * The published page's public link, asked for once the menu is open and the publish answered (the
 * page has its alias only when the server says so): an item that copies it, the address shown
 * under its words (a menu holds items only — no field in it for screen readers to fall into).
 */
function PublicLinkRow({
  pageId,
  publishing,
  copyLink,
  run,
}: {
  pageId: string;
  publishing: boolean;
  copyLink(text: string): Promise<void>;
  run(action: () => unknown): () => void;
}) {
  const { t } = useTranslation();
  const link = usePublicLink({ id: pageId, isPublic: !publishing });
  if (!link) return null;
  return (
    <MenuItem icon={<LinkIcon size={16} />} onClick={run(() => copyLink(link))}>
      {t('page.copyPublicLink')}
      <span className="menu-public-url">{link}</span>
    </MenuItem>
  );
}

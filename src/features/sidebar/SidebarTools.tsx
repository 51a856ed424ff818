import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppSelector } from '../../app/store';
import { SearchIcon, TrashIcon } from '../../ui/icons';
import { ImportDialog } from '../export/ImportDialog';
import { InboxEntry } from '../inbox/InboxEntry';
import { UploadIcon } from '../../ui/pageTypeIcons';
import { openSearch } from '../search/openSearch';
import { openTrash } from '../trash/openTrash';
import { creatableRootSections } from '../workspaces/workspaceRules';
import { selectActiveWorkspace } from '../workspaces/workspacesSlice';

/** Below the tree: search, «Входящие», «Импорт» (where the caller may create pages) and «Корзина». */
export function SidebarTools() {
  const { t } = useTranslation();
  const workspace = useAppSelector(selectActiveWorkspace);
  // Files are imported as new pages: into the sections the caller may create pages in.
  const importSections = useMemo(() => creatableRootSections(workspace), [workspace]);
  const [importing, setImporting] = useState(false);
  return (
    <>
      <div className="sidebar-tools">
        <button type="button" className="sidebar-tool" onClick={openSearch} aria-keyshortcuts="Control+K">
          <SearchIcon size={16} aria-hidden />
          <span>{t('search.open')}</span>
          <kbd className="sidebar-tool-key">{t('search.shortcut')}</kbd>
        </button>
        <InboxEntry />
        {importSections.length > 0 && (
          <button type="button" className="sidebar-tool" onClick={() => setImporting(true)}>
            <UploadIcon size={16} aria-hidden />
            <span>{t('export.importTool')}</span>
          </button>
        )}
        <button type="button" className="sidebar-tool" onClick={openTrash}>
          <TrashIcon size={16} aria-hidden />
          <span>{t('trash.title')}</span>
        </button>
      </div>
      {importing && workspace && <ImportDialog workspaceId={workspace.id} sections={importSections} onClose={() => setImporting(false)} />}
    </>
  );
}

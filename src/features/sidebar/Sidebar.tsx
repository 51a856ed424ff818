import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../ui/Button';
import { ChevronsLeftIcon } from '../../ui/icons';
import { SectionList } from './SectionList';
import { SidebarFooter } from './SidebarFooter';
import { SidebarMessage, useSidebarMessage } from './SidebarMessage';
import { SidebarTools } from './SidebarTools';
import { WorkspaceSwitcher } from './WorkspaceSwitcher';

/** The page tree: the workspace switcher, the sections by role with their page trees, the tools and the signed-in user. */
export function Sidebar({ onHide, hideLabel, hideIcon }: { onHide?: () => void; hideLabel?: string; hideIcon?: ReactNode }) {
  const { t } = useTranslation();
  const { message, report, dismiss } = useSidebarMessage();
  const [creatingChild, setCreatingChild] = useState(false);

  return (
    <nav className="sidebar" aria-label={t('sidebar.tree')} aria-busy={creatingChild}>
      <div className="sidebar-header">
        <WorkspaceSwitcher />
        {onHide && (
          <Button
            kind="flat"
            size="xxs"
            className="sidebar-hide"
            aria-label={hideLabel ?? t('sidebar.hide')}
            title={hideLabel ?? t('sidebar.hide')}
            onClick={onHide}
          >
            {hideIcon ?? <ChevronsLeftIcon size={18} />}
          </Button>
        )}
      </div>
      <SectionList report={report} onCreatingChild={setCreatingChild} />
      <SidebarMessage message={message} onDismiss={dismiss} />
      <SidebarTools />
      <SidebarFooter />
    </nav>
  );
}

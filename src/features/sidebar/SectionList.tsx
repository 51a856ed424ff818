import { useEffect, useMemo, useRef, type ReactNode } from 'react';
import type { SectionId } from '../../../schema/constants';
import { useRealtimeExpected } from '../../app/RealtimeProvider';
import { useAppDispatch, useAppSelector } from '../../app/store';
import { openCsvImport } from '../database/csv/openCsvImport';
import { isRootSection, loadSection, selectSectionRead } from '../pages/pagesSlice';
import { LiveTreeContext, useLiveTree } from '../realtime/liveTree';
import { treeSectionToggled } from '../settings/uiSettings';
import { canCreateIn, sectionsShown } from '../workspaces/workspaceRules';
import { selectActiveWorkspace } from '../workspaces/workspacesSlice';
import { Section } from './Section';
import { useIsDragging } from './TreeContext';
import { TreeProvider } from './TreeProvider';
import { useCreatePage } from './useCreatePage';

/** Reads the lists of the sections shown: live, the top level's join reads them; a section shown later (a new role), or all without a connection, here. */
function useSectionLists(workspaceId: string | undefined, sections: readonly SectionId[]) {
  const dispatch = useAppDispatch();
  const hasLive = useRealtimeExpected();
  const shownBefore = useRef<{ workspaceId: string; sections: readonly SectionId[] } | null>(null);
  useEffect(() => {
    if (!workspaceId) return;
    const before = shownBefore.current?.workspaceId === workspaceId ? shownBefore.current.sections : null;
    shownBefore.current = { workspaceId, sections };
    for (const section of sections) if (!hasLive || (before && !before.includes(section))) void dispatch(loadSection(section));
  }, [dispatch, workspaceId, sections, hasLive]);
}

/** The scrolling part of the sidebar; marked while a page is dragged. */
function TreeScroll({ children }: { children: ReactNode }) {
  const dragging = useIsDragging();
  return <div className={dragging ? 'sidebar-scroll is-dragging' : 'sidebar-scroll'}>{children}</div>;
}

/** The sections the caller's role shows in the active workspace, each with its page tree, following other people's changes. */
export function SectionList({ report, onCreatingChild }: { report: (message: string) => void; onCreatingChild: (busy: boolean) => void }) {
  const dispatch = useAppDispatch();
  const workspace = useAppSelector(selectActiveWorkspace);
  const sections = useMemo(() => sectionsShown(workspace), [workspace]);
  const { create, busy } = useCreatePage(report);
  // The «+» buttons wait for every shown section's first read: the lists that come then move the
  // headers below them (a press would be let go beside its button, and make nothing), and a
  // section's own first read, answered after the new page was added, would drop it from the list.
  const read = useAppSelector((state) => sections.every((section) => selectSectionRead(state, section)));
  // The top level follows other people's changes (realtime); expanded rows listen to their children.
  const live = useLiveTree(workspace?.id, sections);
  useSectionLists(workspace?.id, sections);

  return (
    <TreeProvider report={report} onCreatingChild={onCreatingChild}>
      <LiveTreeContext.Provider value={live}>
        <TreeScroll>
          {sections.map((section) => (
            <Section
              key={section}
              section={section}
              canCreate={canCreateIn(section, workspace)}
              busy={busy || !read}
              onCreate={(kind = 'Note') => {
                if (!isRootSection(section)) return;
                if (kind === 'csv') return openCsvImport({ kind: 'new', place: { section } });
                dispatch(treeSectionToggled({ section, expanded: true }));
                void create(section, kind);
              }}
            />
          ))}
        </TreeScroll>
      </LiveTreeContext.Provider>
    </TreeProvider>
  );
}

import type { SectionId } from '../../../schema/constants';
import { canCreateInSection, visibleSections } from '../../../schema/policies/workspace';
import type { WireWorkspace } from '../../../schema/workspace';

/** The active workspace as the rules need it; none (not loaded yet) allows nothing. */
type WorkspaceLike = Pick<WireWorkspace, 'role' | 'private'> | null | undefined;

/** The sidebar's sections in this workspace (`visibleSections`, schema/policies/workspace.ts). */
export function sectionsShown(workspace: WorkspaceLike): SectionId[] {
  return workspace ? visibleSections(workspace.role, workspace.private) : [];
}

/** May the caller create a page in this section of the workspace (`canCreateInSection`)? */
export function canCreateIn(section: SectionId, workspace: WorkspaceLike): boolean {
  return !!workspace && canCreateInSection(workspace.role, section, workspace.private);
}

/** The section roots the caller may put new pages in (create, import, move to), private first. */
export function creatableRootSections(workspace: WorkspaceLike): Array<'private' | 'all'> {
  return (['private', 'all'] as const).filter((section) => canCreateIn(section, workspace));
}

import type { AppDispatch, RootState } from '../../app/store';
import { treeReset } from '../pages/pagesSlice';
import { workspaceSwitched } from './workspacesSlice';

/**
 * Makes another workspace the active one (API calls carry it; the sidebar shows its tree, read
 * again from scratch). Nothing happens for the active one, or for one the user is not in.
 */
export function switchWorkspace(id: string) {
  return (dispatch: AppDispatch, getState: () => RootState): boolean => {
    const { activeId, list } = getState().workspaces;
    if (id === activeId || !list.some((w) => w.id === id)) return false;
    dispatch(treeReset());
    dispatch(workspaceSwitched(id));
    return true;
  };
}

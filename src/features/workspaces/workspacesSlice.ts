import { createAsyncThunk, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { WireWorkspace } from '../../../schema/workspace';
import { api, setActiveWorkspace } from '../../app/api';
import type { RootState } from '../../app/store';

export interface WorkspacesState {
  list: WireWorkspace[];
  activeId: string | null;
  status: 'idle' | 'loading' | 'ready' | 'failed';
}

const initialState: WorkspacesState = { list: [], activeId: null, status: 'idle' };

export const loadWorkspaces = createAsyncThunk('workspaces/load', async () => {
  return (await api<WireWorkspace[]>('/api/v3/spaces/workspace')).data;
});

const workspacesSlice = createSlice({
  name: 'workspaces',
  initialState,
  reducers: {
    /** The sidebar's workspace switcher: later calls act in this workspace. */
    workspaceSwitched(state, action: PayloadAction<string>) {
      if (!state.list.some((w) => w.id === action.payload)) return;
      state.activeId = action.payload;
      setActiveWorkspace(action.payload);
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(loadWorkspaces.pending, (state) => {
        state.status = 'loading';
      })
      .addCase(loadWorkspaces.fulfilled, (state, action) => {
        state.list = action.payload;
        state.status = 'ready';
        if (!state.activeId || !action.payload.some((w) => w.id === state.activeId)) {
          state.activeId = action.payload[0]?.id ?? null;
        }
        setActiveWorkspace(state.activeId);
      })
      .addCase(loadWorkspaces.rejected, (state) => {
        state.status = 'failed';
      });
  },
});

export const workspacesReducer = workspacesSlice.reducer;
export const { workspaceSwitched } = workspacesSlice.actions;

export const selectActiveWorkspace = (state: RootState) =>
  state.workspaces.list.find((w) => w.id === state.workspaces.activeId) ?? null;

/* ---- Workspace settings (WorkspaceSettings.tsx): update, leave; the list is read again after each. ---- */

/**
 * Reads the list again and stores it as loadWorkspaces does, without its pending state (the shell
 * shows a spinner while the list is loading, which would close the settings).
 */
async function reloadList(dispatch: (action: unknown) => unknown) {
  const { data } = await api<WireWorkspace[]>('/api/v3/spaces/workspace');
  dispatch(loadWorkspaces.fulfilled(data, 'reload', undefined));
}

/** POST workspace/{id}: name and/or avatar (admins); then the list is read again. */
export const updateWorkspace = createAsyncThunk(
  'workspaces/update',
  async ({ id, patch }: { id: string; patch: { name?: string; avatar?: string | null } }, { dispatch }) => {
    const { data } = await api<WireWorkspace>(`/api/v3/spaces/workspace/${encodeURIComponent(id)}`, { method: 'POST', body: patch });
    await reloadList(dispatch);
    return data;
  },
);

/**
 * Leaves a workspace (members/remove with one's own id). The list is read again without it, and
 * the app switches to the first one left (loadWorkspaces does when the active one is gone).
 */
export const leaveWorkspace = createAsyncThunk('workspaces/leave', async ({ id, userId }: { id: string; userId: string }, { dispatch }) => {
  await api(`/api/v3/spaces/workspace/${encodeURIComponent(id)}/members/remove`, { method: 'POST', body: { userId } });
  await reloadList(dispatch);
  return id;
});

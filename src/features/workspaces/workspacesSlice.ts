import { createAsyncThunk, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { useEffect, useRef } from 'react';
import { useSelector } from 'react-redux';
import { wireWorkspaceSchema, type WireWorkspace } from '../../../schema/workspace';
import { api, setActiveWorkspace, toFailure } from '../../app/api';
import { startWorkspace } from '../../app/earlyStart';
import { apiThunk } from '../../app/apiThunk';
import type { RootState } from '../../app/store';
import { reportError } from '../../app/report';
import { signOut } from '../auth/authSlice';
import { fetchUserSettings, saveUserSetting, userSettingsLoaded } from '../settings/serverSettings';

export interface WorkspacesState {
  list: WireWorkspace[];
  activeId: string | null;
  status: 'idle' | 'loading' | 'ready' | 'failed';
  /** The workspace the user was last in (server setting `activeWorkspace`), taken when the list arrives. */
  remembered: string | null;
  /**
   * The first-run offer of the start-workspace wizard on home: `offer` for a user who was never
   * offered it (server setting `wizardOffered`) and has only the personal workspace; `done`
   * otherwise; `unknown` until the settings are read (or when they could not be).
   */
  startOffer: 'unknown' | 'offer' | 'done';
  /**
   * A first sign-in of someone invited into a team workspace (never offered the wizard, never in
   * a workspace before, more than their personal one): they land in the workspace they were
   * invited to last, and the shell says so once (`invitedLanding`).
   */
  invitedTo: string | null;
}

const initialState: WorkspacesState = { list: [], activeId: null, status: 'idle', remembered: null, startOffer: 'unknown', invitedTo: null };

/**
 * The workspace list as the server sent it, checked against the schema (spec §5: lists drop bad
 * items): an entry that does not match — nothing, no id, a role the client does not know (a
 * hidden one) — is dropped and reported, the rest kept.
 */
export function validWorkspaces(data: unknown): WireWorkspace[] {
  if (!Array.isArray(data)) {
    reportError('validation', { message: 'workspaces: the workspace list is not a list', data });
    return [];
  }
  return data.flatMap((raw) => {
    const parsed = wireWorkspaceSchema.safeParse(raw);
    if (parsed.success) return [parsed.data];
    reportError('validation', { message: 'workspaces: dropped a malformed workspace', id: (raw as { id?: unknown } | null)?.id, issues: parsed.error.issues });
    return [];
  });
}

/**
 * The user's workspaces, and with them their server settings: the workspace they were last in
 * (on any device) becomes the active one, and the UI settings follow (settings/uiSettings.ts).
 */
export const loadWorkspaces = createAsyncThunk('workspaces/load', async (_: void, { dispatch }) => {
  const [list, settings] = await Promise.all([api<unknown>('/api/v3/spaces/workspace'), fetchUserSettings()]);
  if (settings) dispatch(userSettingsLoaded(settings));
  return validWorkspaces(list.data);
});

const workspacesSlice = createSlice({
  name: 'workspaces',
  initialState,
  reducers: {
    /** The offer was answered («Пропустить», or the wizard opened from it). */
    startOfferDone(state) {
      state.startOffer = 'done';
    },
    /** The landing in the workspace one was invited to was said. */
    invitedLandingSaid(state) {
      state.invitedTo = null;
    },
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
      // Whoever signs in next gets their own list and settings (read again by the shell).
      .addCase(signOut.fulfilled, () => {
        setActiveWorkspace(null);
        return initialState;
      })
      .addCase(userSettingsLoaded, (state, action) => {
        state.remembered = action.payload.activeWorkspace;
        state.startOffer = action.payload.wizardOffered ? 'done' : 'offer';
      })
      .addCase(loadWorkspaces.fulfilled, (state, action) => {
        state.list = action.payload;
        state.status = 'ready';
        // The workspace the app opens (`startWorkspace`): the one last used, an invited person's
        // team on their first sign-in (then remembered as where they were brought: `invitedTo`),
        // else the first — unless one is active already (a page opened by its link chose it).
        const start = startWorkspace(action.payload, state.remembered, state.startOffer === 'offer');
        // Someone already in other workspaces is past their first run.
        if (state.startOffer === 'offer' && action.payload.length !== 1) state.startOffer = 'done';
        const remembered = state.remembered;
        state.remembered = null;
        if (remembered && start.id === remembered) {
          state.activeId = remembered;
        } else if (start.invited && !state.activeId) {
          state.activeId = start.id;
          state.invitedTo = state.activeId;
        } else if (!state.activeId || !action.payload.some((w) => w.id === state.activeId)) {
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
export const { workspaceSwitched, startOfferDone, invitedLandingSaid } = workspacesSlice.actions;

/**
 * Remembers the active workspace on the server whenever it changes (the switcher, a link to a
 * page of another workspace, the wizard, leaving one), so the next visit on any device opens it.
 * The one restored at start is not written back.
 */
export function useRememberActiveWorkspace(): void {
  const activeId = useSelector((state: RootState) => state.workspaces.activeId);
  const status = useSelector((state: RootState) => state.workspaces.status);
  const known = useRef<string | null | undefined>(undefined);
  useEffect(() => {
    if (status !== 'ready') return;
    if (known.current === undefined) {
      known.current = activeId;
      return;
    }
    if (activeId === known.current) return;
    known.current = activeId;
    if (activeId)
      saveUserSetting('activeWorkspace', activeId).catch((error: unknown) => reportError('settings', { message: 'the active workspace was not saved', error }));
  }, [activeId, status]);
}

export const selectActiveWorkspace = (state: RootState) => state.workspaces.list.find((w) => w.id === state.workspaces.activeId) ?? null;

/* ---- Workspace settings (WorkspaceSettings.tsx): update, leave; the list is read again after each. ---- */

/**
 * Reads the list again and stores it as loadWorkspaces does, without its pending state (the shell
 * shows a spinner while the list is loading, which would close the settings).
 */
async function reloadList(dispatch: (action: unknown) => unknown) {
  const { data } = await api<unknown>('/api/v3/spaces/workspace');
  dispatch(loadWorkspaces.fulfilled(validWorkspaces(data), 'reload', undefined));
}

/** POST workspace/{id}: name and/or avatar (admins); then the list is read again. */
export const updateWorkspace = apiThunk(
  'workspaces/update',
  async ({ id, patch }: { id: string; patch: { name?: string; avatar?: string | null } }, { dispatch, rejectWithValue }) => {
    try {
      const { data } = await api<WireWorkspace>(`/api/v3/spaces/workspace/${encodeURIComponent(id)}`, { method: 'POST', body: patch });
      await reloadList(dispatch);
      return data;
    } catch (error) {
      return rejectWithValue(toFailure(error));
    }
  },
);

/**
 * Leaves a workspace (members/remove with one's own id). The list is read again without it, and
 * the app switches to the first one left (loadWorkspaces does when the active one is gone).
 */
export const leaveWorkspace = apiThunk('workspaces/leave', async ({ id, userId }: { id: string; userId: string }, { dispatch, rejectWithValue }) => {
  try {
    await api(`/api/v3/spaces/workspace/${encodeURIComponent(id)}/members/remove`, { method: 'POST', body: { userId } });
    await reloadList(dispatch);
    return id;
  } catch (error) {
    return rejectWithValue(toFailure(error));
  }
});

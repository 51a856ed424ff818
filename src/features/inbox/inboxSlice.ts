import { createAsyncThunk, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { NOTIFICATION_FILTERS, wireNotificationSchema, type WireNotification } from '../../../schema/notification';
import { api, toFailure } from '../../app/api';
import type { ApiFailure } from '../../app/errors';
import type { RootState } from '../../app/store';
import { reportError } from '../../app/report';

export type InboxFilter = (typeof NOTIFICATION_FILTERS)[number];
export const INBOX_PAGE_SIZE = 30;

export interface InboxState {
  /** The list shown in the panel: which workspace and filter it is for, newest first. */
  items: WireNotification[];
  listKey: string | null;
  status: 'idle' | 'loading' | 'ready' | 'failed';
  nextCursor: string | null;
  loadingMore: boolean;
  /** Unread visible notifications per workspace (GET /api/notifications/counts). */
  counts: Record<string, number>;
  total: number;
  /** «Все пространства»: the panel lists every workspace's notifications, not only the active one's (for the visit). */
  allWorkspaces: boolean;
}

const initialState: InboxState = { items: [], listKey: null, status: 'idle', nextCursor: null, loadingMore: false, counts: {}, total: 0, allWorkspaces: false };

export const isInboxFilter = (value: unknown): value is InboxFilter => (NOTIFICATION_FILTERS as readonly unknown[]).includes(value);

/** Wire notifications checked against the schema; the ones that do not match are dropped and reported. */
export function parseNotifications(data: unknown): WireNotification[] {
  if (!Array.isArray(data)) {
    reportError('validation', { message: 'inbox: the notification list is not a list', data });
    return [];
  }
  return data.flatMap((raw) => {
    const parsed = wireNotificationSchema.safeParse(raw);
    if (parsed.success) return [parsed.data];
    reportError('validation', { message: 'inbox: dropped a malformed notification', id: (raw as { id?: unknown } | null)?.id, issues: parsed.error.issues });
    return [];
  });
}

const listKeyOf = (workspaceId: string | null, filter: InboxFilter) => `${workspaceId ?? ''}:${filter}`;
const query = (values: Record<string, unknown>) => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) if (value !== undefined && value !== null) params.set(key, JSON.stringify(value));
  return params.size ? `?${params}` : '';
};

export const loadUnreadCounts = createAsyncThunk('inbox/loadCounts', async () => {
  const { data, meta } = await api<Record<string, number>>('/api/notifications/counts');
  const counts: Record<string, number> = {};
  if (data && typeof data === 'object') for (const [id, n] of Object.entries(data)) if (typeof n === 'number' && n >= 0) counts[id] = n;
  return { counts, total: typeof meta?.total === 'number' ? meta.total : Object.values(counts).reduce((a, b) => a + b, 0) };
});

interface ListArgs {
  workspaceId: string | null;
  filter: InboxFilter;
  /** Load the next page after the current list instead of the first page. */
  more?: boolean;
}

export const loadNotifications = createAsyncThunk<
  { items: WireNotification[]; nextCursor: string | null; listKey: string; more: boolean },
  ListArgs,
  { state: RootState; rejectValue: ApiFailure }
>('inbox/load', async ({ workspaceId, filter, more = false }, { getState, rejectWithValue }) => {
  const cursor = more ? getState().inbox.nextCursor : null;
  try {
    const { data, meta } = await api<unknown[]>(
      `/api/notifications${query({ filter, workspaceId: workspaceId ?? undefined, limit: INBOX_PAGE_SIZE, cursor: cursor ?? undefined })}`,
    );
    const next = meta?.hasMoreNext && typeof meta.nextCursor === 'string' ? meta.nextCursor : null;
    return { items: parseNotifications(data), nextCursor: next, listKey: listKeyOf(workspaceId, filter), more };
  } catch (error) {
    return rejectWithValue(toFailure(error));
  }
});

/** Marks one notification read or unread; the list changes at once and goes back if the server refuses. */
export const setNotificationRead = createAsyncThunk<WireNotification | null, { id: string; read: boolean }, { rejectValue: ApiFailure }>(
  'inbox/setRead',
  async ({ id, read }, { dispatch, rejectWithValue }) => {
    try {
      const { data } = await api<unknown>(`/api/notifications/${encodeURIComponent(id)}/${read ? 'markIsRead' : 'markIsNotRead'}`, { method: 'POST' });
      return parseNotifications([data])[0] ?? null;
    } catch (error) {
      return rejectWithValue(toFailure(error));
    } finally {
      void dispatch(loadUnreadCounts());
    }
  },
);

export const markAllRead = createAsyncThunk<number, { workspaceId: string | null }, { rejectValue: ApiFailure }>(
  'inbox/markAllRead',
  async ({ workspaceId }, { dispatch, rejectWithValue }) => {
    try {
      const { data } = await api<{ count: number }>('/api/notifications/markIsRead', { method: 'POST', body: workspaceId ? { workspaceId } : {} });
      return data?.count ?? 0;
    } catch (error) {
      return rejectWithValue(toFailure(error));
    } finally {
      void dispatch(loadUnreadCounts());
    }
  },
);

export const removeNotification = createAsyncThunk<string, string, { rejectValue: ApiFailure }>('inbox/remove', async (id, { dispatch, rejectWithValue }) => {
  try {
    await api(`/api/notifications/${encodeURIComponent(id)}`, { method: 'DELETE' });
    return id;
  } catch (error) {
    return rejectWithValue(toFailure(error));
  } finally {
    void dispatch(loadUnreadCounts());
  }
});

export const removeAllNotifications = createAsyncThunk<number, { workspaceId: string | null }, { rejectValue: ApiFailure }>(
  'inbox/removeAll',
  async ({ workspaceId }, { dispatch, rejectWithValue }) => {
    try {
      const { data } = await api<{ count: number }>(`/api/notifications/all${query({ workspaceId: workspaceId ?? undefined })}`, { method: 'DELETE' });
      return data?.count ?? 0;
    } catch (error) {
      return rejectWithValue(toFailure(error));
    } finally {
      void dispatch(loadUnreadCounts());
    }
  },
);

/** Whether a notification belongs in the list under this filter. */
const fits = (filter: string | undefined, read: boolean) => filter !== (read ? 'unread' : 'read');
const filterOfKey = (key: string | null) => key?.slice(key.lastIndexOf(':') + 1);

const inboxSlice = createSlice({
  name: 'inbox',
  initialState,
  reducers: {
    /** Counts from elsewhere (a socket event, later). */
    unreadCountsSet(state, action: PayloadAction<{ counts: Record<string, number>; total?: number }>) {
      state.counts = action.payload.counts;
      state.total = action.payload.total ?? Object.values(action.payload.counts).reduce((a, b) => a + b, 0);
    },
    inboxReset() {
      return initialState;
    },
    allWorkspacesSet(state, action: PayloadAction<boolean>) {
      state.allWorkspaces = action.payload;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(loadUnreadCounts.fulfilled, (state, action) => {
        state.counts = action.payload.counts;
        state.total = action.payload.total;
      })
      .addCase(loadNotifications.pending, (state, action) => {
        const { workspaceId, filter, more } = action.meta.arg;
        if (more) {
          state.loadingMore = true;
          return;
        }
        const key = listKeyOf(workspaceId, filter);
        // A different list starts empty; the same list stays on screen while it refreshes.
        if (state.listKey !== key) {
          state.items = [];
          state.nextCursor = null;
          state.listKey = key;
          state.status = 'loading';
        } else if (state.status !== 'ready') state.status = 'loading';
      })
      .addCase(loadNotifications.fulfilled, (state, action) => {
        const { items, nextCursor, listKey, more } = action.payload;
        if (listKey !== state.listKey) return;
        if (more) {
          const known = new Set(state.items.map((n) => n.id));
          state.items.push(...items.filter((n) => !known.has(n.id)));
          state.loadingMore = false;
        } else state.items = items;
        state.nextCursor = nextCursor;
        state.status = 'ready';
      })
      .addCase(loadNotifications.rejected, (state, action) => {
        if (action.meta.arg.more) state.loadingMore = false;
        else if (listKeyOf(action.meta.arg.workspaceId, action.meta.arg.filter) === state.listKey && state.status !== 'ready') state.status = 'failed';
      })
      .addCase(setNotificationRead.pending, (state, action) => {
        const item = state.items.find((n) => n.id === action.meta.arg.id);
        if (item) item.is_read = action.meta.arg.read;
      })
      .addCase(setNotificationRead.fulfilled, (state, action) => {
        const filter = filterOfKey(state.listKey);
        const { id, read } = action.meta.arg;
        // Under «Непрочитанные» / «Прочитанные» the notification leaves the list once it no longer fits.
        if (!fits(filter, read)) state.items = state.items.filter((n) => n.id !== id);
        else if (action.payload) {
          const index = state.items.findIndex((n) => n.id === id);
          if (index >= 0) state.items[index] = action.payload;
        }
      })
      .addCase(setNotificationRead.rejected, (state, action) => {
        const { id, read } = action.meta.arg;
        // Gone (404: deleted, or the page is no longer ours): it leaves the list; anything else goes back.
        if (action.payload?.status === 404) state.items = state.items.filter((n) => n.id !== id);
        else {
          const item = state.items.find((n) => n.id === id);
          if (item) item.is_read = !read;
        }
      })
      .addCase(markAllRead.fulfilled, (state) => {
        if (filterOfKey(state.listKey) === 'unread') state.items = [];
        else for (const item of state.items) item.is_read = true;
      })
      .addCase(removeNotification.fulfilled, (state, action) => {
        state.items = state.items.filter((n) => n.id !== action.payload);
      })
      .addCase(removeNotification.rejected, (state, action) => {
        if (action.payload?.status === 404) state.items = state.items.filter((n) => n.id !== action.meta.arg);
      })
      .addCase(removeAllNotifications.fulfilled, (state) => {
        state.items = [];
        state.nextCursor = null;
      });
  },
});

export const inboxReducer = inboxSlice.reducer;
export const { unreadCountsSet, inboxReset, allWorkspacesSet } = inboxSlice.actions;

export const selectUnreadCounts = (state: RootState) => state.inbox.counts;
export const selectUnreadCount = (state: RootState, workspaceId: string | null | undefined) =>
  workspaceId ? (state.inbox.counts[workspaceId] ?? 0) : state.inbox.total;

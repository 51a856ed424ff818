import { createAsyncThunk, createEntityAdapter, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { SectionId } from '../../../schema/constants';
import { wireElementSchema, type WireElement } from '../../../schema/element';
import { api } from '../../app/api';
import type { RootState } from '../../app/store';

const pagesAdapter = createEntityAdapter<WireElement>();

export interface PagesState extends ReturnType<typeof pagesAdapter.getInitialState> {
  /** Root page ids per sidebar section, in order. */
  sections: Partial<Record<SectionId, string[]>>;
}

const initialState: PagesState = { ...pagesAdapter.getInitialState(), sections: {} };

/** Incoming pages are checked against the schema; one that does not match is dropped and reported. */
function validPages(pages: unknown[]): WireElement[] {
  return pages.flatMap((page) => {
    const result = wireElementSchema.safeParse(page);
    if (!result.success) console.warn('page dropped: it does not match the schema', result.error.issues);
    return result.success ? [result.data] : [];
  });
}

export const loadSection = createAsyncThunk('pages/loadSection', async (section: SectionId) => {
  const { data } = await api<unknown[]>(`/api/v3/spaces/section/${section}`);
  return { section, pages: validPages(data) };
});

/** Loads one page; errors keep their HTTP status (the screen picks not-found / no-access from it). */
export async function fetchPage(id: string): Promise<WireElement> {
  const { data } = await api<unknown>(`/api/v3/spaces/element/${encodeURIComponent(id)}`);
  return wireElementSchema.parse(data);
}

/** Optimistic: the page appears at once with a client id and goes away again if the server says no. */
export const createNote = createAsyncThunk(
  'pages/createNote',
  async ({ section, id }: { section: 'private' | 'all'; id: string }) => {
    const { data } = await api<unknown>(`/api/v3/spaces/section/${section}`, {
      method: 'POST',
      body: { id, type: 'Note', contentType: 'Element' },
    });
    return wireElementSchema.parse(data);
  },
);

export const renamePage = createAsyncThunk('pages/renamePage', async ({ id, title }: { id: string; title: string }) => {
  await api(`/api/v3/spaces/element/${encodeURIComponent(id)}`, { method: 'PATCH', body: { id, title } });
});

const pagesSlice = createSlice({
  name: 'pages',
  initialState,
  reducers: {
    /** The title as it is being typed (the server hears of it debounced). */
    pageLoaded(state, action: PayloadAction<WireElement>) {
      pagesAdapter.upsertOne(state, action.payload);
    },
    pageTitleEdited(state, action: PayloadAction<{ id: string; title: string }>) {
      pagesAdapter.updateOne(state, { id: action.payload.id, changes: { title: action.payload.title } });
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(loadSection.fulfilled, (state, action) => {
        pagesAdapter.upsertMany(state, action.payload.pages);
        state.sections[action.payload.section] = action.payload.pages.map((p) => p.id);
      })
      .addCase(createNote.pending, (state, action) => {
        const { id, section } = action.meta.arg;
        const now = new Date().toISOString();
        pagesAdapter.addOne(state, {
          id,
          contentType: 'Element',
          workspaceId: null,
          type: 'Note',
          title: '',
          icon: null,
          path: [],
          parentId: null,
          section,
          accessLevel: 'full',
          inFavorites: false,
          inTrash: false,
          isPublic: false,
          defaultLayoutId: null,
          cover: null,
          createdAt: now,
          updatedAt: now,
        });
        state.sections[section] = [...(state.sections[section] ?? []), id];
      })
      .addCase(createNote.fulfilled, (state, action) => {
        pagesAdapter.upsertOne(state, action.payload);
      })
      .addCase(createNote.rejected, (state, action) => {
        const { id, section } = action.meta.arg;
        pagesAdapter.removeOne(state, id);
        state.sections[section] = (state.sections[section] ?? []).filter((p) => p !== id);
      });
  },
});

export const pagesReducer = pagesSlice.reducer;
export const { pageLoaded, pageTitleEdited } = pagesSlice.actions;

const selectors = pagesAdapter.getSelectors((state: RootState) => state.pages);
export const selectPageById = selectors.selectById;
export const selectSectionPages = (state: RootState, section: SectionId): WireElement[] =>
  (state.pages.sections[section] ?? []).map((id) => state.pages.entities[id]).filter((p): p is WireElement => !!p);


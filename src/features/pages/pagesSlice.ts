import { createAsyncThunk, createEntityAdapter, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { PageType, SectionId } from '../../../schema/constants';
import { needsDefaultLayout, newElement, wireElementSchema, type WireElement } from '../../../schema/element';
import { api, toFailure, type RequestOptions, elementUrl } from '../../app/api';
import type { ApiFailure } from '../../app/errors';
import { apiThunk } from '../../app/apiThunk';
import type { RootState } from '../../app/store';
import { reportError } from '../../app/report';

const pagesAdapter = createEntityAdapter<WireElement>();

export interface PagesState extends ReturnType<typeof pagesAdapter.getInitialState> {
  /** Root page ids per sidebar section, in order. */
  sections: Partial<Record<SectionId, string[]>>;
  /** Child page ids per page, in order, once loaded (the sidebar loads them on first expand). */
  children: Record<string, string[]>;
  childrenStatus: Record<string, LoadStatus>;
  sectionStatus: Partial<Record<SectionId, LoadStatus>>;
  /**
   * Titles typed but not saved yet (pageTitleEdited until its renamePage answers): a tree list
   * read again meanwhile (realtime) keeps them instead of the server's older title.
   */
  typedTitles: Record<string, string>;
}

export type LoadStatus = 'loading' | 'ready' | 'failed';

const initialState: PagesState = { ...pagesAdapter.getInitialState(), sections: {}, children: {}, childrenStatus: {}, sectionStatus: {}, typedTitles: {} };

/**
 * Incoming pages (a section's, a page's children) as the spec's rules take them: one that does
 * not match the schema, one without a workspace (the fixed root sections are not pages here), a
 * data page that names no layout (`needsDefaultLayout`: a Widget or WidgetView) — each dropped and
 * reported, the rest kept.
 */
export function validPages(pages: unknown[]): WireElement[] {
  return pages.flatMap((page) => {
    const result = wireElementSchema.safeParse(page);
    if (!result.success) {
      reportError('validation', {
        message: 'page dropped: it does not match the schema',
        id: (page as { id?: unknown } | null)?.id,
        issues: result.error.issues,
      });
      return [];
    }
    if (!result.data.workspaceId) {
      reportError('validation', { message: 'page dropped: it has no workspace', id: result.data.id });
      return [];
    }
    if (needsDefaultLayout(result.data.type) && !result.data.defaultLayoutId) {
      reportError('validation', { message: `page dropped: a ${result.data.type} page names no layout`, id: result.data.id });
      return [];
    }
    return [result.data];
  });
}

export const loadSection = createAsyncThunk('pages/loadSection', async (section: SectionId) => {
  // «Доступные мне» lists what is shared with the user in every workspace of theirs (each page
  // carries its workspaceId; opening one switches to its workspace).
  const { data } = await api<unknown[]>(`/api/v3/spaces/section/${section}${section === 'shared' ? '?scope=%22all%22' : ''}`);
  return { section, pages: validPages(data) };
});

/** Loads one page; errors keep their HTTP status (the screen picks not-found / no-access from it). */
export async function fetchPage(id: string): Promise<WireElement> {
  const { data } = await api<unknown>(elementUrl(id));
  return wireElementSchema.parse(data);
}

/** Page types the sidebar creates (Widget and WidgetView need a layout of a database to show). */
export type CreatablePageType = Extract<PageType, 'Note' | 'Database' | 'Space' | 'Iframe'>;

/** What a page is made as: a type the sidebar offers, or a linked view (WidgetView) of a database's view `defaultLayoutId`. */
type NewPage = { id: string; title?: string } & ({ type?: CreatablePageType; defaultLayoutId?: undefined } | { type: 'WidgetView'; defaultLayoutId: string });

const newPageBody = ({ id, type = 'Note', title, defaultLayoutId }: NewPage) => ({
  id,
  type,
  contentType: 'Element',
  ...(title ? { title } : {}),
  ...(defaultLayoutId ? { defaultLayoutId } : {}),
});

/** Optimistic: the page appears at once with a client id and goes away again if the server says no. */
export const createNote = createAsyncThunk('pages/createNote', async ({ section, ...page }: NewPage & { section: 'private' | 'all' }) => {
  const { data } = await api<unknown>(`/api/v3/spaces/section/${section}`, { method: 'POST', body: newPageBody(page) });
  return wireElementSchema.parse(data);
});

export const renamePage = createAsyncThunk('pages/renamePage', async ({ id, title }: { id: string; title: string }) => {
  await api(elementUrl(id), { method: 'PATCH', body: { id, title } });
});

/** A page call whose answer is the page: checked against the schema; a failure is the thunk's ApiFailure. */
async function pageCall(path: string, options: RequestOptions, rejectWithValue: (value: ApiFailure) => unknown): Promise<WireElement> {
  try {
    const { data } = await api<unknown>(path, options);
    return wireElementSchema.parse(data);
  } catch (error) {
    throw rejectWithValue(toFailure(error));
  }
}

/* ---- The sidebar tree: children loaded on first expand, child pages, drag-and-drop moves. ---- */

/** Where a page sits in the tree: under a page (its id) or at the root of a section. */
export type TreeParent = string;
/** The sections that are the top level of the tree: pages are made and moved there (the others list links to pages). */
export type RootSection = Extract<SectionId, 'private' | 'all'>;
const ROOT_SECTIONS: readonly RootSection[] = ['private', 'all'];
export const isRootSection = (parent: TreeParent): parent is RootSection => (ROOT_SECTIONS as readonly string[]).includes(parent);

export const loadChildren = createAsyncThunk('pages/loadChildren', async (id: string) => {
  const { data } = await api<unknown[]>(`${elementUrl(id)}/children`);
  return validPages(data);
});

/** Optimistic: the child shows at once (last under its parent) and goes away again if the server says no. */
export const createChildPage = apiThunk('pages/createChildPage', ({ parentId, ...page }: NewPage & { parentId: string }, { rejectWithValue }) =>
  pageCall(`${elementUrl(parentId)}/children`, { method: 'POST', body: newPageBody(page) }, rejectWithValue),
);

/** The list a parent's children are kept in (undefined while not loaded). */
export function siblingsOf(state: PagesState, parent: TreeParent): string[] | undefined {
  return isRootSection(parent) ? state.sections[parent] : state.children[parent];
}

/** The tree place of a page as the store knows it: its parent and the sibling right before it. */
export function treePlaceOf(state: PagesState, id: string): { parent: TreeParent; placeAfter: string | null } | null {
  const page = state.entities[id];
  if (!page) return null;
  const parent = page.parentId ?? page.section;
  if (!parent) return null;
  const siblings = siblingsOf(state, parent) ?? [];
  const index = siblings.indexOf(id);
  return { parent, placeAfter: index > 0 ? siblings[index - 1] : null };
}

/**
 * Drag-and-drop: moves `id` under `dst` (a page, or the root of `private`/`all`) right after
 * `placeAfter` (null: first). Among its current siblings this is a reorder (POST placeAfter, which
 * needs edit); elsewhere a move (POST move, which needs full). Optimistic; on failure the page goes
 * back to where it was and the error is rethrown for the caller to explain.
 */
export const movePageInTree = apiThunk(
  'pages/movePageInTree',
  async ({ id, dst, placeAfter }: { id: string; dst: TreeParent; placeAfter: string | null }, { dispatch, getState, rejectWithValue }) => {
    const before = treePlaceOf((getState() as RootState).pages, id);
    dispatch(pagesSlice.actions.treeMoved({ id, parent: dst, placeAfter }));
    try {
      const url = elementUrl(id);
      const { data } =
        before?.parent === dst
          ? await api<unknown>(`${url}/placeAfter`, { method: 'POST', body: { placeAfter } })
          : await api<unknown>(`${url}/move`, { method: 'POST', body: { dst, placeAfter } });
      return wireElementSchema.parse(data);
    } catch (error) {
      if (before) dispatch(pagesSlice.actions.treeMoved({ id, parent: before.parent, placeAfter: before.placeAfter }));
      return rejectWithValue(toFailure(error));
    }
  },
);

/** Takes a page out of every tree list (section roots and children; favourites and shared are links and stay). */
function detachFromTree(state: PagesState, id: string) {
  for (const key of ROOT_SECTIONS) {
    const list = state.sections[key];
    if (list?.includes(id)) state.sections[key] = list.filter((p) => p !== id);
  }
  for (const [parent, list] of Object.entries(state.children)) {
    if (list.includes(id)) state.children[parent] = list.filter((p) => p !== id);
  }
}

/** Puts a page under `parent` after `placeAfter` (first when null or unknown), rewriting the paths below it. */
function attachToTree(state: PagesState, id: string, parent: TreeParent, placeAfter: string | null) {
  detachFromTree(state, id);
  const siblings = siblingsOf(state, parent);
  if (siblings) {
    const index = placeAfter ? siblings.indexOf(placeAfter) + 1 : 0;
    const next = [...siblings];
    next.splice(index, 0, id);
    if (isRootSection(parent)) state.sections[parent] = next;
    else state.children[parent] = next;
  }
  const page = state.entities[id];
  if (!page) return;
  const oldPrefix = [...page.path, id];
  const parentPage = isRootSection(parent) ? undefined : state.entities[parent];
  page.parentId = isRootSection(parent) ? null : parent;
  page.section = isRootSection(parent) ? parent : null;
  page.path = isRootSection(parent) ? [] : [...(parentPage?.path ?? []), parent];
  const newPrefix = [...page.path, id];
  for (const other of Object.values(state.entities)) {
    if (!other || other.id === id) continue;
    const at = other.path.indexOf(id);
    if (at >= 0 && other.path.slice(0, at + 1).join('/') === oldPrefix.join('/')) other.path = [...newPrefix, ...other.path.slice(at + 1)];
  }
}

/* ---- Page header and page menu: icon, cover, favourite, clone, trash, publish, move (PageMenu.tsx). ---- */

/** The fields the page header and menu change with PATCH element/{id} (one per request). */
export type PagePatch = { icon: string | null } | { cover: WireElement['cover'] } | { isPublic: boolean };

/** Optimistic PATCH: the change shows at once; on failure the page goes back to `previous`. */
export const patchPage = apiThunk('pages/patchPage', ({ id, patch }: { id: string; patch: PagePatch; previous: WireElement }, { rejectWithValue }) =>
  pageCall(elementUrl(id), { method: 'PATCH', body: { id, ...patch } }, rejectWithValue),
);

/** Favourite on or off (optimistic; rolled back on failure). */
export const setFavorite = apiThunk('pages/setFavorite', ({ id, on }: { id: string; on: boolean }, { rejectWithValue }) =>
  pageCall(`${elementUrl(id)}/${on ? 'addToFavorites' : 'removeFromFavorites'}`, { method: 'POST' }, rejectWithValue),
);

/**
 * Optimistic clone (spec §4): the copy (id chosen here) appears in the tree at once, under
 * `toElement` or at the end of the private section, and is removed again if the server says no.
 */
export const clonePage = apiThunk(
  'pages/clonePage',
  ({ source, id, toElement, workspaceId }: { source: WireElement; id: string; toElement: string | null; workspaceId: string }, { rejectWithValue }) =>
    pageCall(`${elementUrl(source.id)}/page/clone`, { method: 'POST', body: { id, workspaceId, toElement } }, rejectWithValue),
);

/** Moves a page (and what is below it) to the trash; it leaves the tree. */
export const trashPage = apiThunk('pages/trashPage', (id: string, { rejectWithValue }) => pageCall(elementUrl(id), { method: 'DELETE' }, rejectWithValue));

/** POST element/{id}/move: under a page or to a section root, first among its new siblings unless `placeAfter`. */
export const movePage = apiThunk(
  'pages/movePage',
  ({ id, dst, placeAfter = null }: { id: string; dst: string; placeAfter?: string | null }, { rejectWithValue }) =>
    pageCall(`${elementUrl(id)}/move`, { method: 'POST', body: { dst, placeAfter } }, rejectWithValue),
);

/** Pages of a tree list from the server; a title still being saved stays as typed. */
function upsertListed(state: PagesState, pages: WireElement[]) {
  pagesAdapter.upsertMany(state, pages);
  for (const page of pages) {
    const typed = state.typedTitles[page.id];
    const entity = state.entities[page.id];
    if (typed !== undefined && entity) entity.title = typed;
  }
}

/** A rename answered (saved or refused): the server's title counts again unless more was typed since. */
function renameAnswered(state: PagesState, { id, title }: { id: string; title: string }) {
  if (state.typedTitles[id] === title) delete state.typedTitles[id];
}

/** A page gone from the workspace's view (trashed, deleted for good, a clone that failed): out of the store and every list. */
function forgetPage(state: PagesState, id: string) {
  pagesAdapter.removeOne(state, id);
  for (const key of Object.keys(state.sections) as SectionId[]) {
    const list = state.sections[key];
    if (list?.includes(id)) state.sections[key] = list.filter((p) => p !== id);
  }
  detachFromTree(state, id);
}

const pagesSlice = createSlice({
  name: 'pages',
  initialState,
  reducers: {
    pageLoaded(state, action: PayloadAction<WireElement>) {
      pagesAdapter.upsertOne(state, action.payload);
    },
    /** Someone else changed a page's title, icon or cover (realtime); a title still being typed here stays. */
    pageChangedElsewhere(state, action: PayloadAction<{ id: string; title: string; icon: string | null; cover: unknown }>) {
      const { id, title, icon, cover } = action.payload;
      const typed = state.typedTitles[id];
      pagesAdapter.updateOne(state, { id, changes: { title: typed ?? title, icon, cover: cover as WireElement['cover'] } });
    },
    /** The title as it is being typed (the server hears of it debounced). */
    pageTitleEdited(state, action: PayloadAction<{ id: string; title: string }>) {
      pagesAdapter.updateOne(state, { id: action.payload.id, changes: { title: action.payload.title } });
      state.typedTitles[action.payload.id] = action.payload.title;
    },
    /** The optimistic part of movePageInTree (and its rollback). */
    treeMoved(state, action: PayloadAction<{ id: string; parent: TreeParent; placeAfter: string | null }>) {
      attachToTree(state, action.payload.id, action.payload.parent, action.payload.placeAfter);
    },
    /** Another workspace: the tree is read again from scratch. */
    treeReset() {
      return initialState;
    },
    /** A page left the tree (deleted for good from the trash). */
    pageRemoved(state, action: PayloadAction<string>) {
      forgetPage(state, action.payload);
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(renamePage.fulfilled, (state, action) => renameAnswered(state, action.meta.arg))
      .addCase(renamePage.rejected, (state, action) => renameAnswered(state, action.meta.arg))
      .addCase(loadSection.pending, (state, action) => {
        if (!state.sections[action.meta.arg]) state.sectionStatus[action.meta.arg] = 'loading';
      })
      .addCase(loadSection.fulfilled, (state, action) => {
        upsertListed(state, action.payload.pages);
        state.sections[action.payload.section] = action.payload.pages.map((p) => p.id);
        state.sectionStatus[action.payload.section] = 'ready';
      })
      .addCase(loadSection.rejected, (state, action) => {
        if (!state.sections[action.meta.arg]) state.sectionStatus[action.meta.arg] = 'failed';
      })
      .addCase(loadChildren.pending, (state, action) => {
        if (!state.children[action.meta.arg]) state.childrenStatus[action.meta.arg] = 'loading';
      })
      .addCase(loadChildren.fulfilled, (state, action) => {
        upsertListed(state, action.payload);
        state.children[action.meta.arg] = action.payload.map((p) => p.id);
        state.childrenStatus[action.meta.arg] = 'ready';
      })
      .addCase(loadChildren.rejected, (state, action) => {
        if (!state.children[action.meta.arg]) state.childrenStatus[action.meta.arg] = 'failed';
      })
      .addCase(createChildPage.pending, (state, action) => {
        const { id, parentId, type = 'Note', title = '', defaultLayoutId = null } = action.meta.arg;
        const parent = state.entities[parentId];
        pagesAdapter.addOne(
          state,
          newElement({
            id,
            type,
            title,
            defaultLayoutId,
            workspaceId: parent?.workspaceId ?? null,
            path: [...(parent?.path ?? []), parentId],
            parentId,
            accessLevel: parent?.accessLevel ?? 'edit',
          }),
        );
        state.children[parentId] = [...(state.children[parentId] ?? []), id];
      })
      .addCase(createChildPage.fulfilled, (state, action) => {
        pagesAdapter.upsertOne(state, action.payload);
      })
      .addCase(createChildPage.rejected, (state, action) => {
        const { id, parentId } = action.meta.arg;
        pagesAdapter.removeOne(state, id);
        state.children[parentId] = (state.children[parentId] ?? []).filter((p) => p !== id);
      })
      .addCase(movePageInTree.fulfilled, (state, action) => {
        pagesAdapter.upsertOne(state, action.payload);
      })
      .addCase(createNote.pending, (state, action) => {
        const { id, section, type = 'Note', title = '', defaultLayoutId = null } = action.meta.arg;
        pagesAdapter.addOne(state, newElement({ id, section, type, title, defaultLayoutId }));
        state.sections[section] = [...(state.sections[section] ?? []), id];
      })
      .addCase(createNote.fulfilled, (state, action) => {
        pagesAdapter.upsertOne(state, action.payload);
      })
      .addCase(createNote.rejected, (state, action) => {
        const { id, section } = action.meta.arg;
        pagesAdapter.removeOne(state, id);
        state.sections[section] = (state.sections[section] ?? []).filter((p) => p !== id);
      })
      .addCase(patchPage.pending, (state, action) => {
        pagesAdapter.updateOne(state, { id: action.meta.arg.id, changes: action.meta.arg.patch });
      })
      .addCase(patchPage.fulfilled, (state, action) => {
        // Only the field sent: another change (a cover still being debounced) is not overwritten.
        const field = Object.keys(action.meta.arg.patch)[0] as keyof PagePatch;
        pagesAdapter.updateOne(state, { id: action.payload.id, changes: { [field]: action.payload[field], updatedAt: action.payload.updatedAt } });
      })
      .addCase(patchPage.rejected, (state, action) => {
        const { id, patch, previous } = action.meta.arg;
        const field = Object.keys(patch)[0] as keyof PagePatch;
        pagesAdapter.updateOne(state, { id, changes: { [field]: previous[field] } });
      })
      .addCase(setFavorite.pending, (state, action) => {
        const { id, on } = action.meta.arg;
        pagesAdapter.updateOne(state, { id, changes: { inFavorites: on } });
        const favorites = state.sections.favorite;
        if (favorites) state.sections.favorite = on ? [...favorites.filter((p) => p !== id), id] : favorites.filter((p) => p !== id);
      })
      .addCase(setFavorite.fulfilled, (state, action) => {
        pagesAdapter.updateOne(state, { id: action.payload.id, changes: { inFavorites: action.payload.inFavorites } });
      })
      .addCase(setFavorite.rejected, (state, action) => {
        const { id, on } = action.meta.arg;
        pagesAdapter.updateOne(state, { id, changes: { inFavorites: !on } });
        const favorites = state.sections.favorite;
        if (favorites) state.sections.favorite = on ? favorites.filter((p) => p !== id) : [...favorites, id];
      })
      .addCase(clonePage.pending, (state, action) => {
        const { source, id, toElement, workspaceId } = action.meta.arg;
        const parent = toElement ? state.entities[toElement] : undefined;
        const now = new Date().toISOString();
        pagesAdapter.addOne(state, {
          ...source,
          id,
          workspaceId,
          path: toElement ? [...(parent?.path ?? []), toElement] : [],
          parentId: toElement,
          section: toElement ? null : 'private',
          accessLevel: toElement ? (parent?.accessLevel ?? source.accessLevel) : 'full',
          inFavorites: false,
          inTrash: false,
          isPublic: false,
          createdAt: now,
          updatedAt: now,
        });
        if (!toElement) state.sections.private = [...(state.sections.private ?? []), id];
        else if (state.children[toElement]) state.children[toElement] = [...state.children[toElement], id];
      })
      .addCase(clonePage.fulfilled, (state, action) => {
        pagesAdapter.upsertOne(state, action.payload);
      })
      .addCase(clonePage.rejected, (state, action) => forgetPage(state, action.meta.arg.id))
      .addCase(trashPage.fulfilled, (state, action) => forgetPage(state, action.payload.id))
      .addCase(movePage.fulfilled, (state, action) => {
        pagesAdapter.upsertOne(state, action.payload);
        const parent = action.payload.parentId ?? action.payload.section;
        if (parent) attachToTree(state, action.payload.id, parent, action.meta.arg.placeAfter ?? null);
      })
      // Signing out (auth/signOut, named by its type: the auth slice imports the editor, which
      // imports this): the next person signing in in this tab starts with none of these pages.
      .addMatcher(
        (action) => action.type === 'auth/signOut/fulfilled',
        () => initialState,
      );
  },
});

export const pagesReducer = pagesSlice.reducer;
export const { pageLoaded, pageChangedElsewhere, pageTitleEdited, treeMoved, treeReset, pageRemoved } = pagesSlice.actions;

const selectors = pagesAdapter.getSelectors((state: RootState) => state.pages);
export const selectPageById = selectors.selectById;
const NO_IDS: string[] = [];
/** Stable id lists for the tree (rows select their own page). */
export const selectSectionIds = (state: RootState, section: SectionId): string[] => state.pages.sections[section] ?? NO_IDS;
/** Whether a section's list is known (read, or made here) or its read failed: not while its first read is yet to come. */
export const selectSectionRead = (state: RootState, section: SectionId): boolean =>
  state.pages.sections[section] !== undefined || state.pages.sectionStatus[section] === 'failed';
export const selectChildIds = (state: RootState, id: string): string[] | undefined => state.pages.children[id];

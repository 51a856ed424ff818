import { wireElementSchema, type WireElement } from '../../../schema/element';
import type { ApiResponse } from '../../../schema/envelope';
import { serverApi } from '../../app/serverApi';
import { loadSection, pageLoaded, pageRemoved } from '../pages/pagesSlice';

export type TrashItem = WireElement & { trashedAt?: string };

/** One page of the trash's list, and the cursor of the next (null: the last). */
export interface TrashPage {
  items: TrashItem[];
  next: string | null;
}

function parsePages(data: unknown): TrashItem[] {
  if (!Array.isArray(data)) return [];
  return data.flatMap((item) => {
    const parsed = wireElementSchema.safeParse(item);
    return parsed.success ? [{ ...parsed.data, trashedAt: (item as { trashedAt?: string }).trashedAt }] : [];
  });
}

const trashUrl = (id: string, action: 'restore' | 'remove') => `/api/v3/spaces/trash/${encodeURIComponent(id)}/${action}`;

/**
 * The trash (docs/api/pages.md): its list by title, page after page, and the two ways out of it.
 * Restoring or deleting a page, from the dialog or from the page's banner, takes it out of every
 * list shown and puts the page back in (or out of) the sidebar's tree.
 */
export const trashApi = serverApi.injectEndpoints({
  endpoints: (build) => ({
    /** GET trash (`q`: a title's words); «Показать ещё» asks for the next page. */
    trash: build.infiniteQuery<TrashPage, string, string | null>({
      infiniteQueryOptions: {
        initialPageParam: null,
        getNextPageParam: (last) => last.next,
      },
      query: ({ queryArg: search, pageParam: cursor }) => {
        const params = new URLSearchParams();
        if (search) params.set('q', JSON.stringify(search));
        if (cursor) params.set('cursor', JSON.stringify(cursor));
        return `/api/v3/spaces/trash${params.size ? `?${params}` : ''}`;
      },
      transformResponse: (answer: ApiResponse<unknown>) => {
        const meta = answer.meta as { hasMoreNext?: boolean; nextCursor?: string } | undefined;
        return { items: parsePages(answer.data), next: meta?.hasMoreNext ? (meta.nextCursor ?? null) : null };
      },
      providesTags: ['Trash'],
    }),
    /** POST trash/{id}/restore: the page answered is back in the store and in the tree where it was. */
    restorePage: build.mutation<WireElement, string>({
      query: (id) => ({ path: trashUrl(id, 'restore'), method: 'POST' }),
      transformResponse: (answer: ApiResponse<unknown>) => wireElementSchema.parse(answer.data),
      async onQueryStarted(id, { dispatch, queryFulfilled }) {
        const { data: page } = await queryFulfilled.catch(() => ({ data: null }));
        if (!page) return;
        dispatch(leftTrash(id));
        dispatch(pageLoaded(page));
        void dispatch(loadSection('private'));
        void dispatch(loadSection('favorite'));
        if (page.section === 'all' || page.path.length > 0) void dispatch(loadSection('all'));
      },
    }),
    /** POST trash/{id}/remove: gone for good (full access). */
    deleteForever: build.mutation<unknown, string>({
      query: (id) => ({ path: trashUrl(id, 'remove'), method: 'POST' }),
      async onQueryStarted(id, { dispatch, queryFulfilled }) {
        if (!(await queryFulfilled.then(() => true).catch(() => false))) return;
        dispatch(leftTrash(id));
        dispatch(pageRemoved(id));
      },
    }),
  }),
});

/**
 * Takes a page out of every trash list kept (whatever was searched), without reading them again;
 * a list whose «Показать ещё» cursor was that page (the last one read) is read again, since the
 * server knows no cursor of a page no longer in the trash.
 */
function leftTrash(id: string) {
  return (dispatch: (action: unknown) => unknown, getState: () => unknown) => {
    const state = getState() as Parameters<typeof serverApi.util.selectInvalidatedBy>[0];
    let cursorGone = false;
    for (const entry of serverApi.util.selectInvalidatedBy(state, ['Trash'])) {
      if (entry.endpointName !== 'trash') continue;
      const search = entry.originalArgs as string;
      const kept = trashApi.endpoints.trash.select(search)(state).data;
      if (kept?.pages.some((page) => page.next?.split('::')[0] === id)) cursorGone = true;
      dispatch(
        trashApi.util.updateQueryData('trash', search, (draft) => {
          for (const page of draft.pages) page.items = page.items.filter((item) => item.id !== id);
        }),
      );
    }
    if (cursorGone) dispatch(serverApi.util.invalidateTags(['Trash']));
  };
}

export const { useTrashInfiniteQuery, useRestorePageMutation, useDeleteForeverMutation } = trashApi;

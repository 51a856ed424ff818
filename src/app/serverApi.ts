import { createApi, type BaseQueryFn } from '@reduxjs/toolkit/query/react';
import type { ApiResponse } from '../../schema/envelope';
import { wireNotificationSettingsSchema, type NotificationSettings } from '../../schema/notification';
import type { WireElementMember } from '../../schema/sharing';
import type { WorkspaceRole } from '../../schema/constants';
import type { MemberListOutcome, WireWorkspaceMember } from '../../schema/workspace';
import { api, toFailure, type RequestOptions, elementUrl } from './api';
import type { ApiFailure } from './errors';

/** A call as an endpoint names it: a GET path, or a path with the request's options. */
export type ServerCall = string | ({ path: string } & Pick<RequestOptions, 'method' | 'body'>);

/**
 * Every endpoint goes through `api()`: its headers (client and workspace ids), its prefetched
 * answers and the spec's retry of a 500/502 at most 3 times. A refusal is the serializable
 * ApiFailure (status, ErrorCode), which `errorMessage` words.
 */
const apiBaseQuery: BaseQueryFn<ServerCall, ApiResponse<unknown>, ApiFailure> = async (call, { signal }) => {
  const { path, ...options } = typeof call === 'string' ? { path: call } : call;
  try {
    return { data: await api<unknown>(path, { ...options, signal }) };
  } catch (error) {
    return { error: toFailure(error) };
  }
};

const workspaceUrl = (id: string) => `/api/v3/spaces/workspace/${encodeURIComponent(id)}`;
const settingsUrl = (pageId: string) => `/api/v3/spaces/notifications/${encodeURIComponent(pageId)}/settings`;

/** Members are read in pages of this many, at most this many pages (2,000 people). */
const MEMBERS_PAGE = 200;
const MEMBERS_PAGES = 10;

/** A page's member list as sharing answers it, with what member/add left out (`meta.skipped`). */
export interface PageMembersAnswer {
  members: WireElementMember[];
  meta: Record<string, unknown>;
}

/**
 * Server data the screens share, cached and kept fresh by tags (docs/web-app.md «Server data»):
 * a list is read once while anyone shows it (and for 20 s after), and a write that changes it
 * drops or replaces it, so every screen showing it follows.
 */
export const serverApi = createApi({
  reducerPath: 'serverApi',
  baseQuery: apiBaseQuery,
  tagTypes: ['WorkspaceMembers', 'PageMembers', 'NotificationSettings', 'Trash'],
  keepUnusedDataFor: 20,
  endpoints: (build) => ({
    /** All of a workspace's members (`GET workspace/{id}/members`, page by page). A guest gets 403. */
    workspaceMembers: build.query<WireWorkspaceMember[], string>({
      async queryFn(workspaceId, _api, _extra, call) {
        const all: WireWorkspaceMember[] = [];
        let cursor: unknown;
        for (let n = 0; n < MEMBERS_PAGES; n += 1) {
          const after = cursor === undefined ? '' : `&cursor=${encodeURIComponent(JSON.stringify(cursor))}`;
          const answer = await call(`${workspaceUrl(workspaceId)}/members?limit=${MEMBERS_PAGE}${after}`);
          if (answer.error) return { error: answer.error as ApiFailure };
          const { data, meta } = answer.data as ApiResponse<WireWorkspaceMember[]>;
          if (Array.isArray(data)) all.push(...data);
          cursor = meta?.hasMoreNext ? meta.nextCursor : undefined;
          if (cursor === undefined) break;
        }
        return { data: all };
      },
      providesTags: (_result, _error, workspaceId) => [{ type: 'WorkspaceMembers', id: workspaceId }],
    }),
    /** member/role: the list shows the role the answer gives. */
    setMemberRole: build.mutation<ApiResponse<unknown>, { workspaceId: string; userId: string; role: WorkspaceRole }>({
      query: ({ workspaceId, userId, role }) => ({ path: `${workspaceUrl(workspaceId)}/member/role`, method: 'POST', body: { userId, role } }),
      async onQueryStarted({ workspaceId, userId, role }, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (!data) return;
        const given = (data.data as { role?: WorkspaceRole } | null)?.role ?? role;
        dispatch(
          serverApi.util.updateQueryData('workspaceMembers', workspaceId, (list) => {
            for (const member of list) if (member.id === userId) member.role = given;
          }),
        );
      },
    }),
    /** members/remove: gone from the list; their grants on pages go with them, so page member lists are read again. */
    removeMember: build.mutation<unknown, { workspaceId: string; userId: string }>({
      query: ({ workspaceId, userId }) => ({ path: `${workspaceUrl(workspaceId)}/members/remove`, method: 'POST', body: { userId } }),
      async onQueryStarted({ workspaceId, userId }, { dispatch, queryFulfilled }) {
        if (!(await queryFulfilled.then(() => true).catch(() => false))) return;
        dispatch(serverApi.util.updateQueryData('workspaceMembers', workspaceId, (list) => list.filter((member) => member.id !== userId)));
      },
      invalidatesTags: (_result, error) => (error ? [] : ['PageMembers']),
    }),
    /** members/add; the answer's `meta.added` names who was added. The list is read again (the answer names the invited by e-mail only). */
    addMembers: build.mutation<ApiResponse<unknown>, { workspaceId: string; members: { email: string; role: WorkspaceRole }[] }>({
      query: ({ workspaceId, members }) => ({ path: `${workspaceUrl(workspaceId)}/members/add`, method: 'POST', body: { members } }),
      invalidatesTags: (_result, _error, { workspaceId }) => [{ type: 'WorkspaceMembers', id: workspaceId }],
    }),

    /** members/add_list: a pasted or CSV list of e-mails with one role; the list is read again. */
    addMemberList: build.mutation<ApiResponse<MemberListOutcome>, { workspaceId: string; emails: string[]; role: WorkspaceRole }>({
      query: ({ workspaceId, emails, role }) => ({ path: `${workspaceUrl(workspaceId)}/members/add_list`, method: 'POST', body: { emails, role } }),
      invalidatesTags: (_result, _error, { workspaceId }) => [{ type: 'WorkspaceMembers', id: workspaceId }],
    }),

    /** The people with a grant on a page, its own or inherited (`GET element/{id}/members`). */
    pageMembers: build.query<WireElementMember[], string>({
      query: (pageId) => `${elementUrl(pageId)}/members`,
      transformResponse: (answer: ApiResponse<WireElementMember[]>) => answer.data ?? [],
      providesTags: (_result, _error, pageId) => [{ type: 'PageMembers', id: pageId }],
    }),
    /**
     * A sharing write (member/add, member/access, member/remove): its answer is the page's new
     * list, put in place at once; the lists of other pages are read again, since a grant is
     * inherited by the pages below.
     */
    changePageMembers: build.mutation<PageMembersAnswer, { pageId: string; action: 'member/add' | 'member/access' | 'member/remove'; body: unknown }>({
      query: ({ pageId, action, body }) => ({ path: `${elementUrl(pageId)}/${action}`, method: 'POST', body }),
      transformResponse: (answer: ApiResponse<WireElementMember[]>) => ({ members: answer.data ?? [], meta: answer.meta ?? {} }),
      async onQueryStarted({ pageId }, { dispatch, getState, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (!data) return;
        // A read of the list begun before the write would land after it with the older list.
        await dispatch(serverApi.util.getRunningQueryThunk('pageMembers', pageId));
        dispatch(serverApi.util.upsertQueryData('pageMembers', pageId, data.members));
        const others = serverApi.util
          .selectInvalidatedBy(getState(), ['PageMembers'])
          .filter((entry) => entry.originalArgs !== pageId)
          .map((entry) => ({ type: 'PageMembers' as const, id: entry.originalArgs as string }));
        if (others.length) dispatch(serverApi.util.invalidateTags(others));
      },
    }),

    /** Which notifications about a page the user gets. */
    notificationSettings: build.query<NotificationSettings, string>({
      query: (pageId) => settingsUrl(pageId),
      transformResponse: (answer: ApiResponse<unknown>) => wireNotificationSettingsSchema.parse(answer.data).settings,
      providesTags: (_result, _error, pageId) => [{ type: 'NotificationSettings', id: pageId }],
    }),
    /** One switch, shown at once; a refusal puts it back (the caller says why). */
    setNotificationSetting: build.mutation<NotificationSettings, { pageId: string; kind: keyof NotificationSettings; value: boolean }>({
      query: ({ pageId, kind, value }) => ({
        path: settingsUrl(pageId),
        method: 'POST',
        body: { contentType: 'ElementNotificationSettings', settings: { [kind]: value } },
      }),
      transformResponse: (answer: ApiResponse<unknown>) => wireNotificationSettingsSchema.parse(answer.data).settings,
      async onQueryStarted({ pageId, kind, value }, { dispatch, queryFulfilled }) {
        const shown = dispatch(
          serverApi.util.updateQueryData('notificationSettings', pageId, (settings) => {
            settings[kind] = value;
          }),
        );
        try {
          const { data } = await queryFulfilled;
          // A read begun before the write would land after it with the older settings.
          await dispatch(serverApi.util.getRunningQueryThunk('notificationSettings', pageId));
          dispatch(serverApi.util.upsertQueryData('notificationSettings', pageId, data));
        } catch {
          shown.undo();
        }
      },
    }),
  }),
});

export const {
  useWorkspaceMembersQuery,
  useSetMemberRoleMutation,
  useRemoveMemberMutation,
  useAddMembersMutation,
  useAddMemberListMutation,
  usePageMembersQuery,
  useChangePageMembersMutation,
  useNotificationSettingsQuery,
  useSetNotificationSettingMutation,
} = serverApi;

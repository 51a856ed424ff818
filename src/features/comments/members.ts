import { skipToken } from '@reduxjs/toolkit/query/react';
import { useEffect, useMemo, useState } from 'react';
import { wireUserSchema, type WireUser } from '../../../schema/user';
import { usePageMembersQuery, useWorkspaceMembersQuery } from '../../app/serverApi';
import { userLookup } from './userLookup';

/** The people of a member list (a workspace's or a page's), those the schema takes. */
function users(list: readonly { user: unknown }[] | undefined): WireUser[] {
  return (list ?? []).flatMap((item) => {
    const parsed = wireUserSchema.safeParse(item.user);
    return parsed.success ? [parsed.data] : [];
  });
}

/**
 * The people who can be mentioned on a page, read while the composer is shown: the workspace's
 * members (`GET workspace/{id}/members`, shared with the other screens that list them: `serverApi`);
 * a guest may not list those (403), so then the people with a grant on the page (`GET element/{id}/members`).
 */
export function useMentionable(workspaceId: string | null, pageId: string, enabled: boolean): WireUser[] {
  // Once asked for, kept while the page is shown (a chosen mention still needs its person).
  const [wanted, setWanted] = useState(enabled);
  if (enabled && !wanted) setWanted(true);
  enabled = enabled || wanted;
  const workspace = useWorkspaceMembersQuery(enabled && workspaceId ? workspaceId : skipToken);
  const fallBack = enabled && (!workspaceId || workspace.isError);
  const page = usePageMembersQuery(fallBack ? pageId : skipToken);
  const list = useMemo(() => (fallBack ? users(page.data) : users(workspace.data)), [fallBack, page.data, workspace.data]);
  useEffect(() => userLookup.prime(list), [list]);
  return list;
}

/** A workspace's members as people (none for a guest, who may not list them; none without a workspace). */
export function useWorkspaceUsers(workspaceId: string | undefined): WireUser[] {
  const { data } = useWorkspaceMembersQuery(workspaceId ?? skipToken);
  return useMemo(() => users(data), [data]);
}

import { skipToken } from '@reduxjs/toolkit/query/react';
import { useEffect, useMemo, useState } from 'react';
import { wireUserSchema, type WireUser } from '../../../schema/user';
import { usePageMembersQuery, useWorkspaceMembersQuery } from '../../app/serverApi';
import { userLookup } from './userLookup';

/** Member lists are read again when a screen that shows them mounts and they are older than this (seconds): people join. */
const FRESH = { refetchOnMountOrArgChange: 20 };

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
  // A workspace whose members were refused (a guest's) is not asked again: its page's people serve.
  const [pageOnlyIn, setPageOnlyIn] = useState<string | null>(null);
  const pageOnly = !workspaceId || pageOnlyIn === workspaceId;
  const workspace = useWorkspaceMembersQuery(enabled && !pageOnly ? workspaceId : skipToken, FRESH);
  if (workspace.isError && workspaceId && !pageOnly) setPageOnlyIn(workspaceId);
  const page = usePageMembersQuery(enabled && pageOnly ? pageId : skipToken, FRESH);
  // currentData: this workspace's or page's list, never the one asked for before.
  const list = useMemo(() => users(pageOnly ? page.currentData : workspace.currentData), [pageOnly, page.currentData, workspace.currentData]);
  useEffect(() => userLookup.prime(list), [list]);
  return list;
}

/**
 * A workspace's members as people (none for a guest, who may not list them; none without a
 * workspace; none while another's are read). Read again when shown and older than 20 s, or each
 * time a dialog shows them (`everyTime`).
 */
export function useWorkspaceUsers(workspaceId: string | null | undefined, everyTime = false): WireUser[] {
  const { currentData } = useWorkspaceMembersQuery(workspaceId ?? skipToken, everyTime ? { refetchOnMountOrArgChange: true } : FRESH);
  return useMemo(() => users(currentData), [currentData]);
}

/**
 * A workspace's admins as people (the spec's virtual group «admins»): read from the same member
 * list as `useWorkspaceUsers` (none for a guest, who may not list them).
 */
export function useWorkspaceAdmins(workspaceId: string | null | undefined, everyTime = false): WireUser[] {
  const { currentData } = useWorkspaceMembersQuery(workspaceId ?? skipToken, everyTime ? { refetchOnMountOrArgChange: true } : FRESH);
  return useMemo(() => users((currentData ?? []).filter((member) => member.role === 'admin')), [currentData]);
}

import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { z } from 'zod';
import { caretSchema, type Caret, type PresenceMember } from '../../../schema/realtime';
import { reportError } from '../../app/report';

/** Someone on a page as the `online:` channel sends them (a caret that is not one is no caret). */
const presenceMemberSchema = z.object({
  clientId: z.string().min(1),
  userId: z.string().min(1),
  name: z.string(),
  avatar: z.string().nullable(),
  color: z.string(),
  caret: caretSchema.catch(null),
}) satisfies z.ZodType<PresenceMember>;

/** One member from the channel, or null (reported) when it is not one. */
export function validMember(raw: unknown): PresenceMember | null {
  const parsed = presenceMemberSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  reportError('validation', {
    message: 'presence: dropped a malformed member',
    clientId: (raw as { clientId?: unknown } | null)?.clientId,
    issues: parsed.error.issues,
  });
  return null;
}

/** The members of a join's answer (spec §5: lists drop bad items): those that are not a member are dropped and reported, the rest kept. */
export function validMembers(raw: unknown): PresenceMember[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) {
    reportError('validation', { message: 'presence: the member list is not a list', data: raw });
    return [];
  }
  return raw.map(validMember).filter((member): member is PresenceMember => member !== null);
}

/**
 * Who else is on each open page (the `online:{pageId}` channel, docs/realtime.md) and where their
 * carets are. One entry per connection (a person with two tabs is two members); this tab's own
 * connection is never stored. The list is replaced by every join answer (after a reconnect too)
 * and emptied while the connection is down: nobody is shown who may have left unseen.
 */
export interface PresenceState {
  pages: Record<string, { members: PresenceMember[] }>;
}

const initialState: PresenceState = { pages: {} };

export const presenceSlice = createSlice({
  name: 'presence',
  initialState,
  reducers: {
    /** The join answer: everyone there now (`self`: this tab's client id, left out). */
    presenceJoined(state, action: PayloadAction<{ pageId: string; members: PresenceMember[]; self: string }>) {
      const { pageId, members, self } = action.payload;
      const seen = new Set<string>();
      state.pages[pageId] = {
        members: members.filter((m) => m.clientId !== self && !seen.has(m.clientId) && seen.add(m.clientId)),
      };
    },
    /** Someone came (or came back: the same connection joined again and keeps its place). */
    memberJoined(state, action: PayloadAction<{ pageId: string; member: PresenceMember; self: string }>) {
      const { pageId, member, self } = action.payload;
      const page = state.pages[pageId];
      if (!page || member.clientId === self) return;
      const at = page.members.findIndex((m) => m.clientId === member.clientId);
      if (at >= 0) page.members[at] = member;
      else page.members.push(member);
    },
    memberLeft(state, action: PayloadAction<{ pageId: string; clientId: string }>) {
      const page = state.pages[action.payload.pageId];
      if (page) page.members = page.members.filter((m) => m.clientId !== action.payload.clientId);
    },
    caretMoved(state, action: PayloadAction<{ pageId: string; clientId: string; caret: Caret }>) {
      const member = state.pages[action.payload.pageId]?.members.find((m) => m.clientId === action.payload.clientId);
      if (member) member.caret = action.payload.caret;
    },
    /** The connection dropped, or access to the page went: nobody is known to be there. */
    presenceCleared(state, action: PayloadAction<{ pageId: string }>) {
      if (state.pages[action.payload.pageId]) state.pages[action.payload.pageId] = { members: [] };
    },
    /** The page was closed. */
    presenceLeft(state, action: PayloadAction<{ pageId: string }>) {
      delete state.pages[action.payload.pageId];
    },
  },
});

export const { presenceJoined, memberJoined, memberLeft, caretMoved, presenceCleared, presenceLeft } = presenceSlice.actions;
export const presenceReducer = presenceSlice.reducer;

const NOBODY: PresenceMember[] = [];

/** The other connections on a page (a stable empty list when none). */
export const selectPresenceMembers = (state: { presence: PresenceState }, pageId: string): PresenceMember[] => state.presence.pages[pageId]?.members ?? NOBODY;

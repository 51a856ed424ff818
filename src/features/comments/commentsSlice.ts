import { createAsyncThunk, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { wireCommentSchema, type CommentAttach, type CommentToken, type WireComment } from '../../../schema/comment';
import type { ApiResponse } from '../../../schema/envelope';
import { api, elementUrl } from '../../app/api';
import { failureIn, type FailureReason } from '../../app/errors';
import type { RootState } from '../../app/store';
import { userLookup } from './userLookup';
import { reportError } from '../../app/report';

/** Why a comment call failed, as the panel explains it. */
export type CommentsErrorKind = 'unauthorized' | 'forbidden' | 'notFound' | 'inTrash' | 'invalid' | 'reactionLimit' | 'network' | 'generic';

/** A comment call's failures by the server's code (or its status's), as the panel explains them. */
const COMMENTS_ERRORS: Partial<Record<FailureReason, CommentsErrorKind>> = {
  network: 'network',
  unauthorized: 'unauthorized',
  forbidden: 'forbidden',
  not_found: 'notFound',
  'page.in_trash': 'inTrash',
  'comment.reaction_limit': 'reactionLimit',
  validation_failed: 'invalid',
  bad_request: 'invalid',
};

export const commentsErrorKind = (error: unknown): CommentsErrorKind => failureIn(error, COMMENTS_ERRORS, 'generic');

/** A comment from the server, checked against the wire schema; a malformed one is dropped with a warning. */
export function parseComment(raw: unknown): WireComment | null {
  const parsed = wireCommentSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  reportError('validation', { message: 'comments: dropped a malformed comment', id: (raw as { id?: unknown } | null)?.id, issues: parsed.error.issues });
  return null;
}

export function parseComments(raw: unknown): WireComment[] {
  if (!Array.isArray(raw)) {
    reportError('validation', { message: 'comments: expected a list of comments' });
    return [];
  }
  return raw.map(parseComment).filter((c): c is WireComment => c !== null);
}

export interface CommentsState {
  pageId: string | null;
  byId: Record<string, WireComment>;
  /** Top-level comments of the page, oldest first. */
  topIds: string[];
  /** Loaded direct replies per comment, oldest first (absent: not loaded). */
  replies: Record<string, string[]>;
  status: 'idle' | 'loading' | 'ready' | 'failed';
  loadError: CommentsErrorKind | null;
  repliesStatus: Record<string, 'loading' | 'ready' | 'failed'>;
  /** The panel is open (kept here so it survives the page screen being mounted again, e.g. on a layout switch). */
  panelOpen: boolean;
}

const initialState: CommentsState = { pageId: null, byId: {}, topIds: [], replies: {}, status: 'idle', loadError: null, repliesStatus: {}, panelOpen: false };

const PAGE_SIZE = 200;
/** Lists are read to the end, page by page, up to this many pages. */
const MAX_PAGES = 25;

const q = (value: unknown) => encodeURIComponent(JSON.stringify(value));

async function readAll(path: string): Promise<WireComment[]> {
  const out: WireComment[] = [];
  let cursor: string | null = null;
  for (let n = 0; n < MAX_PAGES; n += 1) {
    const answer: ApiResponse<unknown> = await api<unknown>(`${path}?limit=${PAGE_SIZE}${cursor ? `&cursor=${q(cursor)}` : ''}`);
    out.push(...parseComments(answer.data));
    const next: string | undefined = answer.meta.hasMoreNext ? (answer.meta.nextCursor as string | undefined) : undefined;
    if (!next) break;
    cursor = next;
  }
  userLookup.prime(out.map((c) => c.author));
  return out;
}

type Rejected = { rejectValue: CommentsErrorKind };

function answerComment(raw: unknown): WireComment {
  const comment = parseComment(raw);
  if (!comment) throw new Error('malformed comment');
  userLookup.prime([comment.author]);
  return comment;
}

/** A thunk whose failures arrive as a CommentsErrorKind. */
function commentThunk<R, A>(type: string, run: (arg: A) => Promise<R>) {
  return createAsyncThunk<R, A, Rejected>(type, async (arg, { rejectWithValue }) => {
    try {
      return await run(arg);
    } catch (error) {
      return rejectWithValue(commentsErrorKind(error));
    }
  });
}

/** The page's top-level comments (GET element/{id}/comments, every page of the list). */
export const loadComments = commentThunk('comments/load', (pageId: string) => readAll(`${elementUrl(pageId)}/comments`));

/** The direct replies to a comment (GET comment/{id}/comments). */
export const loadReplies = commentThunk('comments/loadReplies', (commentId: string) => readAll(`/api/v3/spaces/comment/${commentId}/comments`));

export interface WriteArgs {
  pageId: string;
  content: CommentToken[];
  attaches: CommentAttach[];
  repliedComment?: string | null;
}

export const createComment = commentThunk('comments/create', async (args: WriteArgs) => {
  const body = { content: args.content, attaches: args.attaches, repliedComment: args.repliedComment ?? null };
  return answerComment((await api<unknown>(`${elementUrl(args.pageId)}/comments`, { method: 'POST', body })).data);
});

export interface EditArgs {
  pageId: string;
  commentId: string;
  content: CommentToken[];
  attaches: CommentAttach[];
}

export const editComment = commentThunk('comments/edit', async (args: EditArgs) => {
  const body = { content: args.content, attaches: args.attaches };
  return answerComment((await api<unknown>(`${elementUrl(args.pageId)}/comments/${args.commentId}`, { method: 'POST', body })).data);
});

interface DeleteAnswer {
  id: string;
  comment: unknown;
  removedIds: string[];
}

export interface Deletion {
  id: string;
  comment: WireComment | null;
  removedIds: string[];
}

export const deleteComment = commentThunk('comments/delete', async (args: { pageId: string; commentId: string }): Promise<Deletion> => {
  const { data } = await api<DeleteAnswer>(`${elementUrl(args.pageId)}/comments/${args.commentId}`, { method: 'DELETE' });
  return {
    id: args.commentId,
    comment: data.comment ? parseComment(data.comment) : null,
    removedIds: Array.isArray(data.removedIds) ? data.removedIds : [args.commentId],
  };
});

export const toggleReaction = commentThunk('comments/reaction', async (args: { commentId: string; code: string; on: boolean }) => {
  const path = `/api/v3/spaces/comment/${args.commentId}/reaction`;
  const answer = args.on
    ? await api<unknown>(path, { method: 'POST', body: { code: args.code } })
    : await api<unknown>(`${path}?code=${q(args.code)}`, { method: 'DELETE' });
  return answerComment(answer.data);
});

function upsert(state: CommentsState, comment: WireComment) {
  state.byId[comment.id] = comment;
  if (comment.parent.type === 'page') {
    if (!state.topIds.includes(comment.id)) state.topIds.push(comment.id);
  } else {
    const list = state.replies[comment.parent.id];
    if (list && !list.includes(comment.id)) list.push(comment.id);
  }
}

/**
 * Takes a comment out of the lists; its parent loses a reply, and a deleted parent left
 * without replies goes too (spec §4: a deleted comment whose last reply is removed is dropped).
 */
function remove(state: CommentsState, id: string) {
  const comment = state.byId[id];
  if (!comment) return;
  delete state.byId[id];
  delete state.replies[id];
  delete state.repliesStatus[id];
  state.topIds = state.topIds.filter((x) => x !== id);
  if (comment.parent.type !== 'comment') return;
  const parentId = comment.parent.id;
  if (state.replies[parentId]) state.replies[parentId] = state.replies[parentId].filter((x) => x !== id);
  const parent = state.byId[parentId];
  if (!parent) return;
  parent.countReplies = Math.max(0, parent.countReplies - 1);
  if (parent.isDeleted && parent.countReplies === 0) remove(state, parentId);
}

const commentsSlice = createSlice({
  name: 'comments',
  initialState,
  reducers: {
    /** Forgets another page's comments. */
    commentsReset(state, action: PayloadAction<string | null>) {
      return { ...initialState, pageId: action.payload, panelOpen: state.panelOpen };
    },
    commentsPanelOpened(state, action: PayloadAction<boolean>) {
      state.panelOpen = action.payload;
    },
    /** Applies a delete answer (also used by tests). */
    commentDeleted(state, action: PayloadAction<Deletion>) {
      const { id, comment, removedIds } = action.payload;
      if (comment) {
        // Kept as deleted: it still has replies.
        state.byId[comment.id] = comment;
        return;
      }
      for (const removed of removedIds.length ? removedIds : [id]) remove(state, removed);
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(loadComments.pending, (state) => {
        state.status = 'loading';
        state.loadError = null;
      })
      .addCase(loadComments.fulfilled, (state, action) => {
        state.status = 'ready';
        state.topIds = [];
        for (const comment of action.payload) upsert(state, comment);
      })
      .addCase(loadComments.rejected, (state, action) => {
        state.status = 'failed';
        state.loadError = action.payload ?? 'generic';
      })
      .addCase(loadReplies.pending, (state, action) => {
        state.repliesStatus[action.meta.arg] = 'loading';
      })
      .addCase(loadReplies.fulfilled, (state, action) => {
        const parentId = action.meta.arg;
        state.repliesStatus[parentId] = 'ready';
        state.replies[parentId] = [];
        for (const comment of action.payload) upsert(state, comment);
        const parent = state.byId[parentId];
        if (parent) parent.countReplies = action.payload.length;
      })
      .addCase(loadReplies.rejected, (state, action) => {
        state.repliesStatus[action.meta.arg] = 'failed';
      })
      .addCase(createComment.fulfilled, (state, action) => {
        const comment = action.payload;
        if (comment.parent.type === 'comment') {
          const parent = state.byId[comment.parent.id];
          if (parent) {
            if (!state.replies[parent.id] && parent.countReplies === 0) state.replies[parent.id] = [];
            if (!state.replies[parent.id]?.includes(comment.id)) parent.countReplies += 1;
          }
        }
        upsert(state, comment);
      })
      .addCase(editComment.fulfilled, (state, action) => {
        upsert(state, action.payload);
      })
      .addCase(toggleReaction.fulfilled, (state, action) => {
        upsert(state, action.payload);
      })
      .addCase(deleteComment.fulfilled, (state, action) => {
        commentsSlice.caseReducers.commentDeleted(state, { type: 'comments/commentDeleted', payload: action.payload });
      });
  },
});

export const { commentsReset, commentDeleted, commentsPanelOpened } = commentsSlice.actions;
export const commentsReducer = commentsSlice.reducer;

export const selectComment = (state: RootState, id: string | null | undefined) => (id ? state.comments.byId[id] : undefined);

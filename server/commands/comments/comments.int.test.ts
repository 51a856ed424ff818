import { COMMENT_LIMITS, type CommentToken } from '../../../schema/comment';
import { newId } from '../../../schema/ids';
import { findComment } from '../../repositories/comments';
import { refusal } from '../../../test/helpers/refusal';
import { countRows, type TestApp } from '../../../test/helpers/testApp';
import { createTeamApp, type Team } from '../../../test/helpers/team';
import { trashPage } from '../pages/trash';
import { deleteComment, editComment, reactToComment, unreactToComment, writeComment } from './comments';
import { eventsOf } from '../../events/events';

/*
 * The comment commands called as a handler calls them, on a real database (both kinds): what each
 * allows, what it refuses with which status and code, and that a refusal changes nothing. The HTTP
 * side (validation, presenting, realtime) is in routes/comments.int.test.ts.
 */

let t: TestApp;
let team: Team;

beforeAll(async () => ({ t, team } = await createTeamApp()));
afterAll(async () => t.close());

const text = (s: string): CommentToken[] => [{ text: s }];
const mention = (userId: string): CommentToken => ({ text: '@кто-то', mention: { userId } }) as CommentToken;
const write = (who: keyof Team['userId'], s: string, more: { repliedComment?: string; pageId?: string } = {}) =>
  writeComment(t.app.db, team.userId[who], more.pageId ?? team.pageId, { content: text(s), attaches: [], repliedComment: more.repliedComment });

describe('writeComment', () => {
  test('a reader may comment; the guest and the outsider (no access) are refused, a missing page is 404; nothing is written', async () => {
    const { comment } = await write('reader', 'Можно');
    expect(comment).toMatchObject({ page_id: team.pageId, author_id: team.userId.reader });
    const before = await countRows(t, 'comments');
    expect(await refusal(write('guest', 'нельзя'))).toEqual([403, 'forbidden']);
    expect(await refusal(write('outsider', 'нельзя'))).toEqual([403, 'forbidden']);
    expect(await refusal(write('admin', 'нет', { pageId: newId() }))).toEqual([404, 'not_found']);
    expect(await countRows(t, 'comments')).toBe(before);
  });

  test('a reply to a comment of another page, or to a deleted one, is 422; the one mentioned is notified (a note to tell), the author not', async () => {
    const parent = (await write('admin', 'Вопрос')).comment;
    const { comment: reply, events } = await writeComment(t.app.db, team.userId.participant, team.pageId, {
      content: [...text('Ответ для '), mention(team.userId.reader)],
      attaches: [],
      repliedComment: parent.id,
    });
    expect(reply.replied_comment_id).toBe(parent.id);
    // The reader is mentioned, the admin replied to: each told once; the writer never.
    expect(
      eventsOf(events, 'notified')
        .map((n) => n.userId)
        .sort(),
    ).toEqual([team.userId.admin, team.userId.reader].sort());
    expect(eventsOf(events, 'notified').every((n) => n.workspaceId === team.workspaceId)).toBe(true);
    const elsewhere = (await write('admin', 'Там', { pageId: team.otherPageId })).comment;
    expect(await refusal(write('admin', 'не туда', { repliedComment: elsewhere.id }))).toEqual([422, 'validation_failed']);
    await deleteComment(t.app.db, team.userId.admin, team.pageId, reply.id);
    expect(await refusal(write('admin', 'поздно', { repliedComment: reply.id }))).toEqual([422, 'validation_failed']);
  });

  test('a file not of this page nor the writer’s is refused (422), nothing written', async () => {
    const before = await countRows(t, 'comments');
    const refused = writeComment(t.app.db, team.userId.admin, team.pageId, {
      content: text('с файлом'),
      attaches: [{ id: newId(), name: 'x.pdf', extension: 'pdf' }],
    });
    expect(await refusal(refused)).toEqual([422, 'validation_failed']);
    expect(await countRows(t, 'comments')).toBe(before);
  });
});

describe('editComment and deleteComment', () => {
  test('only the author edits; a new mention is told, an old one not; an empty comment is 422', async () => {
    const { comment } = await writeComment(t.app.db, team.userId.participant, team.pageId, { content: [mention(team.userId.reader)], attaches: [] });
    expect(await refusal(editComment(t.app.db, team.userId.admin, team.pageId, comment.id, { content: text('чужое') }))).toEqual([403, 'forbidden']);
    expect(await refusal(editComment(t.app.db, team.userId.outsider, team.pageId, comment.id, { content: text('чужое') }))).toEqual([403, 'forbidden']);
    expect(await refusal(editComment(t.app.db, team.userId.participant, team.pageId, comment.id, { content: text('  ') }))).toEqual([422, 'validation_failed']);
    expect(JSON.parse((await findComment(t.app.db, comment.id))!.content)).toEqual([mention(team.userId.reader)]);
    const { events } = await editComment(t.app.db, team.userId.participant, team.pageId, comment.id, {
      content: [mention(team.userId.reader), mention(team.userId.admin)],
    });
    expect(eventsOf(events, 'notified').map((n) => n.userId)).toEqual([team.userId.admin]);
  });

  test('the author or someone with full access deletes; an editor may not delete another’s; a comment with replies stays as deleted', async () => {
    const asked = (await write('reader', 'Удалите меня')).comment;
    expect(await refusal(deleteComment(t.app.db, team.userId.participant, team.pageId, asked.id))).toEqual([403, 'forbidden']);
    expect(await deleteComment(t.app.db, team.userId.admin, team.pageId, asked.id)).toEqual({
      removed: [asked.id],
      kept: undefined,
      // Webhooks hear of it (docs/api/webhooks.md).
      events: [{ kind: 'commentChanged', pageId: team.pageId, commentId: asked.id, action: 'deleted', at: expect.any(String) }],
    });
    expect(await refusal(deleteComment(t.app.db, team.userId.admin, team.pageId, asked.id))).toEqual([404, 'not_found']);

    const thread = (await write('participant', 'С ответом')).comment;
    await write('reader', 'ответ', { repliedComment: thread.id });
    const { removed, kept } = await deleteComment(t.app.db, team.userId.participant, team.pageId, thread.id);
    expect([removed, kept?.deleted_at !== null]).toEqual([[], true]);
  });
});

describe('reactToComment and unreactToComment', () => {
  test('a reader reacts (its author told once), at most the limit of different reactions; the guest is refused', async () => {
    const { comment } = await write('participant', 'Нравится?');
    const first = await reactToComment(t.app.db, team.userId.reader, comment.id, '👍');
    expect(eventsOf(first.events, 'notified').map((n) => n.userId)).toEqual([team.userId.participant]);
    // The same reaction again: nothing new, nobody told.
    expect((await reactToComment(t.app.db, team.userId.reader, comment.id, '👍')).events).toEqual([]);
    // Up to the limit of different reactions (👍 and COMMENT_LIMITS.reactionsPerUser − 1 more).
    for (let n = 1; n < COMMENT_LIMITS.reactionsPerUser; n++) await reactToComment(t.app.db, team.userId.reader, comment.id, `r${n}`);
    const before = await countRows(t, 'notifications');
    expect(await refusal(reactToComment(t.app.db, team.userId.reader, comment.id, '🤔'))).toEqual([422, 'comment.reaction_limit']);
    expect(await refusal(reactToComment(t.app.db, team.userId.guest, comment.id, '👍'))).toEqual([403, 'forbidden']);
    expect(await refusal(unreactToComment(t.app.db, team.userId.outsider, comment.id, '👍'))).toEqual([403, 'forbidden']);
    expect(await countRows(t, 'notifications')).toBe(before);
    await unreactToComment(t.app.db, team.userId.reader, comment.id, '👍');
    // Room again: the author told, webhooks hear it.
    expect((await reactToComment(t.app.db, team.userId.reader, comment.id, '🤔')).events.map((event) => event.kind)).toEqual(['notified', 'commentChanged']);
  });

  test('nothing is written on a page in the trash (409 page.in_trash)', async () => {
    const { comment } = await write('admin', 'До корзины', { pageId: team.otherPageId });
    await trashPage(t.app.db, team.userId.admin, team.otherPageId);
    expect(await refusal(write('admin', 'в корзине', { pageId: team.otherPageId }))).toEqual([409, 'page.in_trash']);
    expect(await refusal(reactToComment(t.app.db, team.userId.admin, comment.id, '👍'))).toEqual([409, 'page.in_trash']);
    expect(await refusal(editComment(t.app.db, team.userId.admin, team.otherPageId, comment.id, { content: text('правка') }))).toEqual([409, 'page.in_trash']);
  });
});

import { ACCESS_LEVELS, type AccessLevel } from '../constants';
import { commentAllows, type CommentAction } from './comment';

const mine = { authorId: 'ann' };
const theirs = { authorId: 'bob' };
const allowed = (level: AccessLevel, comment?: { authorId: string }) =>
  (['read', 'comment', 'react', 'edit', 'delete'] as CommentAction[]).filter((action) => commentAllows(level, action, 'ann', comment));

describe('commentAllows', () => {
  test("without access to the page, nothing — not even on one's own comment", () => {
    expect(allowed('none', mine)).toEqual([]);
  });

  test('a reader reads, comments and reacts; edits and deletes only their own', () => {
    expect(allowed('read', mine)).toEqual(['read', 'comment', 'react', 'edit', 'delete']);
    expect(allowed('read', theirs)).toEqual(['read', 'comment', 'react']);
    expect(allowed('edit', theirs)).toEqual(['read', 'comment', 'react']);
  });

  test("full access deletes anybody's comment, yet edits only its own", () => {
    expect(allowed('full', theirs)).toEqual(['read', 'comment', 'react', 'delete']);
    expect(allowed('full', mine)).toEqual(['read', 'comment', 'react', 'edit', 'delete']);
  });

  test('edit and delete without a comment are refused at every level', () => {
    for (const level of ACCESS_LEVELS) {
      expect(commentAllows(level, 'edit', 'ann')).toBe(false);
      expect(commentAllows(level, 'delete', 'ann')).toBe(false);
    }
  });
});

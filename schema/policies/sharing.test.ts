import { needsHeldAbove, protectedMemberRefusal, type HeldAbove, type MemberLevelAfter, type MemberLevelChange } from './sharing';

const AFTER: MemberLevelAfter[] = ['inherit', 'read', 'edit', 'full'];
const change = (after: MemberLevelAfter, over: Partial<MemberLevelChange> = {}): MemberLevelChange => ({
  after,
  onRoot: false,
  targetOwnsTree: false,
  ...over,
});

describe("protectedMemberRefusal: the tree's owner", () => {
  test("their grant on the root page is nobody's to change, to any level or away", () => {
    for (const after of AFTER) expect(protectedMemberRefusal(change(after, { targetOwnsTree: true, onRoot: true }))).toBe('ownerRoot');
  });
  test("below the root: never lower than full, but their grant there may go (they keep the root's full)", () => {
    const owner = (after: MemberLevelAfter) => protectedMemberRefusal(change(after, { targetOwnsTree: true }));
    expect(owner('read')).toBe('ownerBelowFull');
    expect(owner('edit')).toBe('ownerBelowFull');
    expect(owner('full')).toBeNull();
    expect(owner('inherit')).toBeNull();
  });
  test('judged without looking above the page', () => {
    for (const after of AFTER) expect(needsHeldAbove(change(after, { targetOwnsTree: true }))).toBe(false);
  });
});

describe('protectedMemberRefusal: someone holding full through an ancestor', () => {
  const fullByGrant: HeldAbove = { level: 'full', from: 'grant', callerFullThere: false };
  const fullByRole: HeldAbove = { level: 'full', from: 'role', callerFullThere: false };

  test('lowering below full is refused unless the caller holds full where it comes from', () => {
    expect(protectedMemberRefusal(change('read'), fullByGrant)).toBe('fullThroughGrant');
    expect(protectedMemberRefusal(change('edit'), fullByRole)).toBe('fullThroughRole');
    expect(protectedMemberRefusal(change('read'), { ...fullByGrant, callerFullThere: true })).toBeNull();
    expect(protectedMemberRefusal(change('edit'), { ...fullByRole, callerFullThere: true })).toBeNull();
  });

  test("a full level above without the caller's standing known counts as not theirs", () => {
    expect(protectedMemberRefusal(change('read'), { level: 'full', from: 'grant' })).toBe('fullThroughGrant');
  });

  test('less than full above protects nothing', () => {
    for (const level of ['none', 'read', 'edit'] as const) {
      expect(protectedMemberRefusal(change('read'), { level, from: 'grant' })).toBeNull();
      expect(protectedMemberRefusal(change('read'), { level, from: 'role' })).toBeNull();
    }
  });

  test('raising to full or removing the grant on the page is always fine, and needs nothing from above', () => {
    for (const after of ['full', 'inherit'] as const) {
      expect(needsHeldAbove(change(after))).toBe(false);
      expect(protectedMemberRefusal(change(after))).toBeNull();
    }
    expect(needsHeldAbove(change('read'))).toBe(true);
    expect(needsHeldAbove(change('edit'))).toBe(true);
  });

  test('a change that needs what is held above cannot be judged without it', () => {
    expect(() => protectedMemberRefusal(change('read'))).toThrow(/needed/);
  });
});

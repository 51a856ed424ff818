import { SECTION_IDS, WORKSPACE_ROLES, type SectionId, type WorkspaceRole } from '../constants';
import {
  canBringInOutsiders,
  canCreateInSection,
  canDoInWorkspace,
  canRemoveMember,
  INVITE_LIMIT,
  keepsAnAdmin,
  mayBePrivate,
  mayListSection,
  visibleSections,
  withinInviteLimit,
  type WorkspaceAction,
} from './workspace';

const creatable = (role: WorkspaceRole, isPrivate: boolean) => SECTION_IDS.filter((section) => canCreateInSection(role, section, isPrivate));

describe('canCreateInSection (spec §6)', () => {
  test('admins: private and all, only private in a private workspace', () => {
    expect(creatable('admin', false)).toEqual(['all', 'private']);
    expect(creatable('admin', true)).toEqual(['private']);
  });
  test('participants: private only', () => {
    expect(creatable('participant', false)).toEqual(['private']);
    expect(creatable('participant', true)).toEqual(['private']);
  });
  test('guests: nowhere; favorite and shared: nobody', () => {
    expect(creatable('guest', false)).toEqual([]);
    for (const role of WORKSPACE_ROLES) for (const section of ['favorite', 'shared'] as const) expect(canCreateInSection(role, section, false)).toBe(false);
  });
});

describe('visibleSections (spec §6)', () => {
  test('admins and participants see all four, in sidebar order', () => {
    expect(visibleSections('admin', false)).toEqual(['favorite', 'all', 'shared', 'private']);
    expect(visibleSections('participant', false)).toEqual(['favorite', 'all', 'shared', 'private']);
  });
  test('all is gone in a private workspace, even for an admin', () => {
    expect(visibleSections('admin', true)).toEqual(['favorite', 'shared', 'private']);
    expect(visibleSections('participant', true)).toEqual(['favorite', 'shared', 'private']);
  });
  test('guests see only favourites and shared', () => {
    expect(visibleSections('guest', false)).toEqual(['favorite', 'shared']);
    expect(visibleSections('guest', true)).toEqual(['favorite', 'shared']);
  });
});

describe('mayListSection: GET section/{id}', () => {
  const listable = (role: WorkspaceRole) => SECTION_IDS.filter((section: SectionId) => mayListSection(role, section));
  test('members list every section (all too: a private workspace answers it, see docs/api/pages.md)', () => {
    expect(listable('admin')).toEqual([...SECTION_IDS]);
    expect(listable('participant')).toEqual([...SECTION_IDS]);
  });
  test('guests: not all, not private', () => {
    expect(listable('guest')).toEqual(['favorite', 'shared']);
  });
});

describe('canDoInWorkspace', () => {
  const actions: WorkspaceAction[] = ['update', 'delete', 'listMembers', 'manageMembers', 'export'];
  test.each([
    ['admin', actions],
    ['participant', ['listMembers', 'export']],
    ['guest', []],
  ] as const)('%s', (role, allowed) => {
    expect(actions.filter((action) => canDoInWorkspace(role, action))).toEqual(allowed);
  });
});

describe('canRemoveMember', () => {
  test('admins remove anyone, themselves too', () => {
    expect(canRemoveMember('admin', 'ann', 'bob')).toBe(true);
    expect(canRemoveMember('admin', 'ann', 'ann')).toBe(true);
  });
  test('everyone else may only leave', () => {
    for (const role of ['participant', 'guest'] as const) {
      expect(canRemoveMember(role, 'bob', 'bob')).toBe(true);
      expect(canRemoveMember(role, 'bob', 'ann')).toBe(false);
    }
  });
});

test('canBringInOutsiders: admins only', () => {
  expect(WORKSPACE_ROLES.filter(canBringInOutsiders)).toEqual(['admin']);
});

test('keepsAnAdmin: the last admin is never demoted or removed; anyone else is, and an admin while another stays', () => {
  expect(keepsAnAdmin('admin', 1)).toBe(false);
  expect(keepsAnAdmin('admin', 2)).toBe(true);
  expect(keepsAnAdmin('participant', 1)).toBe(true);
  expect(keepsAnAdmin('guest', 0)).toBe(true);
});

test('mayBePrivate: only with no other member', () => {
  expect([1, 2, 5].map(mayBePrivate)).toEqual([true, false, false]);
});

test('withinInviteLimit: up to INVITE_LIMIT people a window; adding nobody always is', () => {
  expect(withinInviteLimit(0, INVITE_LIMIT.people)).toBe(true);
  expect(withinInviteLimit(1, INVITE_LIMIT.people)).toBe(false);
  expect(withinInviteLimit(INVITE_LIMIT.people + 5, 0)).toBe(true);
  expect(withinInviteLimit(2, 2, { people: 3 })).toBe(false);
});

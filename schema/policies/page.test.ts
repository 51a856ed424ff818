import { ACCESS_LEVELS, WORKSPACE_ROLES, type AccessLevel } from '../constants';
import { allows, canEdit, canShare, mayBePrivateRootOf, roleDefault, type PageAction } from './page';

describe('allows: what a page access level permits', () => {
  const table: Record<AccessLevel, PageAction[]> = {
    none: [],
    read: ['read'],
    edit: ['read', 'edit'],
    full: ['read', 'edit', 'share', 'manage'],
  };
  test.each(ACCESS_LEVELS)('%s', (level) => {
    const actions: PageAction[] = ['read', 'edit', 'share', 'manage'];
    expect(actions.filter((action) => allows(level, action))).toEqual(table[level]);
  });

  test('canEdit and canShare are allows(edit) and allows(share)', () => {
    expect(ACCESS_LEVELS.filter(canEdit)).toEqual(['edit', 'full']);
    expect(ACCESS_LEVELS.filter(canShare)).toEqual(['full']);
  });
});

describe('roleDefault: what a role gives without a grant', () => {
  test('the all section: admins full, participants edit, guests nothing', () => {
    expect(WORKSPACE_ROLES.map((role) => roleDefault(role, 'all'))).toEqual(['full', 'edit', 'none']);
  });
  test.each([['private'], ['favorite'], ['shared'], [null]])('%s gives nobody anything', (section) => {
    expect(WORKSPACE_ROLES.map((role) => roleDefault(role, section))).toEqual(['none', 'none', 'none']);
  });
});

describe("mayBePrivateRootOf: a private section root is its creator's", () => {
  test('the creator may make it a root of their private section', () => {
    expect(mayBePrivateRootOf({ createdBy: 'ann' }, 'ann')).toBe(true);
  });
  test('nobody else may, whatever their access', () => {
    expect(mayBePrivateRootOf({ createdBy: 'ann' }, 'bob')).toBe(false);
  });
});

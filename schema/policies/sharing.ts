import type { AccessLevel } from '../constants';
import type { GrantableLevel } from '../sharing';

/**
 * Who may lower whose access on a page (docs/adr/0002-sharing-and-membership.md, docs/api/sharing.md
 * «Protected access»): the pure rule; the server reads the facts from the database.
 */

/** A member's level on the page after a change: a level, or `inherit` when the grant on the page is removed. */
export type MemberLevelAfter = GrantableLevel | 'inherit';

/** A change of one person's grant on a page, by someone who may share it (full access). */
export interface MemberLevelChange {
  after: MemberLevelAfter;
  /** The page is the root of its tree. */
  onRoot: boolean;
  /** The person is the owner of the tree: the creator of its root page. */
  targetOwnsTree: boolean;
}

/**
 * What the person holds on the page apart from the grant there: through the nearest ancestor with
 * a grant of theirs (`grant`), else through their workspace role in the tree's section (`role`).
 */
export interface HeldAbove {
  level: AccessLevel;
  from: 'grant' | 'role';
  /**
   * Whether the caller holds full access where that level comes from: on that ancestor, or
   * through their own role (an admin). Asked only when `level` is full.
   */
  callerFullThere?: boolean;
}

/** Why a change is refused (403 sharing.protected_member). */
export type ProtectedMemberReason = 'ownerRoot' | 'ownerBelowFull' | 'fullThroughGrant' | 'fullThroughRole';

/**
 * Whether the change needs what the person holds above the page (`HeldAbove`) to be judged: only
 * a change that leaves someone other than the tree's owner lower than full.
 */
export function needsHeldAbove(change: MemberLevelChange): boolean {
  return !change.targetOwnsTree && change.after !== 'inherit' && change.after !== 'full';
}

/**
 * Refuses a change that would leave the person with less than full access on the page when they
 * are protected there; null when it may be made:
 *  - the owner of the tree: their grant on the root page is nobody's to change, and below it
 *    nobody may set them lower than full (removing a grant there is fine: they fall back on the
 *    root's full);
 *  - someone who holds full on the page through an ancestor — a full grant on the nearest
 *    ancestor with a grant of theirs, or as an admin on a page of the `all` section — unless the
 *    caller holds full there too (for the admin role: unless the caller is an admin).
 * `above` is needed exactly when `needsHeldAbove(change)`.
 */
export function protectedMemberRefusal(change: MemberLevelChange, above?: HeldAbove): ProtectedMemberReason | null {
  if (change.targetOwnsTree) {
    if (change.onRoot) return 'ownerRoot';
    return change.after === 'inherit' || change.after === 'full' ? null : 'ownerBelowFull';
  }
  if (!needsHeldAbove(change)) return null;
  if (!above) throw new Error('protectedMemberRefusal: what the person holds above the page is needed to judge this change');
  if (above.level !== 'full' || above.callerFullThere === true) return null;
  return above.from === 'grant' ? 'fullThroughGrant' : 'fullThroughRole';
}

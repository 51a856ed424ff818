import { useId, useMemo, useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { WireElement } from '../../../schema/element';
import { canShare } from '../../../schema/policies/page';
import { canBringInOutsiders } from '../../../schema/policies/workspace';
import { GRANTABLE_LEVELS, type GrantableLevel, type SkippedMember, type WireElementMember } from '../../../schema/sharing';
import { useAppDispatch, useAppSelector } from '../../app/store';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { GlobeIcon, ShieldIcon } from '../../ui/icons';
import { showToast } from '../../ui/Toast';
import { copyText } from '../pages/pageErrors';
import { errorMessage, type FeatureMessages } from '../../app/errors';
import { useChangePageMembersMutation, usePageMembersQuery } from '../../app/serverApi';
import { useWorkspaceAdmins, useWorkspaceUsers } from '../comments/members';
import { usePublicLink } from '../pages/publicLink';
import { patchPage } from '../pages/pagesSlice';
import { useIsPhone } from '../../ui/useIsPhone';
import { registerInvitees, searchMembers, useDebouncedInvitees, type PersonLike } from './invitees';
import { InviteeChips } from './InviteeChips';
import './share.css';
import { Switch } from '../../ui/Switch';

const SHARE_MESSAGES: FeatureMessages = {
  network: 'share.errors.network',
  'sharing.outsider_needs_admin': 'share.errors.outsiderNeedsAdmin',
  'sharing.protected_member': 'share.errors.protectedMember',
  'page.in_trash': 'share.errors.inTrash',
  forbidden: 'share.errors.forbidden',
  not_found: 'share.errors.notFound',
  rate_limited: 'share.errors.rateLimited',
  validation_failed: 'share.errors.invalid',
  generic: 'share.errors.generic',
};

/** A Russian message for a refused sharing call (docs/api/sharing.md). */
export function shareError(t: TFunction, error: unknown): string {
  return errorMessage(t, error, SHARE_MESSAGES);
}

interface Person extends PersonLike {
  name: string;
}

function Avatar({ person }: { person: { name?: string; email: string } }) {
  return (
    <span className="avatar" aria-hidden>
      {(person.name || person.email).slice(0, 1).toUpperCase()}
    </span>
  );
}

/** «Поделиться» in the page's top bar: only for those who may share (full access) and not in the trash. */
export function ShareButton({
  page,
  openAtStart = false,
}: {
  page: WireElement;
  /** Opens the dialog at once (a link's `?action=share`). */ openAtStart?: boolean;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(openAtStart);
  if (!canShare(page.accessLevel) || page.inTrash) return null;
  return (
    <>
      <Button kind="flat" size="xs" className="share-button" onClick={() => setOpen(true)} aria-haspopup="dialog">
        {t('share.button')}
      </Button>
      {open && <ShareDialog page={page} onClose={() => setOpen(false)} />}
    </>
  );
}

/** workspaceShare (addUsers on a phone): invite people, change or remove their access, publish by link. */
export function ShareDialog({ page, onClose }: { page: WireElement; onClose(): void }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const me = useAppSelector((state) => state.auth.user);
  const activeWorkspaceId = useAppSelector((state) => state.workspaces.activeId);
  const livePage = useAppSelector((state) => state.pages.entities[page.id]) ?? page;
  const isPhone = useIsPhone();
  // The workspace's members to pick from, read when the dialog opens (a guest may not list them: then nobody is offered).
  const people: Person[] = useWorkspaceUsers(page.workspaceId ?? activeWorkspaceId, true);
  // The workspace's admins have full access to the pages of its shared section (docs/api/sharing.md):
  // shown as one group, those without a grant of their own on the page (theirs is in the list).
  const admins = useWorkspaceAdmins(page.workspaceId ?? activeWorkspaceId, true);
  const inSharedSection = useAppSelector((state) => (state.pages.sections.all ?? []).includes(livePage.path[0] ?? livePage.id));
  // Only an admin may bring in someone from outside the workspace (docs/api/sharing.md): for
  // anyone else such an address is not registered (no account made for nothing), just refused.
  const myRole = useAppSelector((state) => state.workspaces.list.find((w) => w.id === (page.workspaceId ?? activeWorkspaceId))?.role);
  const outsidersAllowed = myRole === undefined || canBringInOutsiders(myRole);

  const memberList = usePageMembersQuery(page.id, { refetchOnMountOrArgChange: true });
  const members = memberList.data ?? null;
  const loadError = memberList.isError ? shareError(t, memberList.error) : null;
  const [changeMembers] = useChangePageMembersMutation();
  const [query, setQuery] = useState('');
  const [chosen, setChosen] = useState<Person[]>([]);
  const [level, setLevel] = useState<GrantableLevel>('edit');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [publishing, setPublishing] = useState(false);
  const invitees = useDebouncedInvitees(query);

  const memberIds = useMemo(() => (members ?? []).map((m) => m.member), [members]);
  const groupAdmins = members ? admins.filter((a) => !memberIds.includes(a.id)) : [];
  // Suggestions follow the word being typed (the text after the last separator).
  const word = query.split(/[\s,]+/).pop() ?? '';
  const suggestions = word.trim() ? searchMembers(people, word, [...memberIds, ...chosen.map((c) => c.id)], me?.id).slice(0, 6) : [];
  const canInvite = !busy && (chosen.length > 0 || invitees.valid.length > 0);
  // The suggestion ↑/↓ highlight (-1: none), named by the field's aria-activedescendant; new suggestions start with none.
  const [activeAt, setActive] = useState<{ word: string; index: number }>({ word: '', index: -1 });
  const active = activeAt.word === word ? Math.min(activeAt.index, suggestions.length - 1) : -1;
  const listId = useId();

  const choose = (person: Person) => {
    setChosen((list) => [...list, person]);
    // The word that found them is done with.
    setQuery((q) => q.slice(0, q.length - word.length));
  };

  const invite = async () => {
    if (!canInvite) return;
    setBusy(true);
    setError(null);
    setNote(null);
    try {
      const entries: { userId: string; accessLevel: GrantableLevel }[] = chosen.map((c) => ({ userId: c.id, accessLevel: level }));
      const taken = new Set(chosen.map((c) => c.email.toLowerCase()));
      const emails = invitees.valid.filter((email) => !taken.has(email));
      const unknown: string[] = [];
      for (const email of emails) {
        const known = people.find((p) => p.email.toLowerCase() === email);
        if (known) entries.push({ userId: known.id, accessLevel: level });
        else unknown.push(email);
      }
      const notes: string[] = [];
      if (!outsidersAllowed && unknown.length > 0) notes.push(t('share.errors.outsiderNeedsAdmin'));
      // Spec §7: a user id for each new address; a 400 means none, and that invite is skipped.
      const registered = await registerInvitees(outsidersAllowed ? unknown : []);
      for (const { userId } of registered.ids) if (!entries.some((e) => e.userId === userId)) entries.push({ userId, accessLevel: level });
      if (registered.skipped.length) notes.push(t('share.skippedInvalid', { emails: registered.skipped.join(', ') }));
      if (entries.length === 0) {
        setNote(notes.join(' ') || null);
        return;
      }
      const answer = await changeMembers({ pageId: page.id, action: 'member/add', body: entries }).unwrap();
      const skipped = (answer.meta.skipped as SkippedMember[] | undefined) ?? [];
      if (skipped.some((s) => s.reason === 'owner')) notes.push(t('share.skippedOwner'));
      if (skipped.some((s) => s.reason === 'self')) notes.push(t('share.skippedSelf'));
      setNote(notes.join(' ') || null);
      setChosen([]);
      setQuery('');
      const added = entries.length - skipped.length;
      if (added > 0) showToast(t('share.invited', { count: added }));
    } catch (e) {
      setError(shareError(t, e));
    } finally {
      setBusy(false);
    }
  };

  const changeLevel = async (member: WireElementMember, next: GrantableLevel) => {
    setError(null);
    try {
      // An inherited grant is set on an ancestor: a grant on this page overrides it.
      await (
        member.inherited
          ? changeMembers({ pageId: page.id, action: 'member/add', body: [{ userId: member.member, accessLevel: next }] })
          : changeMembers({ pageId: page.id, action: 'member/access', body: { userId: member.member, accessLevel: next } })
      ).unwrap();
      showToast(t('share.levelChanged'));
    } catch (e) {
      setError(shareError(t, e));
    }
  };

  const remove = async (member: WireElementMember) => {
    setError(null);
    try {
      await changeMembers({ pageId: page.id, action: 'member/remove', body: { userId: member.member } }).unwrap();
      showToast(t('share.removed'));
    } catch (e) {
      setError(shareError(t, e));
    }
  };

  const togglePublic = async () => {
    setPublishing(true);
    setError(null);
    try {
      await dispatch(patchPage({ id: page.id, patch: { isPublic: !livePage.isPublic }, previous: livePage })).unwrap();
    } catch (e) {
      setError(shareError(t, e));
    } finally {
      setPublishing(false);
    }
  };

  // Once the publish is answered (the page is shown public at once; its alias is given by the server's answer).
  const link = usePublicLink({ id: livePage.id, isPublic: livePage.isPublic && !publishing });
  const copyLink = async () => {
    if (!link) return;
    try {
      await copyText(link);
      showToast(t('share.linkCopied'));
    } catch {
      showToast(t('share.errors.copy'), 'error');
    }
  };

  const levelOptions = GRANTABLE_LEVELS.map((l) => (
    <option key={l} value={l}>
      {t(`share.levels.${l}`)}
    </option>
  ));

  return (
    <Dialog title={isPhone ? t('share.addUsersTitle') : t('share.title')} onClose={onClose} className={isPhone ? 'share-dialog share-sheet' : 'share-dialog'}>
      <form
        className="share-invite"
        onSubmit={(e) => {
          e.preventDefault();
          void invite();
        }}
      >
        <div className="share-field">
          {chosen.map((c) => (
            <span key={c.id} className="share-chip is-member">
              {c.name || c.email}
              <button
                type="button"
                className="share-chip-remove"
                aria-label={t('share.unchoose', { name: c.name || c.email })}
                onClick={() => setChosen((list) => list.filter((x) => x.id !== c.id))}
              >
                ×
              </button>
            </span>
          ))}
          <textarea
            className="share-input"
            rows={1}
            value={query}
            placeholder={t('share.placeholder')}
            aria-label={t('share.inputLabel')}
            // A textarea may take no other role (ARIA in HTML): a textbox with a suggestion list, its
            // highlighted person named by aria-activedescendant (docs/web-app.md, «Editor and menus»).
            aria-autocomplete="list"
            aria-controls={suggestions.length > 0 ? listId : undefined}
            aria-activedescendant={active >= 0 ? `${listId}-${active}` : undefined}
            autoFocus
            onChange={(e) => setQuery(e.target.value)}
            onKeyDown={(e) => {
              if ((e.key === 'ArrowDown' || e.key === 'ArrowUp') && suggestions.length > 0) {
                e.preventDefault();
                const n = suggestions.length;
                setActive({ word, index: e.key === 'ArrowDown' ? (active + 1) % n : (active <= 0 ? n : active) - 1 });
                return;
              }
              if (e.key === 'Escape' && active >= 0) {
                // The highlight goes first; another Escape closes the dialog.
                e.preventDefault();
                e.stopPropagation();
                setActive({ word, index: -1 });
                return;
              }
              if (e.key === 'Enter' && !e.shiftKey) {
                e.preventDefault();
                if (active >= 0) choose(suggestions[active]);
                else if (suggestions.length === 1 && !invitees.valid.length) choose(suggestions[0]);
                else void invite();
              }
            }}
          />
        </div>
        {suggestions.length > 0 && (
          <ul className="share-suggestions" id={listId} role="listbox" aria-label={t('share.suggestions')}>
            {suggestions.map((p, index) => (
              <li
                key={p.id}
                id={`${listId}-${index}`}
                role="option"
                aria-selected={index === active}
                className={index === active ? 'share-suggestion is-active' : 'share-suggestion'}
                // The focus stays in the field (↑/↓ and Enter there); a click chooses.
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => choose(p)}
              >
                <Avatar person={p} />
                <span className="share-person">
                  <span className="share-person-name">{p.name || p.email}</span>
                  <span className="share-person-email">{p.email}</span>
                </span>
              </li>
            ))}
          </ul>
        )}
        <InviteeChips invitees={invitees} label={t('share.candidates')} />
        <div className="share-invite-row">
          <label className="share-level">
            <select value={level} onChange={(e) => setLevel(e.target.value as GrantableLevel)} aria-label={t('share.levelLabel')}>
              {levelOptions}
            </select>
          </label>
          <Button type="submit" kind="solid" size="s" disabled={!canInvite}>
            {busy ? t('share.inviting') : t('share.invite')}
          </Button>
        </div>
      </form>
      {error && (
        <p className="share-error" role="alert">
          {error}
        </p>
      )}
      {note && <p className="share-note">{note}</p>}

      <h3 className="share-section-title">{t('share.membersTitle')}</h3>
      {loadError && <p className="share-error">{loadError}</p>}
      {!members && !loadError && <p className="share-muted">{t('share.loading')}</p>}
      {members && members.length === 0 && <p className="share-muted">{t('share.noMembers')}</p>}
      {members && members.length > 0 && (
        <ul className="share-members" aria-label={t('share.membersTitle')}>
          {members.map((m) => {
            const user = m.user as { id: string; email: string; name?: string };
            const label = user.name || user.email;
            const isMe = m.member === me?.id;
            return (
              <li key={m.member} className="share-member" data-email={user.email}>
                <Avatar person={user} />
                <span className="share-person">
                  <span className="share-person-name">
                    {label}
                    {isMe && <span className="share-you"> {t('share.you')}</span>}
                  </span>
                  <span className="share-person-email">{m.inherited ? t('share.inherited') : user.email}</span>
                </span>
                <select
                  className="share-member-level"
                  value={m.level}
                  aria-label={t('share.memberLevel', { name: label })}
                  onChange={(e) => void changeLevel(m, e.target.value as GrantableLevel)}
                >
                  {levelOptions}
                </select>
                <Button
                  kind="flat"
                  size="xs"
                  className="share-remove"
                  disabled={m.inherited}
                  title={m.inherited ? t('share.inheritedRemove') : undefined}
                  aria-label={t('share.removeMember', { name: label })}
                  onClick={() => void remove(m)}
                >
                  {t('share.remove')}
                </Button>
              </li>
            );
          })}
        </ul>
      )}

      {inSharedSection && groupAdmins.length > 0 && (
        <div className="share-admins" role="group" aria-label={t('share.adminsTitle')}>
          <ShieldIcon size={18} />
          <span className="share-person">
            <span className="share-person-name">{t('share.adminsTitle')}</span>
            <span className="share-person-email">{t('share.adminsAccess', { names: groupAdmins.map((a) => a.name || a.email).join(', ') })}</span>
          </span>
        </div>
      )}

      <div className="share-public">
        <div className="share-public-head">
          <GlobeIcon size={18} />
          <span className="share-public-text">
            <span className="share-person-name">{t('share.publicTitle')}</span>
            <span className="share-person-email">{livePage.isPublic ? t('share.publicOn') : t('share.publicOff')}</span>
          </span>
          <Switch checked={livePage.isPublic} aria-label={t('share.publicTitle')} disabled={publishing} onChange={() => void togglePublic()} />
        </div>
        {link && (
          <div className="share-public-row">
            <input className="input-compact share-public-url" readOnly value={link} aria-label={t('share.publicLink')} onFocus={(e) => e.target.select()} />
            <Button kind="outline" size="xs" onClick={() => void copyLink()}>
              {t('share.copyLink')}
            </Button>
          </div>
        )}
      </div>
    </Dialog>
  );
}

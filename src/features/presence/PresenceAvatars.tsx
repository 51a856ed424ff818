import { useMemo, useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import type { PresenceMember } from '../../../schema/realtime';
import { useAppSelector } from '../../app/store';
import { useIsPhone } from '../../ui/useIsPhone';
import { usePagePresence, usePresenceMembers } from './usePresence';
import './presence.css';

/** One avatar per person: their connections (tabs) on the page, in the order they came. */
export interface PresencePerson {
  userId: string;
  name: string;
  avatar: string | null;
  color: string;
  /** Another tab of the signed-in user. */
  isSelf: boolean;
}

export function peopleOf(members: PresenceMember[], selfUserId: string | null): PresencePerson[] {
  const people = new Map<string, PresencePerson>();
  for (const m of members) {
    if (!people.has(m.userId)) people.set(m.userId, { userId: m.userId, name: m.name, avatar: m.avatar, color: m.color, isSelf: m.userId === selfUserId });
  }
  return [...people.values()];
}

/** One or two letters of a name: «Анна Петрова» → «АП», «bob» → «B». */
export function initialsOf(name: string): string {
  const words = name
    .trim()
    .split(/[\s._-]+/u)
    .filter(Boolean);
  if (words.length === 0) return '?';
  const first = [...words[0]][0] ?? '';
  const second = words.length > 1 ? ([...words[words.length - 1]][0] ?? '') : '';
  return (first + second).toUpperCase();
}

function Avatar({ person, label }: { person: PresencePerson; label: string }) {
  const [broken, setBroken] = useState(false);
  return (
    <span
      className="presence-avatar"
      style={{ '--presence-color': person.color } as CSSProperties}
      role="img"
      aria-label={label}
      data-tooltip={label}
      data-user-id={person.userId}
      tabIndex={0}
    >
      <span className="presence-avatar-face">
        {person.avatar && !broken ? <img src={person.avatar} alt="" onError={() => setBroken(true)} /> : initialsOf(person.name)}
      </span>
    </span>
  );
}

/**
 * The people on the page right now, in the page's top bar (as in Google Docs and Notion): round
 * avatars with a ring in each person's colour, initials when they have no picture, the name on
 * hover. Four at most (two on phones), then «+N». This tab is not shown; another tab of yours is.
 * Also keeps the page's presence channel joined while the page is open.
 */
export function PresenceAvatars({ pageId }: { pageId: string }) {
  const { t } = useTranslation();
  usePagePresence(pageId);
  const members = usePresenceMembers(pageId);
  const selfUserId = useAppSelector((state) => state.auth.user?.id ?? null);
  const people = useMemo(() => peopleOf(members, selfUserId), [members, selfUserId]);
  const max = useIsPhone() ? 2 : 4;
  if (people.length === 0) return null;
  const shown = people.slice(0, max);
  const rest = people.slice(shown.length);
  const labelOf = (p: PresencePerson) => (p.isSelf ? t('presence.youElsewhere') : p.name);
  const restLabel = t('presence.more', { names: rest.map(labelOf).join(', ') });
  return (
    <div className="presence-avatars" role="group" aria-label={t('presence.label')} data-testid="presence-avatars">
      {shown.map((person) => (
        <Avatar key={person.userId} person={person} label={labelOf(person)} />
      ))}
      {rest.length > 0 && (
        <span className="presence-avatar presence-more" role="img" aria-label={restLabel} data-tooltip={restLabel} tabIndex={0}>
          <span className="presence-avatar-face">+{rest.length}</span>
        </span>
      )}
    </div>
  );
}

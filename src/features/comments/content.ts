import type { CommentAttach, CommentToken } from '../../../schema/comment';
import { isSafeHref } from '../../../schema/token';
import type { WireUser } from '../../../schema/user';

/** A mention picked in the composer: the text readers see (`@Анна`) and who is meant. */
export interface DraftMention {
  userId: string;
  label: string;
}

const URL_PATTERN = /https?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)\]]/g;

/** Plain text split into text and (http/https) link tokens. */
function textTokens(text: string): CommentToken[] {
  const out: CommentToken[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const start = match.index ?? 0;
    if (!isSafeHref(match[0])) continue;
    if (start > last) out.push({ text: text.slice(last, start) });
    out.push({ text: match[0], link: { href: match[0] } });
    last = start + match[0].length;
  }
  if (last < text.length) out.push({ text: text.slice(last) });
  return out;
}

/**
 * The composer's text as comment tokens: the picked mentions still present in the text become
 * `mention` tokens (the server's format for mention notifications), links become link tokens,
 * the rest plain text. Surrounding whitespace is trimmed.
 */
export function draftToTokens(raw: string, mentions: readonly DraftMention[]): CommentToken[] {
  const text = raw.trim();
  if (!text) return [];
  const labels = [...new Map(mentions.map((m) => [m.label, m])).values()].sort((a, b) => b.label.length - a.label.length);
  const out: CommentToken[] = [];
  let rest = text;
  while (rest) {
    let best: { index: number; mention: DraftMention } | null = null;
    for (const mention of labels) {
      const index = rest.indexOf(mention.label);
      if (index >= 0 && (!best || index < best.index)) best = { index, mention };
    }
    if (!best) {
      out.push(...textTokens(rest));
      break;
    }
    if (best.index > 0) out.push(...textTokens(rest.slice(0, best.index)));
    out.push({ text: best.mention.label, mention: { userId: best.mention.userId } });
    rest = rest.slice(best.index + best.mention.label.length);
  }
  return out;
}

/** A comment's tokens back as composer text and mentions (for editing). */
export function tokensToDraft(tokens: readonly CommentToken[]): { text: string; mentions: DraftMention[] } {
  return {
    text: tokens.map((t) => t.text).join(''),
    mentions: tokens.flatMap((t) => (t.mention ? [{ userId: t.mention.userId, label: t.text }] : [])),
  };
}

/** True when a comment may be sent: visible text or a file. */
export function hasSubstance(tokens: readonly CommentToken[], attaches: readonly CommentAttach[]): boolean {
  return attaches.length > 0 || tokens.some((t) => t.text.trim() !== '');
}

/** The label a mention of this user gets: `@` and the name, else the e-mail's local part. */
export function mentionLabel(user: WireUser): string {
  return '@' + (user.name.trim() || user.email.split('@')[0] || 'user');
}

/**
 * The `@query` being typed right before the caret, or null: `@` at the start or after
 * whitespace, then no whitespace up to the caret (at most 40 characters).
 */
export function mentionQueryAt(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const match = /(^|\s)@([^\s@]{0,40})$/.exec(before);
  if (!match) return null;
  return { start: caret - match[2].length - 1, query: match[2] };
}

/**
 * Members matching what follows `@`: the name or e-mail contains the query (case-insensitive),
 * those whose name or e-mail starts with it first; never the caller; at most `limit`.
 */
export function filterMembers(members: readonly WireUser[], query: string, selfId: string | undefined, limit = 8): WireUser[] {
  const q = query.trim().toLowerCase();
  const scored: { user: WireUser; score: number; index: number }[] = [];
  members.forEach((user, index) => {
    if (user.id === selfId || user.anonymous) return;
    const name = user.name.toLowerCase();
    const email = user.email.toLowerCase();
    if (!q) return scored.push({ user, score: 0, index });
    const words = name.split(/\s+/);
    if (name.startsWith(q) || email.startsWith(q) || words.some((w) => w.startsWith(q))) scored.push({ user, score: 0, index });
    else if (name.includes(q) || email.includes(q)) scored.push({ user, score: 1, index });
  });
  return scored
    .sort((a, b) => a.score - b.score || a.index - b.index)
    .slice(0, limit)
    .map((s) => s.user);
}

/** A file's name split for `attaches`: `Отчёт.pdf` → name `Отчёт`, extension `pdf`. */
export function splitFileName(fileName: string): { name: string; extension: string } {
  const dot = fileName.lastIndexOf('.');
  if (dot <= 0 || dot === fileName.length - 1) return { name: fileName, extension: '' };
  return { name: fileName.slice(0, dot), extension: fileName.slice(dot + 1).slice(0, 32) };
}

const rtf = new Intl.RelativeTimeFormat('ru', { numeric: 'auto' });
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** «5 минут назад», «вчера»…; under a minute, `justNow`. */
export function relativeTime(iso: string, now: number, justNow: string): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return '';
  const seconds = Math.round((time - now) / 1000);
  if (Math.abs(seconds) < 60) return justNow;
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return rtf.format(Math.trunc(seconds / size), unit);
  }
  return justNow;
}

import { useEffect, useState } from 'react';
import { ApiRequestError, api } from '../../app/api';
import { isEmail } from '../../../schema/user';

/** Spec §5 / limits: invitee candidates are parsed this long after the last keystroke. */
export const INVITEE_DEBOUNCE_MS = 150;

export interface Invitees {
  /** Distinct addresses (trimmed, lower-cased) in the order typed. */
  valid: string[];
  /** What was typed but is not an address, as typed. */
  invalid: string[];
}

/**
 * Spec §5: typed text split on whitespace, commas or newlines (and semicolons, as mail clients copy
 * a list); the candidates that look like an e-mail address kept, lower-cased, once each. The one
 * reading of invitees: the share dialog's and the wizard's.
 */
export function parseInvitees(text: string): Invitees {
  const valid: string[] = [];
  const invalid: string[] = [];
  for (const raw of text.split(/[\s,;]+/)) {
    const candidate = raw.trim();
    if (!candidate) continue;
    if (isEmail(candidate)) {
      const email = candidate.toLowerCase();
      if (!valid.includes(email)) valid.push(email);
    } else if (!invalid.includes(candidate)) invalid.push(candidate);
  }
  return { valid, invalid };
}

const EMPTY: Invitees = { valid: [], invalid: [] };

/** The candidates of `text`, parsed 150 ms after it last changed (empty text clears them at once). */
export function useDebouncedInvitees(text: string): Invitees {
  const [parsed, setParsed] = useState<Invitees>(EMPTY);
  useEffect(() => {
    if (!text.trim()) {
      setParsed(EMPTY);
      return;
    }
    const timer = setTimeout(() => setParsed(parseInvitees(text)), INVITEE_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  return parsed;
}

export interface PersonLike {
  id: string;
  email: string;
  name?: string | null;
}

/** Spec §5: people whose e-mail or name contains the query (case-insensitive), without `excluded` ids and without me. */
export function searchMembers<T extends PersonLike>(people: T[], query: string, excluded: Iterable<string>, meId: string | null | undefined): T[] {
  const q = query.trim().toLowerCase();
  const skip = new Set(excluded);
  if (meId) skip.add(meId);
  return people.filter((p) => !skip.has(p.id) && (q === '' || p.email.toLowerCase().includes(q) || (p.name ?? '').toLowerCase().includes(q)));
}

/**
 * Spec §7: the user id for each address (`POST /api/auth/register`); a 400 means "no user id" and
 * that person is skipped. Other failures are thrown.
 */
export async function registerInvitees(emails: string[]): Promise<{ ids: { email: string; userId: string }[]; skipped: string[] }> {
  const ids: { email: string; userId: string }[] = [];
  const skipped: string[] = [];
  for (const email of emails) {
    try {
      const { data } = await api<{ user_id: string }>('/api/auth/register', { method: 'POST', body: { email }, expected: [400] });
      if (data?.user_id) ids.push({ email, userId: data.user_id });
      else skipped.push(email);
    } catch (error) {
      if (error instanceof ApiRequestError && error.status === 400) skipped.push(email);
      else throw error;
    }
  }
  return { ids, skipped };
}

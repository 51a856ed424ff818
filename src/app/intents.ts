import { useCallback } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { AiAction } from '../../schema/ai';

/*
 * Navigation intents (product.md §2; docs/intents.md): addresses a mail, a bot's message or
 * another app links to, which open the app somewhere and do something there. Each is an address
 * of an existing screen plus query parameters; the screen does it once and takes the parameters
 * out of the address (replacing the history entry), so a reload or Back does not do it again.
 */

/** What `?action=` on a page's address does. */
export const PAGE_ACTIONS = ['share', 'comment', 'cover', 'ai'] as const;
export type PageAction = (typeof PAGE_ACTIONS)[number];

export const AI_TYPES = ['generate', 'continue', 'improve'] as const satisfies readonly AiAction[];

/** What `?action=` on home does. */
export const HOME_ACTIONS = ['messenger', 'share'] as const;
export type HomeAction = (typeof HOME_ACTIONS)[number];

export type Intent =
  | { kind: 'page'; pageUid: string; action?: PageAction; aiType?: AiAction; replace?: boolean; search?: Record<string, string> }
  | { kind: 'home'; replace?: boolean; search?: Record<string, string> }
  | { kind: 'publicPage'; pageUid: string }
  | { kind: 'createWorkspace' }
  | { kind: 'onboardingTemplate'; template: string }
  | { kind: 'share'; object: { page: string } | { workspace: true } }
  | { kind: 'auth'; type: 'email' | 'oauth'; provider?: string; email?: string; next?: string }
  | { kind: 'ai'; pageUid: string; type: AiAction }
  | { kind: 'messenger'; step: 'link' }
  | { kind: 'addCover'; pageUid: string }
  | { kind: 'addComment'; pageUid: string };

const query = (params: Record<string, string | undefined>) => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) search.set(key, value);
  const text = search.toString();
  return text ? `?${text}` : '';
};

/** The address of an intent (what links are made of). */
export function intentPath(intent: Intent): string {
  switch (intent.kind) {
    case 'page':
      return `/${encodeURIComponent(intent.pageUid)}${query({ ...intent.search, action: intent.action, type: intent.aiType })}`;
    case 'home':
      return `/${query({ ...intent.search })}`;
    case 'publicPage':
      return `/public/${encodeURIComponent(intent.pageUid)}`;
    case 'createWorkspace':
      return '/new-workspace';
    case 'onboardingTemplate':
      return `/new-workspace${query({ template: intent.template })}`;
    case 'share':
      return 'page' in intent.object
        ? intentPath({ kind: 'page', pageUid: intent.object.page, action: 'share' })
        : `/${query({ action: 'share', object: 'workspace' })}`;
    case 'auth':
      return `/login${query({ type: intent.type, provider: intent.provider, email: intent.email, next: intent.next })}`;
    case 'ai':
      return intentPath({ kind: 'page', pageUid: intent.pageUid, action: 'ai', aiType: intent.type });
    case 'messenger':
      return `/${query({ action: 'messenger', step: intent.step })}`;
    case 'addCover':
      return intentPath({ kind: 'page', pageUid: intent.pageUid, action: 'cover' });
    case 'addComment':
      return intentPath({ kind: 'page', pageUid: intent.pageUid, action: 'comment' });
  }
}

/** `?action=` of a page's address, with its AI type (`generate` when none or an unknown one is given). */
export function readPageAction(params: URLSearchParams): { action: PageAction; aiType: AiAction } | null {
  const action = params.get('action');
  if (!(PAGE_ACTIONS as readonly string[]).includes(action ?? '')) return null;
  const type = params.get('type');
  return { action: action as PageAction, aiType: (AI_TYPES as readonly string[]).includes(type ?? '') ? (type as AiAction) : 'generate' };
}

/** `?action=` of home, with its arguments. */
export function readHomeAction(params: URLSearchParams): { action: HomeAction; object: string | null; step: string | null } | null {
  const action = params.get('action');
  if (!(HOME_ACTIONS as readonly string[]).includes(action ?? '')) return null;
  return { action: action as HomeAction, object: params.get('object'), step: params.get('step') };
}

/**
 * The parameters of the current address and a way to say an intent is done: `done(...keys)` takes
 * those parameters out of the address, replacing the history entry.
 */
export function useIntentParams(): { params: URLSearchParams; done(...keys: string[]): void } {
  const [params, setParams] = useSearchParams();
  const done = useCallback(
    (...keys: string[]) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const key of keys) next.delete(key);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  return { params, done };
}

import { useEffect, useState } from 'react';
import type { AiInstallation } from '../../schema/ai';
import { api } from './api';

/** Links this installation shows (GET /api/config; set by the server's environment). */
export interface AppLinks {
  /** The feedback chat; null: the built-in feedback form. */
  help: string | null;
  privacy: string | null;
  terms: string | null;
  docs: string | null;
  templates: string | null;
}

export const NO_LINKS: AppLinks = { help: null, privacy: null, terms: null, docs: null, templates: null };

/**
 * The AI assistant when the server did not say (an older server, or /api/config failed): a model
 * is assumed — the server answers for itself (503 ai.not_configured) — with its default timeout.
 */
export const DEFAULT_AI: AiInstallation = { model: true, timeoutMs: 60_000 };

/** GET /api/config: the links, the installation's own host (where the service worker runs), its AI assistant, and its messenger bot. */
export interface AppConfig {
  links: AppLinks;
  defaultHost: string | null;
  ai: AiInstallation;
  /** Whether the server has a messenger bot to link accounts with (TELEGRAM_BOT_TOKEN); false when it did not say. */
  messengerBot: boolean;
  /** The IANA zone the server computes formula fields in (FORMULA_TIME_ZONE); Moscow when it did not say. */
  formulaTimeZone: string;
}

/** What the server said of the assistant, each field checked (anything else: the default's). */
function aiOf(value: unknown): AiInstallation {
  const said = (value && typeof value === 'object' ? value : {}) as Partial<Record<keyof AiInstallation, unknown>>;
  return {
    model: typeof said.model === 'boolean' ? said.model : DEFAULT_AI.model,
    timeoutMs: typeof said.timeoutMs === 'number' && Number.isFinite(said.timeoutMs) && said.timeoutMs > 0 ? said.timeoutMs : DEFAULT_AI.timeoutMs,
  };
}

const DEFAULT_FORMULA_TIME_ZONE = 'Europe/Moscow';

let loading: Promise<AppConfig> | null = null;
/** The assistant as last known (loaded, or learnt from a call's answer); null: not asked yet. */
let aiKnown: AiInstallation | null = null;
const aiListeners = new Set<(ai: AiInstallation) => void>();

function setAi(next: AiInstallation): void {
  if (aiKnown && aiKnown.model === next.model && aiKnown.timeoutMs === next.timeoutMs) return;
  aiKnown = next;
  for (const listener of aiListeners) listener(next);
}

/** Asked once per page load; a failure is asked again next time (and shows no links meanwhile). */
export function loadAppConfig(): Promise<AppConfig> {
  loading ??= api<Partial<AppConfig>>('/api/config').then(
    (response) => {
      const ai = aiOf(response.data.ai);
      setAi(ai);
      const messenger = (response.data as { messenger?: { bot?: unknown } }).messenger;
      const zone = (response.data as { formulaTimeZone?: unknown }).formulaTimeZone;
      return {
        links: { ...NO_LINKS, ...response.data.links },
        defaultHost: response.data.defaultHost ?? null,
        ai,
        messengerBot: messenger?.bot === true,
        formulaTimeZone: typeof zone === 'string' && zone ? zone : DEFAULT_FORMULA_TIME_ZONE,
      };
    },
    () => {
      loading = null;
      return { links: NO_LINKS, defaultHost: null, ai: aiKnown ?? DEFAULT_AI, messengerBot: false, formulaTimeZone: DEFAULT_FORMULA_TIME_ZONE };
    },
  );
  return loading;
}

export const loadAppLinks = (): Promise<AppLinks> => loadAppConfig().then((config) => config.links);

/** The AI assistant of this installation (GET /api/config `ai`; the default when the server did not say). */
export const loadAiInstallation = (): Promise<AiInstallation> => loadAppConfig().then((config) => config.ai);

/** The AI assistant as known right now, without waiting (the default until /api/config answered). */
export function aiInstallationNow(): AiInstallation {
  return aiKnown ?? DEFAULT_AI;
}

/**
 * A call found that the server has no model after all (503 ai.not_configured: its configuration
 * changed since the page loaded): the menus show generate and continue disabled from now on.
 */
export function noteAiModelMissing(): void {
  setAi({ ...aiInstallationNow(), model: false });
}

/** For tests: forget the cached answer. */
export function resetAppLinks(): void {
  loading = null;
  aiKnown = null;
}

export function useAppLinks(): AppLinks {
  const [links, setLinks] = useState<AppLinks>(NO_LINKS);
  useEffect(() => {
    let cancelled = false;
    void loadAppLinks().then((value) => !cancelled && setLinks(value));
    return () => {
      cancelled = true;
    };
  }, []);
  return links;
}

/** Whether this server has a messenger bot (false until /api/config answered, and when it failed). */
export function useMessengerBot(): boolean {
  const [bot, setBot] = useState(false);
  useEffect(() => {
    let cancelled = false;
    void loadAppConfig().then((config) => !cancelled && setBot(config.messengerBot));
    return () => {
      cancelled = true;
    };
  }, []);
  return bot;
}

/**
 * The AI assistant of this installation, kept up to date: the default (a model, 60 s) until
 * /api/config answered, then what it said (or what a call learnt since: noteAiModelMissing).
 */
export function useAiInstallation(): AiInstallation {
  const [ai, setAiState] = useState<AiInstallation>(aiInstallationNow);
  useEffect(() => {
    aiListeners.add(setAiState);
    // Known meanwhile (between the first render and now), or asked now.
    setAiState(aiInstallationNow());
    void loadAppConfig();
    return () => {
      aiListeners.delete(setAiState);
    };
  }, []);
  return ai;
}

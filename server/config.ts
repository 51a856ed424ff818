import path from 'node:path';

/** Everything the server reads from the environment, with working defaults. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** postgres://… to use PostgreSQL; unset means SQLite in dataDir. */
  databaseUrl?: string;
  /**
   * redis://… : realtime messages between server processes go through Redis (REDIS_URL);
   * unset, they go through PostgreSQL when DATABASE_URL is set (docs/realtime.md).
   */
  redisUrl?: string;
  /** The address people open, e.g. https://docs.example.com; decides secure cookies. */
  publicUrl: string;
  /** smtp://user:pass@host:port; unset means sign-in codes are printed in the log. */
  smtpUrl?: string;
  mailFrom: string;
  logLevel: string;
  /** Log every request and its answer (LOG_REQUESTS=false turns that off, e.g. for benchmarks). */
  logRequests: boolean;
  /** Where the built web app is; the server serves it when it exists. */
  webDir: string;
  /** send_code limits within a 10-minute window. */
  sendCodeLimitPerEmail: number;
  sendCodeLimitPerIp: number;
  sessionTtlDays: number;
  /**
   * How long a process may answer from its memory who a session belongs to and what access a
   * user has on a page (AUTH_CACHE_TTL_MS, default 2000; 0 turns the caches off). Changes made by
   * this process count at once; this bounds how late another process (several servers on one
   * PostgreSQL) sees a sign-out or a revoked share.
   */
  authCacheTtlMs: number;
  /** How often the search indexer takes what changed (SEARCH_INDEX_INTERVAL_MS, default 250): a write is found within about that (docs/search.md). */
  searchIndexIntervalMs: number;
  /** Page history (docs/history.md): a version after this long without edits (HISTORY_PAUSE_MS, default 2 min)… */
  historyPauseMs: number;
  /** …or every this long while editing goes on (HISTORY_MAX_MS, default 10 min); versions kept this many days (HISTORY_DAYS, default 30; a page's newest always). */
  historyMaxMs: number;
  historyDays: number;
  /**
   * Whether to believe X-Forwarded-For (client addresses for rate limits): false by default, so
   * nobody can dodge a per-address limit with a forged header; `true`, a hop count, or proxy
   * addresses (comma-separated) behind a reverse proxy.
   */
  trustProxy: boolean | number | string;
  /** Uploaded files live here (DATA_DIR/files by default). */
  filesDir: string;
  /** Largest accepted upload, bytes (UPLOAD_LIMIT_MB, default 50). */
  uploadLimitBytes: number;
  /** Most bytes one workspace's files may take (STORAGE_QUOTA_MB; 0, the default: no limit). */
  storageQuotaBytes: number;
  /** Where feedback (POST /api/email/hello) is sent; unset: logged only. */
  feedbackEmail?: string;
  /** Enables the messenger bot webhook that links accounts. */
  telegramBotToken?: string;
  /** Secret the bot platform sends in X-Telegram-Bot-Api-Secret-Token with each webhook call. */
  telegramWebhookSecret?: string;
  /** Base URL of the bot platform's API (TELEGRAM_API_URL; tests point it at a local server). */
  telegramApiUrl: string;
  /**
   * Links the web app shows (GET /api/config): help (HELP_URL: the feedback chat; unset: the
   * built-in feedback form), privacy policy, terms of use, documentation, templates. Only
   * http(s) URLs or paths are kept; an unset link is not shown.
   */
  links: { help: string | null; privacy: string | null; terms: string | null; docs: string | null; templates: string | null };
  /** The AI writing assistant (docs/ai.md). */
  ai: AiConfig;
  /** Generic OpenID Connect / OAuth 2 sign-in; enabled when issuer, client id and secret are set. */
  oauth?: {
    issuerUrl: string;
    clientId: string;
    clientSecret: string;
    /** The service name clients ask for (`service` in /api/auth/oauth). */
    serviceName: string;
    scopes: string;
    /** The provider's name on the sign-in button (OAUTH_DISPLAY_NAME; unset: a generic label). */
    displayName?: string;
  };
}

/** The AI assistant's settings (docs/ai.md, README «AI assistant»). */
export interface AiConfig {
  /**
   * An OpenAI-compatible API (AI_BASE_URL, e.g. http://localhost:11434/v1 for Ollama): the server
   * calls `${baseUrl}/chat/completions`. Unset: generate and continue answer 503
   * `ai.not_configured`, improve works offline (typography and spelling).
   */
  baseUrl?: string;
  /** Sent as `Authorization: Bearer …` (AI_API_KEY; Ollama and llama.cpp need none). */
  apiKey?: string;
  /** The `model` of every call (AI_MODEL, e.g. qwen2.5); unset: not sent (servers with one model). */
  model?: string;
  /** No token from the model for this long, first or mid-stream: 'timeout context' (AI_TIMEOUT_MS, default 60,000). */
  timeoutMs: number;
  /** Calls a user may make per minute (AI_RATE_LIMIT_PER_MINUTE, default 20); beyond: 429 with Retry-After. */
  rateLimitPerMinute: number;
  /** The most tokens a call may generate (AI_MAX_TOKENS, default 2048). */
  maxTokens: number;
  /** Offline improve also fixes spelling with the Russian dictionary (AI_SPELLCHECK=false turns it off: it takes ~350 MB while in use). */
  spellcheck: boolean;
}

function trustProxyFrom(value: string | undefined): boolean | number | string {
  if (!value || value === 'false') return false;
  if (value === 'true') return true;
  return /^\d+$/.test(value) ? Number(value) : value;
}

/** An http(s) URL or a path of this site, else null (a javascript: link never reaches the page). */
export function linkFrom(value: string | undefined): string | null {
  if (!value) return null;
  if (value.startsWith('/') && !value.startsWith('//')) return value;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : null;
  } catch {
    return null;
  }
}

function int(value: string | undefined, fallback: number): number {
  const parsed = value === undefined || value === '' ? NaN : Number(value);
  return Number.isInteger(parsed) && parsed >= 0 ? parsed : fallback;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const port = int(env.PORT, 3000);
  const config: Omit<Config, 'filesDir'> & Partial<Pick<Config, 'filesDir'>> = {
    port,
    host: env.HOST || '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    redisUrl: env.REDIS_URL || undefined,
    publicUrl: env.PUBLIC_URL || `http://localhost:${port}`,
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || 'Страницы <no-reply@localhost>',
    logLevel: env.LOG_LEVEL || 'info',
    logRequests: env.LOG_REQUESTS !== 'false',
    webDir: path.resolve(env.WEB_DIR || 'dist'),
    sendCodeLimitPerEmail: int(env.SEND_CODE_LIMIT_PER_EMAIL, 5),
    sendCodeLimitPerIp: int(env.SEND_CODE_LIMIT_PER_IP, 30),
    sessionTtlDays: int(env.SESSION_TTL_DAYS, 30),
    authCacheTtlMs: int(env.AUTH_CACHE_TTL_MS, 2000),
    searchIndexIntervalMs: int(env.SEARCH_INDEX_INTERVAL_MS, 250),
    historyPauseMs: int(env.HISTORY_PAUSE_MS, 120_000),
    historyMaxMs: int(env.HISTORY_MAX_MS, 600_000),
    historyDays: int(env.HISTORY_DAYS, 30),
    trustProxy: trustProxyFrom(env.TRUST_PROXY),
    uploadLimitBytes: int(env.UPLOAD_LIMIT_MB, 50) * 1024 * 1024,
    storageQuotaBytes: int(env.STORAGE_QUOTA_MB, 0) * 1024 * 1024,
    feedbackEmail: env.FEEDBACK_EMAIL || undefined,
    telegramBotToken: env.TELEGRAM_BOT_TOKEN || undefined,
    telegramWebhookSecret: env.TELEGRAM_WEBHOOK_SECRET || undefined,
    telegramApiUrl: (env.TELEGRAM_API_URL || 'https://api.telegram.org').replace(/\/+$/, ''),
    links: {
      help: linkFrom(env.HELP_URL),
      privacy: linkFrom(env.PRIVACY_URL),
      terms: linkFrom(env.TERMS_URL),
      docs: linkFrom(env.DOCS_URL),
      templates: linkFrom(env.TEMPLATES_URL),
    },
    ai: {
      baseUrl: env.AI_BASE_URL ? env.AI_BASE_URL.replace(/\/+$/, '') : undefined,
      apiKey: env.AI_API_KEY || undefined,
      model: env.AI_MODEL || undefined,
      timeoutMs: int(env.AI_TIMEOUT_MS, 60_000) || 60_000,
      rateLimitPerMinute: int(env.AI_RATE_LIMIT_PER_MINUTE, 20),
      maxTokens: int(env.AI_MAX_TOKENS, 2048) || 2048,
      spellcheck: env.AI_SPELLCHECK !== 'false',
    },
    oauth:
      env.OAUTH_ISSUER_URL && env.OAUTH_CLIENT_ID && env.OAUTH_CLIENT_SECRET
        ? {
            issuerUrl: env.OAUTH_ISSUER_URL,
            clientId: env.OAUTH_CLIENT_ID,
            clientSecret: env.OAUTH_CLIENT_SECRET,
            serviceName: env.OAUTH_SERVICE_NAME || 'oidc',
            scopes: env.OAUTH_SCOPES || 'openid email profile',
            displayName: env.OAUTH_DISPLAY_NAME || undefined,
          }
        : undefined,
    ...overrides,
  };
  // Files sit beside the database unless FILES_DIR says otherwise.
  const filesDir = config.filesDir ?? path.resolve(env.FILES_DIR || path.join(config.dataDir, 'files'));
  return { ...config, filesDir };
}

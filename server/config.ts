import net from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { INVITE_LIMIT } from '../schema/policies/workspace';
import { isEmail } from '../schema/user';

/** How long a SQLite write waits for another process's write lock by default (DB_BUSY_TIMEOUT_MS). */
export const DEFAULT_BUSY_TIMEOUT_MS = 5000;

/**
 * Per-user limits of the calls that cost the server most (docs/security.md «Request limits»),
 * counted in the database for all processes together (fixed windows); 0 turns one off.
 */
export interface UserLimits {
  /** `GET search/text` (the results screen, the Ctrl+K finder, page links): SEARCH_LIMIT_PER_10_S, default 30 in 10 s. */
  searchPer10s: number;
  /** `POST import`: IMPORT_LIMIT_PER_10_MIN, default 10 in 10 minutes. */
  importsPer10Min: number;
  /** `POST import` running at once for one user in one process: IMPORT_CONCURRENCY, default 2. */
  importsAtOnce: number;
  /** `POST import` running at once in one process, everybody's together (each reads its upload in a worker of up to 2 GB): IMPORT_CONCURRENCY_TOTAL, default 2. */
  importsAtOnceTotal: number;
  /** `POST exports` and `GET element/{id}/export` together: EXPORT_LIMIT_PER_10_MIN, default 20 in 10 minutes. */
  exportsPer10Min: number;
  /** `POST database/{id}/rows` (a CSV import writes its batches there): ROWS_LIMIT_PER_MINUTE, default 120 calls a minute. */
  rowBatchesPerMinute: number;
}

/** Everything the server reads from the environment, with working defaults. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** postgres://… to use PostgreSQL; unset means SQLite in dataDir. */
  databaseUrl?: string;
  /**
   * SQLite: how long a write waits, without blocking the server, for the write lock another
   * process holds on the file before it is refused with 503 storage.busy and Retry-After
   * (DB_BUSY_TIMEOUT_MS, default 5000; 0: refused at once). Unused on PostgreSQL.
   */
  dbBusyTimeoutMs: number;
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
  /**
   * send_code limits within a 10-minute window: codes per e-mail (SEND_CODE_LIMIT_PER_EMAIL,
   * default 5), per e-mail from one address (SEND_CODE_LIMIT_PER_IP_EMAIL, default 3), and per
   * client address for any e-mails (SEND_CODE_LIMIT_PER_IP, default 300: an office of a few
   * hundred behind one NAT signs in on its first day; also register's and OAuth start's limit).
   */
  sendCodeLimitPerEmail: number;
  sendCodeLimitPerIpEmail: number;
  sendCodeLimitPerIp: number;
  /**
   * People one user may bring into workspaces in 10 minutes (INVITE_LIMIT_PER_10_MIN, default
   * 300: an admin adds a team's list in one go; members/add, members/add_list and page sharing
   * together; docs/adr/0002).
   */
  inviteLimitPeople: number;
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
  /** A row's property changes: one person's changes of a cell this close together are one entry (HISTORY_CELL_BURST_MS, default 60 s; docs/history.md). */
  historyCellBurstMs: number;
  /** The zone formulas' dates and `today()` are in (FORMULA_TIME_ZONE, an IANA name; default Europe/Moscow; docs/formulas.md). */
  formulaTimeZone: string;
  /** A change of formulas computes every row at once up to this many rows, in the background past it (FORMULA_INLINE_ROWS, default 2000). */
  formulaInlineRows: number;
  /** Webhooks may target private, loopback and link-local addresses (WEBHOOKS_ALLOW_PRIVATE, default false: a server inside a network only; docs/api/webhooks.md). */
  webhooksAllowPrivate: boolean;
  /** Link previews (bookmarks) may fetch private, loopback and link-local addresses (LINK_PREVIEW_ALLOW_PRIVATE, default false: for tests and a server whose users' links all point inside its network; docs/security.md «Fetching links»). */
  linkPreviewAllowPrivate: boolean;
  /**
   * Whether to believe X-Forwarded-For (client addresses for rate limits): false by default, so
   * nobody can dodge a per-address limit with a forged header; `true`, a hop count, or proxy
   * addresses (comma-separated) behind a reverse proxy.
   */
  trustProxy: boolean | number | string;
  /** Uploaded files live here (DATA_DIR/files by default), unless `s3` is set. */
  filesDir: string;
  /**
   * S3-compatible object storage for uploaded files and export zips (FILES_S3_*, docs/deploy.md);
   * what several server processes share. Unset: files live under filesDir.
   */
  s3?: S3Config;
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
  /** Per-user limits of the expensive calls (docs/security.md «Request limits»); 0: no limit. */
  userLimits: UserLimits;
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
    /**
     * Speak plain http to an issuer that is not on this machine (OAUTH_ALLOW_HTTP; default: https
     * only, except localhost, 127.x.x.x and [::1]). See `httpIssuerAllowed`.
     */
    allowHttp?: boolean;
  };
}

/** Where files live in S3-compatible object storage (AWS S3, MinIO, Cloudflare R2, Ceph…). */
export interface S3Config {
  /** FILES_S3_BUCKET: setting it turns S3 storage on. */
  bucket: string;
  /** FILES_S3_REGION (default us-east-1; R2 takes `auto`). */
  region: string;
  /** FILES_S3_ENDPOINT: another service than AWS (e.g. http://minio:9000); unset: AWS S3 of the region. */
  endpoint?: string;
  /** FILES_S3_FORCE_PATH_STYLE: `endpoint/bucket/key` addresses instead of `bucket.endpoint/key` (default: true with an endpoint). */
  forcePathStyle: boolean;
  /** FILES_S3_PREFIX: keys start with this (`pages/`), so one bucket can hold other things; '' by default. */
  prefix: string;
  /** FILES_S3_ACCESS_KEY_ID and FILES_S3_SECRET_ACCESS_KEY; unset: the AWS SDK's own chain (AWS_* variables, an instance role…). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
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

/** Thrown by loadConfig when environment variables are invalid: every bad one, named, with what is expected. */
export class ConfigError extends Error {
  constructor(readonly problems: ConfigProblem[]) {
    super(
      `Invalid configuration: ${problems.length === 1 ? 'an environment variable is' : `${problems.length} environment variables are`} wrong\n` +
        problems.map((p) => `  ${p.name}=${p.value === undefined ? '(unset)' : JSON.stringify(p.value)}: expected ${p.expected}`).join('\n'),
    );
    this.name = 'ConfigError';
  }
}

export interface ConfigProblem {
  name: string;
  /** As given, secrets masked (`***`); undefined when the variable is missing. */
  value: string | undefined;
  expected: string;
}

/** Variables whose value is never printed: secrets, passwords, keys, tokens. */
const SECRET_NAME = /SECRET|PASSWORD|PASSWD|KEY|TOKEN/i;

/** A value fit to print: secrets masked whole, a URL's password masked. */
export function maskedValue(name: string, value: string): string {
  if (SECRET_NAME.test(name)) return '***';
  return value.replace(/(\/\/[^/@\s:]*:)[^/@\s]*@/, '$1***@');
}

/** '' means unset, as `VAR= npm start` or an empty line in an env file does. */
const unset = (value: unknown) => (value === '' ? undefined : value);
function optional<T extends z.ZodType>(schema: T) {
  return z.preprocess(unset, schema.optional());
}

function integer(min: number, max = Number.MAX_SAFE_INTEGER) {
  const expected = max === Number.MAX_SAFE_INTEGER ? `a whole number ≥ ${min}` : `a whole number from ${min} to ${max}`;
  return optional(
    z
      .string()
      .refine((v) => /^\d+$/.test(v.trim()) && Number(v) >= min && Number(v) <= max, expected)
      .transform(Number),
  );
}

function boolean() {
  return optional(
    z
      .string()
      .refine((v) => /^(true|false|1|0)$/i.test(v.trim()), 'true, false, 1 or 0')
      .transform((v) => /^(true|1)$/i.test(v.trim())),
  );
}

function parsedUrl(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

/** An absolute URL with one of these schemes (`http:`, …). */
function url(...protocols: string[]) {
  const expected = `a URL (${protocols.map((p) => `${p}//…`).join(' or ')})`;
  return optional(
    z
      .string()
      .refine((v) => protocols.includes(parsedUrl(v.trim())?.protocol ?? ''), expected)
      .transform((v) => v.trim()),
  );
}

/** An http(s) URL or a path of this site (a javascript: link never reaches the page). */
function link() {
  return optional(
    z
      .string()
      .refine(
        (v) => (v.startsWith('/') && !v.startsWith('//')) || ['http:', 'https:'].includes(parsedUrl(v)?.protocol ?? ''),
        'an http(s) URL or a path starting with /',
      )
      .transform((v) => (v.startsWith('/') ? v : (parsedUrl(v) as URL).toString())),
  );
}

const text = () => optional(z.string());
const trimSlashes = (value: string) => value.replace(/\/+$/, '');

/** What proxy-addr (Fastify's trustProxy) takes by name, besides addresses and subnets. */
const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
function isProxyAddress(item: string): boolean {
  const [address, bits, ...rest] = item.split('/');
  if (rest.length > 0) return false;
  if (bits === undefined) return PROXY_NAMES.has(address) || net.isIP(address) !== 0;
  const kind = net.isIP(address);
  return kind !== 0 && /^\d+$/.test(bits) && Number(bits) <= (kind === 4 ? 32 : 128);
}

/**
 * Whether the OpenID Connect client may call this issuer over plain http: one on this machine
 * (a provider in development, the tests' provider), or any with OAUTH_ALLOW_HTTP=true; otherwise
 * openid-client speaks https only.
 */
export function httpIssuerAllowed(issuer: URL, allowHttp = false): boolean {
  if (issuer.protocol !== 'http:') return false;
  return allowHttp || issuer.hostname === 'localhost' || issuer.hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(issuer.hostname);
}

/** OpenID Connect sign-in needs all three. */
const OAUTH_REQUIRED = ['OAUTH_ISSUER_URL', 'OAUTH_CLIENT_ID', 'OAUTH_CLIENT_SECRET'] as const;

/** The rest of the S3 settings mean nothing without the bucket; the keys go in pairs. */
const S3_SETTINGS = [
  'FILES_S3_ENDPOINT',
  'FILES_S3_REGION',
  'FILES_S3_ACCESS_KEY_ID',
  'FILES_S3_SECRET_ACCESS_KEY',
  'FILES_S3_FORCE_PATH_STYLE',
  'FILES_S3_PREFIX',
] as const;
const S3_KEYS = ['FILES_S3_ACCESS_KEY_ID', 'FILES_S3_SECRET_ACCESS_KEY'] as const;
/** S3's rule for bucket names (MinIO and R2 keep it too). */
const BUCKET_NAME = /^(?=.{3,63}$)[a-z0-9][a-z0-9.-]*[a-z0-9]$/;
/** Key prefix: path segments of letters, digits, `.`, `_`, `-` (no `.` or `..` segment), optionally ending in `/`. */
const KEY_PREFIX = /^(?!.*(^|\/)\.{1,2}(\/|$))[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*\/?$/;

/** Every environment variable the server reads, checked at once (README «Configuration»). */
const envSchema = z.object({
  PORT: integer(1, 65535),
  HOST: text(),
  DATA_DIR: text(),
  FILES_DIR: text(),
  FILES_S3_BUCKET: optional(
    z
      .string()
      .refine((v) => BUCKET_NAME.test(v), 'a bucket name: 3–63 lower-case letters, digits, dots and hyphens, starting and ending with a letter or digit'),
  ),
  FILES_S3_ENDPOINT: url('http:', 'https:'),
  FILES_S3_REGION: optional(z.string().refine((v) => /^[a-z0-9-]+$/.test(v), 'a region name such as us-east-1, eu-central-1 or auto')),
  FILES_S3_ACCESS_KEY_ID: text(),
  FILES_S3_SECRET_ACCESS_KEY: text(),
  FILES_S3_FORCE_PATH_STYLE: boolean(),
  FILES_S3_PREFIX: optional(z.string().refine((v) => KEY_PREFIX.test(v), 'a key prefix such as pages/ (letters, digits, . _ - and /, no leading /)')),
  WEB_DIR: text(),
  DATABASE_URL: url('postgres:', 'postgresql:'),
  DB_BUSY_TIMEOUT_MS: integer(0, 60_000),
  REDIS_URL: url('redis:', 'rediss:'),
  PUBLIC_URL: url('http:', 'https:'),
  SMTP_URL: url('smtp:', 'smtps:'),
  MAIL_FROM: text(),
  LOG_LEVEL: optional(z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'one of fatal, error, warn, info, debug, trace, silent')),
  LOG_REQUESTS: boolean(),
  SEND_CODE_LIMIT_PER_EMAIL: integer(1),
  SEND_CODE_LIMIT_PER_IP: integer(1),
  SEND_CODE_LIMIT_PER_IP_EMAIL: integer(1),
  INVITE_LIMIT_PER_10_MIN: integer(1),
  SESSION_TTL_DAYS: integer(1),
  AUTH_CACHE_TTL_MS: integer(0),
  SEARCH_INDEX_INTERVAL_MS: integer(1),
  HISTORY_PAUSE_MS: integer(1),
  HISTORY_MAX_MS: integer(1),
  HISTORY_DAYS: integer(0),
  HISTORY_CELL_BURST_MS: integer(0),
  FORMULA_TIME_ZONE: optional(
    z.string().refine((zone) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: zone });
        return true;
      } catch {
        return false;
      }
    }, 'an IANA time zone such as Europe/Moscow'),
  ),
  FORMULA_INLINE_ROWS: integer(0),
  WEBHOOKS_ALLOW_PRIVATE: boolean(),
  LINK_PREVIEW_ALLOW_PRIVATE: boolean(),
  TRUST_PROXY: optional(
    z
      .string()
      .refine(
        (v) => /^(true|false|\d+)$/.test(v) || v.split(',').every((item) => isProxyAddress(item.trim())),
        'true, false, a hop count, or proxy addresses/subnets (comma-separated)',
      )
      .transform((v): boolean | number | string => (v === 'true' ? true : v === 'false' ? false : /^\d+$/.test(v) ? Number(v) : v)),
  ),
  UPLOAD_LIMIT_MB: integer(1),
  STORAGE_QUOTA_MB: integer(0),
  FEEDBACK_EMAIL: optional(z.string().refine(isEmail, 'an e-mail address')),
  TELEGRAM_BOT_TOKEN: text(),
  TELEGRAM_WEBHOOK_SECRET: text(),
  TELEGRAM_API_URL: url('http:', 'https:'),
  HELP_URL: link(),
  PRIVACY_URL: link(),
  TERMS_URL: link(),
  DOCS_URL: link(),
  TEMPLATES_URL: link(),
  AI_BASE_URL: url('http:', 'https:'),
  AI_API_KEY: text(),
  AI_MODEL: text(),
  AI_TIMEOUT_MS: integer(1),
  AI_RATE_LIMIT_PER_MINUTE: integer(0),
  SEARCH_LIMIT_PER_10_S: integer(0),
  IMPORT_LIMIT_PER_10_MIN: integer(0),
  IMPORT_CONCURRENCY: integer(0),
  IMPORT_CONCURRENCY_TOTAL: integer(0),
  EXPORT_LIMIT_PER_10_MIN: integer(0),
  ROWS_LIMIT_PER_MINUTE: integer(0),
  AI_MAX_TOKENS: integer(1),
  AI_SPELLCHECK: boolean(),
  OAUTH_ISSUER_URL: url('http:', 'https:'),
  OAUTH_CLIENT_ID: text(),
  OAUTH_CLIENT_SECRET: text(),
  OAUTH_SERVICE_NAME: text(),
  OAUTH_SCOPES: text(),
  OAUTH_DISPLAY_NAME: text(),
  OAUTH_ALLOW_HTTP: boolean(),
});

/** The environment, checked against envSchema; a ConfigError names every bad variable. */
function parseEnv(env: NodeJS.ProcessEnv): z.output<typeof envSchema> {
  const result = envSchema.safeParse(env);
  const problems = new Map<string, ConfigProblem>();
  const problem = (name: string, expected: string) => {
    const value = env[name];
    if (!problems.has(name)) problems.set(name, { name, value: value === undefined || value === '' ? undefined : maskedValue(name, value), expected });
  };
  for (const issue of result.error?.issues ?? []) problem(String(issue.path[0]), issue.message);
  // Sign-in with an OpenID Connect provider is on when all three are set; some of them alone is a mistake.
  const given = OAUTH_REQUIRED.filter((name) => unset(env[name]) !== undefined);
  if (given.length > 0 && given.length < OAUTH_REQUIRED.length) {
    for (const name of OAUTH_REQUIRED) {
      if (!given.includes(name))
        problem(name, `to be set too, as ${given.join(' and ')} ${given.length === 1 ? 'is' : 'are'} (all three turn OpenID Connect sign-in on)`);
    }
  }
  // An issuer reached over plain http could be impersonated on the way: https unless on this machine, or said so.
  const issuer = result.data?.OAUTH_ISSUER_URL;
  if (issuer?.startsWith('http:') && !httpIssuerAllowed(new URL(issuer), result.data?.OAUTH_ALLOW_HTTP)) {
    problem('OAUTH_ISSUER_URL', 'an https:// URL (http:// only on localhost, 127.0.0.1 or [::1], or with OAUTH_ALLOW_HTTP=true)');
  }
  // S3 storage is on when the bucket is named; its other settings alone are a mistake, and so is one key without the other.
  const s3Given = S3_SETTINGS.filter((name) => unset(env[name]) !== undefined);
  if (s3Given.length > 0 && unset(env.FILES_S3_BUCKET) === undefined) {
    problem('FILES_S3_BUCKET', `to be set too, as ${s3Given.join(' and ')} ${s3Given.length === 1 ? 'is' : 'are'} (the bucket turns S3 file storage on)`);
  }
  const keysGiven = S3_KEYS.filter((name) => unset(env[name]) !== undefined);
  if (keysGiven.length === 1) {
    const missing = S3_KEYS.find((name) => name !== keysGiven[0])!;
    problem(missing, `to be set too, as ${keysGiven[0]} is (the two go together; both unset: the AWS SDK's own credentials)`);
  }
  if (problems.size > 0 || !result.success) throw new ConfigError([...problems.values()]);
  return result.data;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const e = parseEnv(env);
  const port = e.PORT ?? 3000;
  const config: Omit<Config, 'filesDir'> & Partial<Pick<Config, 'filesDir'>> = {
    port,
    host: e.HOST ?? '0.0.0.0',
    dataDir: path.resolve(e.DATA_DIR ?? './data'),
    databaseUrl: e.DATABASE_URL,
    dbBusyTimeoutMs: e.DB_BUSY_TIMEOUT_MS ?? DEFAULT_BUSY_TIMEOUT_MS,
    redisUrl: e.REDIS_URL,
    publicUrl: e.PUBLIC_URL ?? `http://localhost:${port}`,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM ?? 'Страницы <no-reply@localhost>',
    logLevel: e.LOG_LEVEL ?? 'info',
    logRequests: e.LOG_REQUESTS ?? true,
    webDir: path.resolve(e.WEB_DIR ?? 'dist'),
    sendCodeLimitPerEmail: e.SEND_CODE_LIMIT_PER_EMAIL ?? 5,
    sendCodeLimitPerIpEmail: e.SEND_CODE_LIMIT_PER_IP_EMAIL ?? 3,
    sendCodeLimitPerIp: e.SEND_CODE_LIMIT_PER_IP ?? 300,
    inviteLimitPeople: e.INVITE_LIMIT_PER_10_MIN ?? INVITE_LIMIT.people,
    sessionTtlDays: e.SESSION_TTL_DAYS ?? 30,
    authCacheTtlMs: e.AUTH_CACHE_TTL_MS ?? 2000,
    searchIndexIntervalMs: e.SEARCH_INDEX_INTERVAL_MS ?? 250,
    historyPauseMs: e.HISTORY_PAUSE_MS ?? 120_000,
    historyMaxMs: e.HISTORY_MAX_MS ?? 600_000,
    historyDays: e.HISTORY_DAYS ?? 30,
    historyCellBurstMs: e.HISTORY_CELL_BURST_MS ?? 60_000,
    formulaTimeZone: e.FORMULA_TIME_ZONE ?? 'Europe/Moscow',
    formulaInlineRows: e.FORMULA_INLINE_ROWS ?? 2_000,
    webhooksAllowPrivate: e.WEBHOOKS_ALLOW_PRIVATE ?? false,
    linkPreviewAllowPrivate: e.LINK_PREVIEW_ALLOW_PRIVATE ?? false,
    trustProxy: e.TRUST_PROXY ?? false,
    uploadLimitBytes: (e.UPLOAD_LIMIT_MB ?? 50) * 1024 * 1024,
    storageQuotaBytes: (e.STORAGE_QUOTA_MB ?? 0) * 1024 * 1024,
    feedbackEmail: e.FEEDBACK_EMAIL,
    telegramBotToken: e.TELEGRAM_BOT_TOKEN,
    telegramWebhookSecret: e.TELEGRAM_WEBHOOK_SECRET,
    telegramApiUrl: trimSlashes(e.TELEGRAM_API_URL ?? 'https://api.telegram.org'),
    links: {
      help: e.HELP_URL ?? null,
      privacy: e.PRIVACY_URL ?? null,
      terms: e.TERMS_URL ?? null,
      docs: e.DOCS_URL ?? null,
      templates: e.TEMPLATES_URL ?? null,
    },
    userLimits: {
      searchPer10s: e.SEARCH_LIMIT_PER_10_S ?? 30,
      importsPer10Min: e.IMPORT_LIMIT_PER_10_MIN ?? 10,
      importsAtOnce: e.IMPORT_CONCURRENCY ?? 2,
      importsAtOnceTotal: e.IMPORT_CONCURRENCY_TOTAL ?? 2,
      exportsPer10Min: e.EXPORT_LIMIT_PER_10_MIN ?? 20,
      rowBatchesPerMinute: e.ROWS_LIMIT_PER_MINUTE ?? 120,
    },
    ai: {
      baseUrl: e.AI_BASE_URL === undefined ? undefined : trimSlashes(e.AI_BASE_URL),
      apiKey: e.AI_API_KEY,
      model: e.AI_MODEL,
      timeoutMs: e.AI_TIMEOUT_MS ?? 60_000,
      rateLimitPerMinute: e.AI_RATE_LIMIT_PER_MINUTE ?? 20,
      maxTokens: e.AI_MAX_TOKENS ?? 2048,
      spellcheck: e.AI_SPELLCHECK ?? true,
    },
    oauth:
      e.OAUTH_ISSUER_URL && e.OAUTH_CLIENT_ID && e.OAUTH_CLIENT_SECRET
        ? {
            issuerUrl: e.OAUTH_ISSUER_URL,
            clientId: e.OAUTH_CLIENT_ID,
            clientSecret: e.OAUTH_CLIENT_SECRET,
            serviceName: e.OAUTH_SERVICE_NAME ?? 'oidc',
            scopes: e.OAUTH_SCOPES ?? 'openid email profile',
            displayName: e.OAUTH_DISPLAY_NAME,
            allowHttp: e.OAUTH_ALLOW_HTTP ?? false,
          }
        : undefined,
    s3: e.FILES_S3_BUCKET
      ? {
          bucket: e.FILES_S3_BUCKET,
          region: e.FILES_S3_REGION ?? 'us-east-1',
          endpoint: e.FILES_S3_ENDPOINT,
          forcePathStyle: e.FILES_S3_FORCE_PATH_STYLE ?? e.FILES_S3_ENDPOINT !== undefined,
          prefix: e.FILES_S3_PREFIX === undefined ? '' : `${trimSlashes(e.FILES_S3_PREFIX)}/`,
          credentials:
            e.FILES_S3_ACCESS_KEY_ID && e.FILES_S3_SECRET_ACCESS_KEY
              ? { accessKeyId: e.FILES_S3_ACCESS_KEY_ID, secretAccessKey: e.FILES_S3_SECRET_ACCESS_KEY }
              : undefined,
        }
      : undefined,
    ...overrides,
  };
  // Files sit beside the database unless FILES_DIR says otherwise.
  const filesDir = config.filesDir ?? path.resolve(e.FILES_DIR ?? path.join(config.dataDir, 'files'));
  return { ...config, filesDir };
}

/**
 * loadConfig for an entry point (`npm start`, `npm run search:rebuild`): on invalid variables,
 * one clear message on stderr and exit code 1, before anything starts.
 */
export function loadConfigOrExit(env: NodeJS.ProcessEnv = process.env): Config {
  try {
    return loadConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}

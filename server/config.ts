import path from 'node:path';

/** Everything the server reads from the environment, with working defaults. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** postgres://… to use PostgreSQL; unset means SQLite in dataDir. */
  databaseUrl?: string;
  /** The address people open, e.g. https://docs.example.com; decides secure cookies. */
  publicUrl: string;
  /** smtp://user:pass@host:port; unset means sign-in codes are printed in the log. */
  smtpUrl?: string;
  mailFrom: string;
  logLevel: string;
  /** Where the built web app is; the server serves it when it exists. */
  webDir: string;
  /** send_code limits within a 10-minute window. */
  sendCodeLimitPerEmail: number;
  sendCodeLimitPerIp: number;
  sessionTtlDays: number;
  /**
   * Whether to believe X-Forwarded-For (client addresses for rate limits): false by default, so
   * nobody can dodge a per-address limit with a forged header; `true`, a hop count, or proxy
   * addresses (comma-separated) behind a reverse proxy.
   */
  trustProxy: boolean | number | string;
}

function trustProxyFrom(value: string | undefined): boolean | number | string {
  if (!value || value === 'false') return false;
  if (value === 'true') return true;
  return /^\d+$/.test(value) ? Number(value) : value;
}

function int(value: string | undefined, fallback: number): number {
  const parsed = value === undefined || value === '' ? NaN : Number(value);
  return Number.isInteger(parsed) && parsed >= 0 ? parsed : fallback;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const port = int(env.PORT, 3000);
  return {
    port,
    host: env.HOST || '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    publicUrl: env.PUBLIC_URL || `http://localhost:${port}`,
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || 'Страницы <no-reply@localhost>',
    logLevel: env.LOG_LEVEL || 'info',
    webDir: path.resolve(env.WEB_DIR || 'dist'),
    sendCodeLimitPerEmail: int(env.SEND_CODE_LIMIT_PER_EMAIL, 5),
    sendCodeLimitPerIp: int(env.SEND_CODE_LIMIT_PER_IP, 30),
    sessionTtlDays: int(env.SESSION_TTL_DAYS, 30),
    trustProxy: trustProxyFrom(env.TRUST_PROXY),
    ...overrides,
  };
}

import { spawn } from 'node:child_process';
import path from 'node:path';
import { ConfigError, loadConfig, maskedValue, type ConfigProblem } from './config';
import { ensureServerBuild, SERVER_BUNDLE } from './build/builds.mjs';

/** The problems loadConfig reports for an environment; fails the test when it does not throw. */
function problems(env: NodeJS.ProcessEnv): ConfigProblem[] {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

/** The message a ConfigError carries for an environment. */
function message(env: NodeJS.ProcessEnv): string {
  try {
    loadConfig(env);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

/** Every variable set, to valid values (README «Configuration», «AI assistant»). */
const FULL = {
  PORT: '8080',
  HOST: '127.0.0.1',
  DATA_DIR: '/srv/pages',
  FILES_DIR: '/srv/files',
  FILES_S3_BUCKET: 'pages-files',
  FILES_S3_ENDPOINT: 'https://minio.example.com:9000/',
  FILES_S3_REGION: 'eu-central-1',
  FILES_S3_ACCESS_KEY_ID: 'AKIA1',
  FILES_S3_SECRET_ACCESS_KEY: 'secret1',
  FILES_S3_FORCE_PATH_STYLE: 'false',
  FILES_S3_PREFIX: 'pages/uploads/',
  WEB_DIR: 'build/web',
  DATABASE_URL: 'postgres://pages:pw@db:5432/pages',
  DB_BUSY_TIMEOUT_MS: '2500',
  REDIS_URL: 'redis://cache:6379',
  PUBLIC_URL: 'https://docs.example.com',
  SMTP_URL: 'smtps://u:p@mail.example.com:465',
  MAIL_FROM: 'Docs <docs@example.com>',
  LOG_LEVEL: 'warn',
  LOG_REQUESTS: 'false',
  SEND_CODE_LIMIT_PER_EMAIL: '3',
  SEND_CODE_LIMIT_PER_IP: '100',
  SEND_CODE_LIMIT_PER_IP_EMAIL: '2',
  INVITE_LIMIT_PER_10_MIN: '50',
  SEARCH_LIMIT_PER_10_S: '40',
  IMPORT_LIMIT_PER_10_MIN: '6',
  IMPORT_CONCURRENCY: '1',
  IMPORT_CONCURRENCY_TOTAL: '3',
  EXPORT_LIMIT_PER_10_MIN: '0',
  ROWS_LIMIT_PER_MINUTE: '200',
  SESSION_TTL_DAYS: '7',
  AUTH_CACHE_TTL_MS: '0',
  SEARCH_INDEX_INTERVAL_MS: '1000',
  HISTORY_PAUSE_MS: '300',
  HISTORY_MAX_MS: '3000',
  HISTORY_DAYS: '90',
  HISTORY_CELL_BURST_MS: '5000',
  FORMULA_TIME_ZONE: 'Asia/Yekaterinburg',
  FORMULA_INLINE_ROWS: '500',
  TRUST_PROXY: '2',
  UPLOAD_LIMIT_MB: '200',
  STORAGE_QUOTA_MB: '1024',
  FEEDBACK_EMAIL: 'support@example.com',
  TELEGRAM_BOT_TOKEN: '123:abc',
  TELEGRAM_WEBHOOK_SECRET: 's3',
  TELEGRAM_API_URL: 'http://127.0.0.1:9000/',
  HELP_URL: 'https://t.me/helpbot',
  PRIVACY_URL: '/legal/privacy',
  TERMS_URL: 'https://example.com/terms',
  DOCS_URL: 'https://docs.example.com',
  TEMPLATES_URL: '/templates',
  AI_BASE_URL: 'http://localhost:11434/v1/',
  AI_API_KEY: 'sk-1',
  AI_MODEL: 'qwen2.5',
  AI_TIMEOUT_MS: '1500',
  AI_RATE_LIMIT_PER_MINUTE: '0',
  AI_MAX_TOKENS: '512',
  AI_SPELLCHECK: 'false',
  OAUTH_ISSUER_URL: 'https://id.example.com/realms/x',
  OAUTH_CLIENT_ID: 'pages',
  OAUTH_CLIENT_SECRET: 'shh',
  OAUTH_SERVICE_NAME: 'keycloak',
  OAUTH_SCOPES: 'openid email',
  OAUTH_DISPLAY_NAME: 'Keycloak',
  OAUTH_ALLOW_HTTP: 'false',
};

describe('loadConfig: valid environments', () => {
  test('defaults when nothing is set, and when everything is set to an empty string', () => {
    const defaults = loadConfig({});
    expect(defaults).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      dataDir: path.resolve('data'),
      filesDir: path.resolve('data', 'files'),
      publicUrl: 'http://localhost:3000',
      dbBusyTimeoutMs: 5000,
      logLevel: 'info',
      logRequests: true,
      formulaTimeZone: 'Europe/Moscow',
      formulaInlineRows: 2000,
      webhooksAllowPrivate: false,
      linkPreviewAllowPrivate: false,
      trustProxy: false,
      uploadLimitBytes: 50 * 1024 * 1024,
      storageQuotaBytes: 0,
      telegramApiUrl: 'https://api.telegram.org',
      ai: { timeoutMs: 60_000, rateLimitPerMinute: 20, maxTokens: 2048, spellcheck: true },
    });
    expect(defaults.oauth).toBeUndefined();
    expect(defaults.s3).toBeUndefined();
    expect(loadConfig(Object.fromEntries(Object.keys(FULL).map((name) => [name, ''])))).toEqual(defaults);
  });

  test('every variable set: parsed as before (numbers, booleans, trimmed URLs, links)', () => {
    expect(loadConfig(FULL)).toEqual({
      port: 8080,
      host: '127.0.0.1',
      dataDir: '/srv/pages',
      filesDir: '/srv/files',
      s3: {
        bucket: 'pages-files',
        endpoint: 'https://minio.example.com:9000/',
        region: 'eu-central-1',
        credentials: { accessKeyId: 'AKIA1', secretAccessKey: 'secret1' },
        forcePathStyle: false,
        prefix: 'pages/uploads/',
      },
      webDir: path.resolve('build/web'),
      databaseUrl: 'postgres://pages:pw@db:5432/pages',
      dbBusyTimeoutMs: 2500,
      redisUrl: 'redis://cache:6379',
      publicUrl: 'https://docs.example.com',
      smtpUrl: 'smtps://u:p@mail.example.com:465',
      mailFrom: 'Docs <docs@example.com>',
      logLevel: 'warn',
      logRequests: false,
      sendCodeLimitPerEmail: 3,
      sendCodeLimitPerIp: 100,
      sendCodeLimitPerIpEmail: 2,
      inviteLimitPeople: 50,
      userLimits: { searchPer10s: 40, importsPer10Min: 6, importsAtOnce: 1, importsAtOnceTotal: 3, exportsPer10Min: 0, rowBatchesPerMinute: 200 },
      sessionTtlDays: 7,
      authCacheTtlMs: 0,
      searchIndexIntervalMs: 1000,
      historyPauseMs: 300,
      historyMaxMs: 3000,
      historyDays: 90,
      historyCellBurstMs: 5000,
      formulaTimeZone: 'Asia/Yekaterinburg',
      formulaInlineRows: 500,
      webhooksAllowPrivate: false,
      linkPreviewAllowPrivate: false,
      trustProxy: 2,
      uploadLimitBytes: 200 * 1024 * 1024,
      storageQuotaBytes: 1024 * 1024 * 1024,
      feedbackEmail: 'support@example.com',
      telegramBotToken: '123:abc',
      telegramWebhookSecret: 's3',
      telegramApiUrl: 'http://127.0.0.1:9000',
      links: {
        help: 'https://t.me/helpbot',
        privacy: '/legal/privacy',
        terms: 'https://example.com/terms',
        docs: 'https://docs.example.com/',
        templates: '/templates',
      },
      ai: { baseUrl: 'http://localhost:11434/v1', apiKey: 'sk-1', model: 'qwen2.5', timeoutMs: 1500, rateLimitPerMinute: 0, maxTokens: 512, spellcheck: false },
      oauth: {
        issuerUrl: 'https://id.example.com/realms/x',
        clientId: 'pages',
        clientSecret: 'shh',
        serviceName: 'keycloak',
        scopes: 'openid email',
        displayName: 'Keycloak',
        allowHttp: false,
      },
    });
  });

  test('booleans take true/false/1/0; TRUST_PROXY takes true, false, a hop count or addresses', () => {
    expect(loadConfig({ LOG_REQUESTS: '0', AI_SPELLCHECK: '1' })).toMatchObject({ logRequests: false, ai: { spellcheck: true } });
    expect(loadConfig({ LOG_REQUESTS: 'TRUE', AI_SPELLCHECK: 'False' })).toMatchObject({ logRequests: true, ai: { spellcheck: false } });
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 10.0.0.0/8,loopback,::1' }).trustProxy).toBe('10.0.0.1, 10.0.0.0/8,loopback,::1');
  });

  test('S3 file storage: the bucket alone turns it on (us-east-1, the SDK’s own credentials); an endpoint means path-style addresses unless told otherwise', () => {
    expect(loadConfig({ FILES_S3_BUCKET: 'files' }).s3).toEqual({
      bucket: 'files',
      region: 'us-east-1',
      endpoint: undefined,
      forcePathStyle: false,
      prefix: '',
      credentials: undefined,
    });
    expect(loadConfig({ FILES_S3_BUCKET: 'files', FILES_S3_ENDPOINT: 'http://minio:9000' }).s3).toMatchObject({
      endpoint: 'http://minio:9000',
      forcePathStyle: true,
    });
    expect(loadConfig({ FILES_S3_BUCKET: 'files', FILES_S3_ENDPOINT: 'http://minio:9000', FILES_S3_FORCE_PATH_STYLE: '0' }).s3?.forcePathStyle).toBe(false);
    expect(loadConfig({ FILES_S3_BUCKET: 'files', FILES_S3_PREFIX: 'a/b' }).s3?.prefix).toBe('a/b/');
    expect(loadConfig({ FILES_S3_BUCKET: 'files', FILES_S3_REGION: 'auto' }).s3?.region).toBe('auto');
  });

  test('overrides win over the environment (test/helpers/testApp.ts)', () => {
    const config = loadConfig({ PORT: '4000', DATA_DIR: '/a' }, { port: 5000, dataDir: '/b' });
    expect(config).toMatchObject({ port: 5000, dataDir: '/b', filesDir: path.join('/b', 'files'), publicUrl: 'http://localhost:4000' });
  });
});

describe('loadConfig: invalid environments fail with every bad variable named', () => {
  test('PORT=abc, PORT=70000 and PORT=0 are not ports', () => {
    for (const value of ['abc', '70000', '0', '80.5', '-1']) {
      expect(problems({ PORT: value })).toEqual([{ name: 'PORT', value, expected: 'a whole number from 1 to 65535' }]);
    }
    expect(message({ PORT: 'abc' })).toContain('PORT="abc": expected a whole number from 1 to 65535');
  });

  test('UPLOAD_LIMIT_MB=-1, 0 and 1.5 are not upload limits', () => {
    for (const value of ['-1', '0', '1.5', 'lots']) {
      expect(problems({ UPLOAD_LIMIT_MB: value })).toEqual([{ name: 'UPLOAD_LIMIT_MB', value, expected: 'a whole number ≥ 1' }]);
    }
  });

  test('DB_BUSY_TIMEOUT_MS is a whole number of milliseconds up to a minute; 0 refuses a locked write at once', () => {
    expect(loadConfig({ DB_BUSY_TIMEOUT_MS: '0' }).dbBusyTimeoutMs).toBe(0);
    expect(loadConfig({ DB_BUSY_TIMEOUT_MS: '60000' }).dbBusyTimeoutMs).toBe(60_000);
    for (const value of ['-1', '1.5', '60001', 'soon']) {
      expect(problems({ DB_BUSY_TIMEOUT_MS: value })).toEqual([{ name: 'DB_BUSY_TIMEOUT_MS', value, expected: 'a whole number from 0 to 60000' }]);
    }
  });

  test('URLs are checked as URLs of the right kind', () => {
    expect(problems({ PUBLIC_URL: 'docs.example.com' })).toEqual([
      { name: 'PUBLIC_URL', value: 'docs.example.com', expected: 'a URL (http://… or https://…)' },
    ]);
    expect(problems({ DATABASE_URL: 'mysql://db/pages' })[0]).toMatchObject({ name: 'DATABASE_URL', expected: 'a URL (postgres://… or postgresql://…)' });
    expect(problems({ REDIS_URL: 'cache:6379' })[0].name).toBe('REDIS_URL');
    expect(problems({ SMTP_URL: 'mail.example.com' })[0].name).toBe('SMTP_URL');
    expect(problems({ AI_BASE_URL: 'localhost:11434' })[0].name).toBe('AI_BASE_URL');
    expect(problems({ PRIVACY_URL: 'javascript:alert(1)' })).toEqual([
      { name: 'PRIVACY_URL', value: 'javascript:alert(1)', expected: 'an http(s) URL or a path starting with /' },
    ]);
    expect(problems({ TERMS_URL: '//evil.example/terms' })[0].name).toBe('TERMS_URL');
  });

  test('booleans, levels, e-mails and proxies that mean nothing are refused', () => {
    expect(problems({ LOG_REQUESTS: 'no' })).toEqual([{ name: 'LOG_REQUESTS', value: 'no', expected: 'true, false, 1 or 0' }]);
    expect(problems({ LOG_LEVEL: 'loud' })[0].name).toBe('LOG_LEVEL');
    expect(problems({ FEEDBACK_EMAIL: 'support' })[0].name).toBe('FEEDBACK_EMAIL');
    expect(problems({ TRUST_PROXY: 'yes' })[0].name).toBe('TRUST_PROXY');
    expect(problems({ TRUST_PROXY: '10.0.0.0/99' })[0].name).toBe('TRUST_PROXY');
    expect(problems({ FORMULA_TIME_ZONE: 'Moscow' })).toEqual([
      { name: 'FORMULA_TIME_ZONE', value: 'Moscow', expected: 'an IANA time zone such as Europe/Moscow' },
    ]);
    expect(problems({ FORMULA_INLINE_ROWS: '-1' })[0].name).toBe('FORMULA_INLINE_ROWS');
  });

  test('OpenID Connect with only some of issuer, client id and secret names the missing ones', () => {
    expect(problems({ OAUTH_ISSUER_URL: 'https://id.example.com', OAUTH_CLIENT_ID: 'pages' })).toEqual([
      {
        name: 'OAUTH_CLIENT_SECRET',
        value: undefined,
        expected: 'to be set too, as OAUTH_ISSUER_URL and OAUTH_CLIENT_ID are (all three turn OpenID Connect sign-in on)',
      },
    ]);
  });

  test('an OpenID Connect issuer over plain http: only on this machine, or with OAUTH_ALLOW_HTTP=true', () => {
    const oauth = { OAUTH_CLIENT_ID: 'pages', OAUTH_CLIENT_SECRET: 'shh' };
    expect(problems({ ...oauth, OAUTH_ISSUER_URL: 'http://id.example.com/realms/x' })).toEqual([
      {
        name: 'OAUTH_ISSUER_URL',
        value: 'http://id.example.com/realms/x',
        expected: 'an https:// URL (http:// only on localhost, 127.0.0.1 or [::1], or with OAUTH_ALLOW_HTTP=true)',
      },
    ]);
    expect(problems({ ...oauth, OAUTH_ISSUER_URL: 'http://127.0.0.1.example.com' })[0]?.name).toBe('OAUTH_ISSUER_URL');
    for (const issuerUrl of ['http://localhost:8080/realms/x', 'http://127.0.0.1:9000', 'http://[::1]:9000', 'https://id.example.com']) {
      expect(loadConfig({ ...oauth, OAUTH_ISSUER_URL: issuerUrl }).oauth).toMatchObject({ issuerUrl, allowHttp: false });
    }
    expect(loadConfig({ ...oauth, OAUTH_ISSUER_URL: 'http://keycloak:8080/realms/x', OAUTH_ALLOW_HTTP: 'true' }).oauth).toMatchObject({
      issuerUrl: 'http://keycloak:8080/realms/x',
      allowHttp: true,
    });
  });

  test('incomplete or wrong S3 settings name the variable: no bucket, one key of the pair, a bad bucket name, endpoint or prefix', () => {
    expect(problems({ FILES_S3_ENDPOINT: 'http://minio:9000', FILES_S3_REGION: 'eu-central-1' })).toEqual([
      {
        name: 'FILES_S3_BUCKET',
        value: undefined,
        expected: 'to be set too, as FILES_S3_ENDPOINT and FILES_S3_REGION are (the bucket turns S3 file storage on)',
      },
    ]);
    expect(problems({ FILES_S3_BUCKET: 'files', FILES_S3_ACCESS_KEY_ID: 'AKIA1' })).toEqual([
      {
        name: 'FILES_S3_SECRET_ACCESS_KEY',
        value: undefined,
        expected: "to be set too, as FILES_S3_ACCESS_KEY_ID is (the two go together; both unset: the AWS SDK's own credentials)",
      },
    ]);
    expect(problems({ FILES_S3_BUCKET: 'files', FILES_S3_SECRET_ACCESS_KEY: 'shh' }).map((p) => [p.name, p.value])).toEqual([
      ['FILES_S3_ACCESS_KEY_ID', undefined],
    ]);
    for (const bucket of ['ab', 'My_Bucket', '-files', 'files-', 'a'.repeat(64), 'files/x']) {
      expect(problems({ FILES_S3_BUCKET: bucket })).toEqual([
        {
          name: 'FILES_S3_BUCKET',
          value: bucket,
          expected: 'a bucket name: 3–63 lower-case letters, digits, dots and hyphens, starting and ending with a letter or digit',
        },
      ]);
    }
    expect(problems({ FILES_S3_BUCKET: 'files', FILES_S3_ENDPOINT: 'minio:9000' })[0]).toMatchObject({
      name: 'FILES_S3_ENDPOINT',
      expected: 'a URL (http://… or https://…)',
    });
    for (const prefix of ['/pages', '../x', 'a/../b', 'a//b', 'a b'])
      expect(problems({ FILES_S3_BUCKET: 'files', FILES_S3_PREFIX: prefix }).map((p) => p.name)).toEqual(['FILES_S3_PREFIX']);
    expect(problems({ FILES_S3_BUCKET: 'files', FILES_S3_FORCE_PATH_STYLE: 'yes' })[0].name).toBe('FILES_S3_FORCE_PATH_STYLE');
    // The keys are never printed.
    expect(message({ FILES_S3_ACCESS_KEY_ID: 'AKIA-visible', FILES_S3_SECRET_ACCESS_KEY: 'secret-visible' })).not.toMatch(/visible/);
  });

  test('several at once: all of them in one error, in one message', () => {
    const env = { PORT: '70000', UPLOAD_LIMIT_MB: '-1', PUBLIC_URL: 'nope', HISTORY_DAYS: 'forever', AI_SPELLCHECK: 'maybe' };
    expect(
      problems(env)
        .map((p) => p.name)
        .sort(),
    ).toEqual(['AI_SPELLCHECK', 'HISTORY_DAYS', 'PORT', 'PUBLIC_URL', 'UPLOAD_LIMIT_MB']);
    const text = message(env);
    expect(text).toMatch(/^Invalid configuration: 5 environment variables are wrong/);
    for (const name of Object.keys(env)) expect(text).toContain(`\n  ${name}=`);
  });

  test('secrets are masked: *_SECRET, *_KEY, tokens and passwords inside URLs never appear', () => {
    const env = {
      OAUTH_ISSUER_URL: 'https://id.example.com',
      OAUTH_CLIENT_SECRET: 'top-secret-value',
      AI_API_KEY: 'sk-very-secret',
      AI_TIMEOUT_MS: 'soon',
      DATABASE_URL: 'postgres://pages:hunter2@db:99999/pages',
      SMTP_URL: 'smtp://robot:pa55word@',
    };
    const found = problems({ ...env, TELEGRAM_BOT_TOKEN: '123:abc' });
    expect(found.find((p) => p.name === 'DATABASE_URL')?.value).toBe('postgres://pages:***@db:99999/pages');
    expect(found.find((p) => p.name === 'SMTP_URL')?.value).toBe('smtp://robot:***@');
    const text = message(env);
    for (const secret of ['top-secret-value', 'sk-very-secret', 'hunter2', 'pa55word']) expect(text).not.toContain(secret);
    // Whatever a secret's name: its whole value is masked.
    for (const name of ['OAUTH_CLIENT_SECRET', 'TELEGRAM_WEBHOOK_SECRET', 'AI_API_KEY', 'TELEGRAM_BOT_TOKEN', 'SMTP_PASSWORD'])
      expect(maskedValue(name, 'x1')).toBe('***');
    expect(maskedValue('PUBLIC_URL', 'https://docs.example.com')).toBe('https://docs.example.com');
  });
});

describe('the server with an invalid environment', () => {
  test('PORT=abc: exits with code 1 and a message naming PORT, before listening', async () => {
    const started = Date.now();
    await ensureServerBuild();
    const child = spawn(process.execPath, [SERVER_BUNDLE], {
      cwd: process.cwd(),
      env: { ...process.env, PORT: 'abc', HOST: '127.0.0.1', DATA_DIR: '/nonexistent/never-created' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // Before the check, PORT=abc became 3000 and the server listened: stop it rather than wait forever.
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    clearTimeout(timer);
    expect(code).toBe(1);
    expect(stderr).toContain('Invalid configuration');
    expect(stderr).toContain('PORT="abc": expected a whole number from 1 to 65535');
    // One clear message, no stack trace; nothing started.
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(stdout).not.toContain('open http');
    expect(Date.now() - started).toBeLessThan(15_000);
  }, 20_000);
});

import { ConfigError, loadConfig } from '../config';
import { api, body, createTestApp } from '../../test/helpers/testApp';

describe('GET /api/config', () => {
  test('anyone reads the links; unset ones are null', async () => {
    const t = await createTestApp({
      publicUrl: 'https://docs.example.com:8443',
      links: { help: 'https://t.me/helpbot', privacy: '/legal/privacy', terms: null, docs: 'https://docs.example.com/', templates: null },
    });
    try {
      const res = await api(t, undefined, 'GET', '/api/config');
      expect(res.statusCode).toBe(200);
      expect(body(res).data).toEqual({
        links: { help: 'https://t.me/helpbot', privacy: '/legal/privacy', terms: null, docs: 'https://docs.example.com/', templates: null },
        defaultHost: 'docs.example.com:8443',
        ai: { model: false, timeoutMs: 60_000 },
        messenger: { bot: false },
        formulaTimeZone: 'Europe/Moscow',
      });
    } finally {
      await t.close();
    }
  });

  test('ai: whether a model is configured and how long the server waits for it (AI_TIMEOUT_MS, 60 s by default)', async () => {
    expect(loadConfig({}).ai.timeoutMs).toBe(60_000);
    const t = await createTestApp({ ai: loadConfig({ AI_BASE_URL: 'http://127.0.0.1:11434/v1/', AI_TIMEOUT_MS: '120000' }).ai });
    try {
      expect(body<{ ai: unknown }>(await api(t, undefined, 'GET', '/api/config')).data.ai).toEqual({ model: true, timeoutMs: 120_000 });
    } finally {
      await t.close();
    }
  });

  test('formulaTimeZone: the zone formulas are computed in (FORMULA_TIME_ZONE), for the formula editor’s preview', async () => {
    const t = await createTestApp({ formulaTimeZone: 'Asia/Vladivostok' });
    try {
      expect(body<{ formulaTimeZone: unknown }>(await api(t, undefined, 'GET', '/api/config')).data.formulaTimeZone).toBe('Asia/Vladivostok');
    } finally {
      await t.close();
    }
  });

  test('messenger: whether the server has a bot to link accounts with (TELEGRAM_BOT_TOKEN)', async () => {
    const t = await createTestApp({ telegramBotToken: '123456:test-bot-token' });
    try {
      expect(body<{ messenger: unknown }>(await api(t, undefined, 'GET', '/api/config')).data.messenger).toEqual({ bot: true });
    } finally {
      await t.close();
    }
  });

  test('links come from the environment; only http(s) URLs and paths of this site are accepted (server/config.test.ts: others stop the start)', () => {
    const { links } = loadConfig({ HELP_URL: 'https://t.me/helpbot', DOCS_URL: '/docs', PRIVACY_URL: '' });
    expect(links).toEqual({ help: 'https://t.me/helpbot', privacy: null, terms: null, docs: '/docs', templates: null });
    expect(loadConfig({}).links).toEqual({ help: null, privacy: null, terms: null, docs: null, templates: null });
    for (const bad of ['javascript:alert(1)', '//evil.example/terms', 'not a url']) expect(() => loadConfig({ TERMS_URL: bad })).toThrow(ConfigError);
  });
});

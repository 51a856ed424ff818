import pino from 'pino';
import { loadConfig } from './config';
import { createMailer } from './mail';
import { mailText, startSmtpSink } from '../test/helpers/smtpSink';

describe('mailer', () => {
  it('sends the sign-in code over real SMTP when SMTP_URL is set', async () => {
    const sink = await startSmtpSink();
    try {
      const config = loadConfig({ SMTP_URL: sink.url, MAIL_FROM: 'Страницы <robot@example.com>' });
      const mailer = createMailer(config, pino({ level: 'silent' }));
      await mailer.sendLoginCode('anna@example.com', '424242');
      mailer.close();
      expect(sink.messages).toHaveLength(1);
      expect(sink.messages[0].to).toEqual(['anna@example.com']);
      expect(sink.messages[0].from).toBe('robot@example.com');
      expect(mailText(sink.messages[0].raw)).toContain('Ваш код для входа: 424242');
    } finally {
      await sink.close();
    }
  });

  it('prints the code on one log line when no SMTP is configured', async () => {
    const lines: string[] = [];
    const log = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
    const mailer = createMailer(loadConfig({}), log);
    await mailer.sendLoginCode('boris@example.com', '123456');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]).msg).toBe('sign-in code for boris@example.com: 123456');
  });
});

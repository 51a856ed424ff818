import nodemailer, { type Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';

/** Sends the product's e-mails; without SMTP_URL it prints them in the log instead. */
export interface Mailer {
  sendLoginCode(email: string, code: string): Promise<void>;
  close(): void;
}

export function createMailer(config: Config, log: FastifyBaseLogger): Mailer {
  if (!config.smtpUrl) {
    return {
      async sendLoginCode(email, code) {
        // One clear line: this is how a self-hoster without SMTP signs in.
        log.info(`sign-in code for ${email}: ${code}`);
      },
      close() {},
    };
  }
  const transport: Transporter = nodemailer.createTransport(config.smtpUrl);
  return {
    async sendLoginCode(email, code) {
      await transport.sendMail({
        from: config.mailFrom,
        to: email,
        subject: `Код для входа: ${code}`,
        text: `Ваш код для входа: ${code}\n\nКод действует 10 минут. Если вы не запрашивали его, просто удалите это письмо.\n`,
      });
    },
    close() {
      transport.close();
    },
  };
}

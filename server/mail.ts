import nodemailer, { type Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';

/** Sends the product's e-mails; without SMTP_URL it prints them in the log instead. */
export interface Mailer {
  sendLoginCode(email: string, code: string): Promise<void>;
  /** Any other e-mail (invitations, feedback); plain text. */
  send(message: MailMessage): Promise<void>;
  close(): void;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  replyTo?: string;
}

export function createMailer(config: Config, log: FastifyBaseLogger): Mailer {
  if (!config.smtpUrl) {
    return {
      async sendLoginCode(email, code) {
        // One clear line: this is how a self-hoster without SMTP signs in.
        log.info(`sign-in code for ${email}: ${code}`);
      },
      async send(message) {
        log.info({ to: message.to, subject: message.subject }, `e-mail (no SMTP configured) to ${message.to}: ${message.subject}\n${message.text}`);
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
    async send(message) {
      await transport.sendMail({ from: config.mailFrom, ...message });
    },
    close() {
      transport.close();
    },
  };
}

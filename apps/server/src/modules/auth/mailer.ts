import nodemailer, { type Transporter } from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Outgoing email; `undefined` where SMTP is not configured (the features that need it are not offered). */
export interface Mailer {
  send(mail: Mail): Promise<void>;
  /** Connects (and signs in) without sending: rejects when the server would refuse or never answer. */
  verify(): Promise<void>;
  close(): void;
}

/** SMTP through nodemailer: SMTP_URL (smtp:// with STARTTLS when offered, smtps:// for implicit TLS). */
export function smtpMailer(smtpUrl: string, from: string): Mailer {
  const transport: Transporter = nodemailer.createTransport(smtpUrl);
  return {
    async send(mail) {
      await transport.sendMail({ from, ...mail });
    },
    async verify() {
      await transport.verify();
    },
    close: () => transport.close(),
  };
}

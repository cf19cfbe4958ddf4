import type { createTransport as CreateTransport, Transporter } from 'nodemailer';

/** One message, already written in the recipient's language. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Where mail goes: an smtp:// or smtps:// URL (user and password in it) and the sender. */
export interface MailTransportSettings {
  smtpUrl: string;
  from: string;
}

/**
 * The one way the server sends mail: SMTP through nodemailer. A transport is kept per SMTP URL (the back office may
 * change it while the server runs); the time-outs keep a dead server from holding a request for minutes. nodemailer
 * is loaded with the first message (a process that sends none does not keep it).
 */
export class MailTransport {
  private transports = new Map<string, Transporter>();

  async send(settings: MailTransportSettings, message: MailMessage): Promise<void> {
    const { createTransport } = await import('nodemailer');
    await this.transport(createTransport, settings.smtpUrl).sendMail({ from: settings.from, ...message });
  }

  private transport(createTransport: typeof CreateTransport, smtpUrl: string): Transporter {
    let transport = this.transports.get(smtpUrl);
    if (!transport) {
      // A changed URL makes the old transports useless: close them rather than keep one per past setting.
      this.close();
      transport = createTransport({
        url: smtpUrl,
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 20_000,
      });
      this.transports.set(smtpUrl, transport);
    }
    return transport;
  }

  close(): void {
    for (const transport of this.transports.values()) transport.close();
    this.transports.clear();
  }
}

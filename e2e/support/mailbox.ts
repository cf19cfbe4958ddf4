import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server in the test's own process (smtp-server): the forum under test mails through it
 * (`SMTP_URL=smtp://127.0.0.1:<port>`), and the test reads what arrived.
 */
export interface TestMailbox {
  url: string;
  /** Waits until `address` has received `count` messages (default 1) and answers the last, parsed. */
  waitFor(address: string, count?: number, timeoutMs?: number): Promise<ParsedMail>;
  close(): Promise<void>;
}

export async function startMailbox(): Promise<TestMailbox> {
  const received: Array<{ to: string[]; mail: ParsedMail }> = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    onData(stream, session, callback) {
      const to = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
      simpleParser(stream)
        .then((mail) => {
          received.push({ to, mail });
          callback();
        })
        .catch((err: Error) => callback(err));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  const to = (address: string) => received.filter((m) => m.to.includes(address.toLowerCase()));
  return {
    url: `smtp://127.0.0.1:${port}`,
    async waitFor(address, count = 1, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (to(address).length < count) {
        if (Date.now() > deadline) throw new Error(`no mail #${count} for ${address} within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return to(address)[count - 1]!.mail;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The link to `path` (/user/reset-password, /user/verify-email) in a mail's text. */
export function mailedLink(mail: ParsedMail, path: string): string {
  const match = new RegExp(`https?://[^\\s]+${path}\\?token=[\\w-]+`).exec(mail.text ?? '');
  if (!match) throw new Error(`no ${path} link in:\n${mail.text}`);
  return match[0];
}

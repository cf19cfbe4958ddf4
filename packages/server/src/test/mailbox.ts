import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A message the test SMTP server received: to whom (the envelope's recipients), and the parsed mail. */
export interface ReceivedMail {
  to: string[];
  mail: ParsedMail;
}

/** A real SMTP server in the test's process (smtp-server) keeping every message it receives. */
export interface TestMailbox {
  /** smtp://127.0.0.1:<port>, for SMTP_URL or the smtpUrl setting. */
  url: string;
  received: ReceivedMail[];
  /** The messages sent to one address so far. */
  to(address: string): ReceivedMail[];
  /** Waits until `address` has received `count` messages (default 1) and answers the last. */
  waitFor(address: string, count?: number, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

export async function startMailbox(): Promise<TestMailbox> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    // Plain SMTP on the loopback: no TLS, no login.
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
    received,
    to,
    async waitFor(address, count = 1, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (to(address).length < count) {
        if (Date.now() > deadline) throw new Error(`no mail #${count} for ${address} within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      return to(address)[count - 1]!;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The token of the link to `path` (/user/verify-email, /user/reset-password) in a mail's text. */
export function linkToken(mail: ReceivedMail, path: string): string {
  const match = new RegExp(`${path}\\?token=([\\w-]+)`).exec(mail.mail.text ?? '');
  if (!match) throw new Error(`no ${path} link in:\n${mail.mail.text}`);
  return match[1]!;
}

import { randomInt } from 'node:crypto';
import { Writable } from 'node:stream';

/** The server's log, line by line: the log provider (SMS_PROVIDER=log) writes every SMS there as one line. */
export class SmsLog extends Writable {
  readonly lines: string[] = [];
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  }

  /** The text of every SMS sent to `mobile`, oldest first. */
  messagesTo(mobile: string): string[] {
    return this.lines
      .map((line) => JSON.parse(line) as { sms?: { mobile: string; text: string } })
      .filter((entry) => entry.sms?.mobile === mobile)
      .map((entry) => entry.sms!.text);
  }

  /** The code in the newest SMS to `mobile`. */
  codeFor(mobile: string): string {
    const text = this.messagesTo(mobile).at(-1);
    const code = text ? /\d{6}/.exec(text)?.[0] : undefined;
    if (!code) throw new Error(`no SMS to ${mobile}`);
    return code;
  }
}

/** The environment of a test server that sends codes to its log, without waits or limits in the way. */
export const SMS_TEST_ENV = {
  SMS_PROVIDER: 'log',
  SMS_INTERVAL_SECONDS: '0',
  RATE_LIMIT_SMS_ADDRESS: '1000',
  SMS_DAILY_LIMIT: '100',
};

/** A random mainland number with the given three-digit start. */
export const randomMobile = (start = '139') => `${start}${String(randomInt(0, 10 ** 8)).padStart(8, '0')}`;

import net from 'node:net';
import { Code } from '@luntan/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../../test/harness.js';
import { useTestServer } from '../../test/fixture.js';

/**
 * Uploads refused early must not be read: over a real socket, a client keeps sending a 100 MB body as fast as the
 * server takes it, and counts how much the server took before it answered and hung up.
 */
const t = useTestServer();
let port: number;
let member: string;

const MB = 1024 * 1024;
const BOUNDARY = 'luntanUploadBoundary';

beforeAll(async () => {
  member = (await buildUser(t)).token;
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as net.AddressInfo).port;
});

interface Outcome {
  /** Bytes of the body the server accepted from the socket before answering and closing. */
  sent: number;
  /**
   * The envelope of the answer, or null when the connection was reset before the client read it: the server hangs up
   * on a sender still pushing data, and the kernel's reset can discard an answer already on its way.
   */
  body: { Code: number } | null;
  /** Whether the server closed the connection (instead of reading on). */
  closed: boolean;
}

function sendLargeUpload(url: string, options: { token?: string; declareLength: boolean }): Promise<Outcome> {
  const total = 100 * MB;
  const chunk = Buffer.alloc(256 * 1024, 0x61);
  const preamble =
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="type"\r\n\r\n1\r\n` +
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`;
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let sent = 0;
    let response = '';
    let closed = false;
    let finished = false;
    const done = () => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      socket.destroy();
      const json = response.slice(response.indexOf('\r\n\r\n') + 4);
      const body = /^[0-9a-f]+\r\n/i.test(json) ? json.replace(/^[0-9a-f]+\r\n/i, '').split('\r\n')[0]! : json;
      try {
        resolve({ sent, body: JSON.parse(body) as { Code: number }, closed });
      } catch {
        if (closed && response === '') resolve({ sent, body: null, closed });
        else reject(new Error(`no envelope in the answer after ${sent} bytes: ${response.slice(0, 300)}`));
      }
    };
    // Bounded: the whole exchange ends within 20 s whatever the server does.
    const timer = setTimeout(done, 20_000);
    socket.on('data', (data) => {
      response += data.toString('latin1');
    });
    socket.on('end', () => {
      closed = true;
      done();
    });
    socket.on('close', () => {
      closed = true;
      done();
    });
    socket.on('error', () => {
      closed = true;
    });
    socket.on('connect', () => {
      const headers = [
        `POST ${url} HTTP/1.1`,
        'Host: 127.0.0.1',
        `Content-Type: multipart/form-data; boundary=${BOUNDARY}`,
        options.declareLength ? `Content-Length: ${total}` : 'Transfer-Encoding: chunked',
        ...(options.token ? [`Authorization: Bearer ${options.token}`] : []),
        '',
        '',
      ].join('\r\n');
      socket.write(headers);
      const frame = (data: Buffer) =>
        options.declareLength
          ? data
          : Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from('\r\n')]);
      socket.write(frame(Buffer.from(preamble)));
      sent += preamble.length;
      const pump = () => {
        while (!closed && !socket.destroyed && sent < total) {
          sent += chunk.length;
          if (!socket.write(frame(chunk))) {
            socket.once('drain', pump);
            return;
          }
        }
      };
      pump();
    });
  });
}

describe('uploads refused before they are read', () => {
  it('a guest: -3001 at once, and the connection is closed instead of the 100 MB being read', async () => {
    const outcome = await sendLargeUpload('/api/v3/attachments', { declareLength: true });
    if (outcome.body !== null) expect(outcome.body.Code).toBe(Code.JUMP_TO_LOGIN);
    expect(outcome.closed).toBe(true);
    // What the kernel's socket buffers take before the answer arrives, nowhere near the 100 MB.
    expect(outcome.sent).toBeLessThan(30 * MB);
  });

  it('a member declaring 100 MB: refused from the Content-Length before reading', async () => {
    const outcome = await sendLargeUpload('/api/v3/attachments', { token: member, declareLength: true });
    if (outcome.body !== null) expect(outcome.body.Code).toBe(Code.INVALID_PARAMETER);
    expect(outcome.closed).toBe(true);
    expect(outcome.sent).toBeLessThan(30 * MB);
  });

  it('a member sending 100 MB without a length: reading stops at the size limit', async () => {
    const outcome = await sendLargeUpload('/api/v3/attachments', { token: member, declareLength: false });
    // Refused while the client is still pushing: the answer may be lost to the reset (see Outcome.body); when it
    // arrives it is the written refusal.
    if (outcome.body !== null) expect(outcome.body.Code).toBe(Code.INVALID_PARAMETER);
    expect(outcome.closed).toBe(true);
    expect(outcome.sent).toBeLessThan(40 * MB);
  });

  it('a guest posting to the administrator logo upload: refused and closed', async () => {
    const outcome = await sendLargeUpload('/api/settings/logo.v2', { declareLength: true });
    if (outcome.body !== null) expect(outcome.body.Code).toBe(Code.JUMP_TO_LOGIN);
    expect(outcome.closed).toBe(true);
    expect(outcome.sent).toBeLessThan(30 * MB);
  });
});

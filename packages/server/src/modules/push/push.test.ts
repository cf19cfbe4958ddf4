import { createECDH, randomBytes, type ECDH } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Code, type PushMessage, type PushPreferences } from '@luntan/shared';
import ece from 'http_ece';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../../test/fixture.js';

/*
 * Web Push against a push service started here: what arrives is decrypted with the subscription's own keys, as the
 * browser would (RFC 8291, aes128gcm).
 */

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

let service: Server;
let origin = '';
const received: Received[] = [];

beforeAll(async () => {
  service = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(req.url?.startsWith('/gone') ? 410 : 201);
      res.end();
    });
  });
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
});
afterAll(async () => {
  service.closeAllConnections();
  await new Promise((resolve) => service.close(resolve));
});

/** A browser's subscription: its P-256 key pair and auth secret. */
function device(path: string): { ecdh: ECDH; auth: Buffer; body: Record<string, unknown> } {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return {
    ecdh,
    auth,
    body: {
      endpoint: `${origin}${path}`,
      expirationTime: null,
      keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
    },
  };
}

function decrypt(d: { ecdh: ECDH; auth: Buffer }, body: Buffer): PushMessage {
  const plain = ece.decrypt(body, {
    version: 'aes128gcm',
    privateKey: d.ecdh,
    authSecret: d.auth.toString('base64url'),
  });
  return JSON.parse(plain.toString('utf8')) as PushMessage;
}

const arrivedAt = (path: string) => received.filter((r) => r.path === path);

describe('Web Push', () => {
  const t = useTestServer({ env: { ALLOW_PRIVATE_FETCH: '1' } });

  it('answers the site’s VAPID public key, made once and kept', async () => {
    const first = await t.get<{ publicKey: string }>('/api/v3/push/key');
    expect(first.Code).toBe(0);
    expect(Buffer.from(first.Data.publicKey, 'base64url')).toHaveLength(65);
    expect((await t.get<{ publicKey: string }>('/api/v3/push/key')).Data.publicKey).toBe(first.Data.publicKey);
  });

  it('pushes a reply, a like and a private message to the subscribed device, encrypted for it', async () => {
    const author = await t.buildMember({ nickname: '楼主' });
    const other = await t.buildMember({ nickname: '回帖的人' });
    const phone = device('/push/phone');
    expect((await t.post('/api/v3/push/subscribe', phone.body, author.token)).Code).toBe(0);
    const keys = (await t.get<{ publicKey: string }>('/api/v3/push/key')).Data.publicKey;

    const thread = await t.buildThread(author, { title: '推送测试' });
    const reply = await t.buildReply(other, thread.threadId, { text: '第一条回复' });
    const pushes = arrivedAt('/push/phone');
    expect(pushes).toHaveLength(1);
    const { headers, body } = pushes[0]!;
    expect(headers['content-encoding']).toBe('aes128gcm');
    expect(headers.ttl).toBe('86400');
    expect(String(headers.authorization)).toMatch(new RegExp(`^vapid t=[\\w-]+\\.[\\w-]+\\.[\\w-]+, k=${keys}$`));
    const message = decrypt(phone, body);
    expect(message).toMatchObject({ kind: 'reply', url: `/thread/${thread.threadId}#post-${reply.id}` });
    expect(`${message.title} ${message.body}`).toContain('回帖的人');

    const like = await t.post('/api/v3/posts.update', { id: reply.id, isLiked: true }, author.token);
    expect(like.Code).toBe(0);
    const liked = await t.post('/api/v3/posts.update', { id: thread.postId, isLiked: true }, other.token);
    expect(liked.Code).toBe(0);
    expect(arrivedAt('/push/phone').map((p) => decrypt(phone, p.body).kind)).toEqual(['reply', 'like']);

    const dialog = await t.post(
      '/api/v3/dialog.create',
      { recipientUserId: author.id, messageText: '在吗？' },
      other.token,
    );
    expect(dialog.Code, dialog.Message).toBe(0);
    const last = decrypt(phone, arrivedAt('/push/phone').at(-1)!.body);
    expect(last).toMatchObject({ kind: 'message', title: '回帖的人 发来私信', body: '在吗？' });
    expect(last.url).toBe(`/message?page=chat&userId=${other.id}&nickname=${encodeURIComponent('回帖的人')}`);
  });

  it('follows the member’s switches per kind, and forgets a device on unsubscribe', async () => {
    const author = await t.buildMember();
    const other = await t.buildMember();
    const laptop = device('/push/laptop');
    expect((await t.post('/api/v3/push/subscribe', laptop.body, author.token)).Code).toBe(0);
    const before = await t.get<PushPreferences & { devices: number }>('/api/v3/push/preferences', author.token);
    expect(before.Data).toEqual({ reply: true, mention: true, like: true, message: true, financial: true, devices: 1 });
    const off = await t.post<PushPreferences>('/api/v3/push/preferences', { reply: false }, author.token);
    expect(off.Data.reply).toBe(false);
    const thread = await t.buildThread(author);
    await t.buildReply(other, thread.threadId);
    expect(arrivedAt('/push/laptop')).toHaveLength(0);
    await t.post('/api/v3/push/preferences', { reply: true }, author.token);
    await t.buildReply(other, thread.threadId);
    expect(arrivedAt('/push/laptop')).toHaveLength(1);

    const removed = await t.post<{ removed: number }>(
      '/api/v3/push/unsubscribe',
      { endpoint: laptop.body.endpoint },
      author.token,
    );
    expect(removed.Data.removed).toBe(1);
    await t.buildReply(other, thread.threadId);
    expect(arrivedAt('/push/laptop')).toHaveLength(1);
  });

  it('drops a subscription the push service says is gone (410)', async () => {
    const author = await t.buildMember();
    const other = await t.buildMember();
    const old = device('/gone/old-browser');
    expect((await t.post('/api/v3/push/subscribe', old.body, author.token)).Code).toBe(0);
    const thread = await t.buildThread(author);
    await t.buildReply(other, thread.threadId);
    expect(arrivedAt('/gone/old-browser')).toHaveLength(1);
    const left = await t.app.ctx.db
      .selectFrom('pushSubscriptions')
      .select('id')
      .where('endpoint', '=', String(old.body.endpoint))
      .execute();
    expect(left).toEqual([]);
  });

  it('refuses what is not a subscription, with the field named', async () => {
    const member = await t.buildMember();
    const good = device('/push/x').body;
    const cases: [Record<string, unknown>, string][] = [
      [{ ...good, endpoint: 'ftp://example.com/x' }, 'endpoint'],
      [{ ...good, keys: { p256dh: 'short', auth: (good.keys as { auth: string }).auth } }, 'keys.p256dh'],
      [{ ...good, keys: { p256dh: (good.keys as { p256dh: string }).p256dh, auth: 'x' } }, 'keys.auth'],
    ];
    for (const [body, field] of cases) {
      const res = await t.post('/api/v3/push/subscribe', body, member.token);
      expect(res.Code, field).toBe(Code.INVALID_PARAMETER);
      expect(res.Data, field).toMatchObject({ field });
    }
    expect((await t.post('/api/v3/push/subscribe', good)).Code).toBe(Code.JUMP_TO_LOGIN);
  });
});

describe('Web Push: endpoints this server may not reach', () => {
  const t = useTestServer();

  it('refuses a subscription whose endpoint is this machine, or not https', async () => {
    const member = await t.buildMember();
    for (const endpoint of ['https://127.0.0.1:9/push', 'https://10.1.2.3/push', 'http://push.example.com/x']) {
      const res = await t.post('/api/v3/push/subscribe', { ...device('/x').body, endpoint }, member.token);
      expect(res.Code, endpoint).toBe(Code.INVALID_PARAMETER);
      expect(res.Data, endpoint).toMatchObject({ field: 'endpoint' });
    }
  });
});

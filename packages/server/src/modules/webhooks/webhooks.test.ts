import { createHmac, timingSafeEqual } from 'node:crypto';
import { Code, type WebhookDeliveryItem, type WebhookItem } from '@luntan/shared';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildUser, startTestServer } from '../../test/harness.js';
import { useTestServer } from '../../test/fixture.js';
import { buildReply, buildThread } from '../../test/factories.js';
import { startStandIn, type StandIn, type StandInAnswer } from '../../test/stand-in-server.js';
import { MAX_ATTEMPTS, RETRY_DELAYS_MS } from './webhook-dispatcher.js';
import { queueEvent, queuePing } from './webhooks.service.js';

const SECRET = 'a-secret-of-some-length';

/** What a receiver does: the HMAC of the exact body, compared in constant time (docs/webhooks.md). */
function verify(secret: string, body: string, header: string | string[] | undefined): boolean {
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(body).digest('hex')}`);
  const given = Buffer.from(String(header ?? ''));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

describe('webhooks', () => {
  const t = useTestServer({ env: { ALLOW_PRIVATE_FETCH: '1' } });
  let receiver: StandIn;
  /** The receiver's next answers (then 200). */
  const answers: StandInAnswer[] = [];

  beforeAll(async () => {
    receiver = await startStandIn(() => answers.shift() ?? { status: 200, body: 'ok' });
  });
  afterAll(async () => {
    await receiver?.close();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  async function createHook(body: Record<string, unknown> = {}): Promise<WebhookItem> {
    const res = await t.post<WebhookItem>(
      '/api/backAdmin/webhooks',
      { url: `${receiver.origin}/hook`, secret: SECRET, events: ['post.created'], ...body },
      t.admin,
    );
    expect(res.Code, res.Message).toBe(0);
    return res.Data;
  }

  async function deliveries(id: number): Promise<WebhookDeliveryItem[]> {
    const res = await t.get<WebhookDeliveryItem[]>(`/api/backAdmin/webhooks/deliveries?id=${id}`, t.admin);
    expect(res.Code, res.Message).toBe(0);
    return res.Data;
  }

  it('is for administrators only', async () => {
    const member = await buildUser(t);
    const asMember = await t.post(
      '/api/backAdmin/webhooks',
      { url: `${receiver.origin}/`, secret: SECRET, events: ['post.created'] },
      member.token,
    );
    expect(asMember.Code).not.toBe(0);
    expect((await t.get('/api/backAdmin/webhooks', member.token)).Code).not.toBe(0);
    expect((await t.get('/api/backAdmin/webhooks')).Code).not.toBe(0);
    expect((await t.get<WebhookItem[]>('/api/backAdmin/webhooks', t.admin)).Data).toEqual([]);
  });

  it('validates its input', async () => {
    const base = { url: `${receiver.origin}/`, secret: SECRET, events: ['post.created'] };
    const bad = [
      { ...base, url: 'ftp://example.com/' },
      { ...base, secret: 'short' },
      { ...base, events: [] },
      { ...base, events: ['post.exploded'] },
      // A timer the server sets itself, not for receivers.
      { ...base, events: ['order.expiry_due'] },
    ];
    for (const body of bad) {
      expect((await t.post('/api/backAdmin/webhooks', body, t.admin)).Code, JSON.stringify(body)).toBe(
        Code.INVALID_PARAMETER,
      );
    }
  });

  it('sends a signed test event that the receiver verifies, and lists it as delivered', async () => {
    const hook = await createHook();
    const list = await t.get<Array<Record<string, unknown>>>('/api/backAdmin/webhooks', t.admin);
    const listed = list.Data.find((h) => h.id === hook.id);
    expect(listed).toMatchObject({ url: `${receiver.origin}/hook`, events: ['post.created'], enabled: true });
    expect(listed).not.toHaveProperty('secret');

    const before = receiver.requests.length;
    const ping = await t.post<{ id: number; uuid: string }>('/api/backAdmin/webhooks.ping', { id: hook.id }, t.admin);
    expect(ping.Code, ping.Message).toBe(0);
    await t.app.ctx.webhooks.runDue();

    const got = receiver.requests.slice(before);
    expect(got).toHaveLength(1);
    const req = got[0]!;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/hook');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['x-luntan-event']).toBe('ping');
    expect(req.headers['x-luntan-delivery']).toBe(ping.Data.uuid);
    expect(req.headers['user-agent']).toMatch(/^Luntan-Webhooks\//);
    expect(verify(SECRET, req.body, req.headers['x-luntan-signature'])).toBe(true);
    expect(verify('another-secret-entirely', req.body, req.headers['x-luntan-signature'])).toBe(false);
    expect(JSON.parse(req.body)).toMatchObject({ id: null, event: 'ping', data: { webhookId: hook.id } });

    const [delivery] = await deliveries(hook.id);
    expect(delivery).toMatchObject({
      id: ping.Data.id,
      event: 'ping',
      status: 'delivered',
      attempts: 1,
      responseStatus: 200,
      error: null,
      nextAttemptAt: null,
      payload: req.body,
    });
    expect(
      (await t.get<WebhookItem[]>('/api/backAdmin/webhooks', t.admin)).Data.find((h) => h.id === hook.id),
    ).toMatchObject({ lastStatus: 'delivered' });
  });

  it('retries after a 500 with backoff, then succeeds; gives up after the last attempt', async () => {
    const hook = await createHook();
    answers.push({ status: 500, body: 'down' });
    const before = receiver.requests.length;
    const ping = await t.post<{ id: number; uuid: string }>('/api/backAdmin/webhooks.ping', { id: hook.id }, t.admin);
    await t.app.ctx.webhooks.runDue();

    let [delivery] = await deliveries(hook.id);
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, responseStatus: 500, error: 'HTTP 500' });
    const due = Date.parse(delivery!.nextAttemptAt!);
    expect(due - Date.parse(delivery!.updatedAt)).toBeGreaterThanOrEqual(RETRY_DELAYS_MS[0] - 1000);

    // Not due yet: nothing is sent.
    await t.app.ctx.webhooks.runDue();
    expect(receiver.requests.length - before).toBe(1);

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(due + 1000);
    await t.app.ctx.webhooks.runDue();
    const sent = receiver.requests.slice(before);
    expect(sent).toHaveLength(2);
    expect(sent[1]!.headers['x-luntan-delivery']).toBe(ping.Data.uuid);
    expect(sent[1]!.body).toBe(sent[0]!.body);
    [delivery] = await deliveries(hook.id);
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 2, responseStatus: 200, error: null });

    // A receiver that never recovers: every wait, then failed.
    const hook2 = await createHook();
    for (let i = 0; i < MAX_ATTEMPTS; i++) answers.push({ status: 503, body: 'no' });
    await t.post('/api/backAdmin/webhooks.ping', { id: hook2.id }, t.admin);
    await t.app.ctx.webhooks.runDue();
    for (const wait of RETRY_DELAYS_MS) {
      vi.setSystemTime(Date.now() + wait + 1000);
      await t.app.ctx.webhooks.runDue();
    }
    [delivery] = await deliveries(hook2.id);
    expect(delivery).toMatchObject({
      status: 'failed',
      attempts: MAX_ATTEMPTS,
      responseStatus: 503,
      nextAttemptAt: null,
    });
    answers.length = 0;
  });

  it('queues a domain event for the hooks that listen to it and are switched on', async () => {
    const listening = await createHook({ events: ['post.created', 'thread.created'] });
    const other = await createHook({ events: ['thread.created'] });
    const off = await createHook({ events: ['post.created'], enabled: false });
    const before = receiver.requests.length;
    const at = new Date().toISOString();
    const queued = await queueEvent(t.app.ctx.db, {
      id: 41,
      name: 'post.created',
      payload: { postId: 5, threadId: 3, userId: 2 },
      at,
      attempt: 1,
    });
    expect(queued).toBeGreaterThanOrEqual(1);
    // Heard again (the event bus retries a subscriber that failed midway): nothing is queued twice.
    expect(
      await queueEvent(t.app.ctx.db, {
        id: 41,
        name: 'post.created',
        payload: { postId: 5, threadId: 3, userId: 2 },
        at,
        attempt: 2,
      }),
    ).toBe(0);
    await t.app.ctx.webhooks.runDue();
    const got = receiver.requests.slice(before);
    const bodies = got.map(
      (r) => JSON.parse(r.body) as { id: number; event: string; createdAt: string; data: unknown },
    );
    expect(bodies).toContainEqual({
      id: 41,
      event: 'post.created',
      createdAt: at,
      data: { postId: 5, threadId: 3, userId: 2 },
    });
    for (const r of got) expect(verify(SECRET, r.body, r.headers['x-luntan-signature'])).toBe(true);
    expect((await deliveries(listening.id)).map((d) => d.event)).toEqual(['post.created']);
    expect(await deliveries(other.id)).toEqual([]);
    expect(await deliveries(off.id)).toEqual([]);
  });

  it('delivers post.created when a member replies', async () => {
    const hook = await createHook({ events: ['post.created'] });
    const member = await buildUser(t);
    const thread = await buildThread(t, t.admin);
    // The write's events are delivered to their subscribers before t.post answers (harness); the hook's delivery
    // is then sent by the webhook dispatcher.
    const reply = await buildReply(t, member.token, thread.threadId);
    await t.app.ctx.webhooks.runDue();

    const [delivery] = await deliveries(hook.id);
    expect(delivery).toMatchObject({ event: 'post.created', status: 'delivered', attempts: 1 });
    const req = receiver.requests.find((r) => r.headers['x-luntan-delivery'] === delivery!.uuid)!;
    expect(req.headers['x-luntan-event']).toBe('post.created');
    expect(verify(SECRET, req.body, req.headers['x-luntan-signature'])).toBe(true);
    expect(JSON.parse(req.body)).toMatchObject({
      id: delivery!.eventId,
      event: 'post.created',
      data: { postId: reply.id, threadId: thread.threadId, userId: member.id },
    });
  });

  it('sends each delivery once when two apps share the database', async () => {
    const hook = await createHook();
    const second = await startTestServer({ env: { ALLOW_PRIVATE_FETCH: '1' }, storage: t.storage });
    try {
      // Queued without waking either dispatcher, then both (and the first twice) go for them at once.
      const queued: string[] = [];
      for (let i = 0; i < 8; i++) queued.push((await queuePing(t.app.ctx.db, hook.id)).uuid);
      const before = receiver.requests.length;
      await Promise.all([t.app.ctx.webhooks.runDue(), second.app.ctx.webhooks.runDue(), t.app.ctx.webhooks.runDue()]);
      const sent = receiver.requests.slice(before).map((r) => String(r.headers['x-luntan-delivery']));
      expect(sent.sort()).toEqual(queued.sort());
      expect((await deliveries(hook.id)).every((d) => d.status === 'delivered' && d.attempts === 1)).toBe(true);
    } finally {
      await second.close({ keep: true });
    }
  });

  it('updates (keeping the secret when none is given) and deletes', async () => {
    const hook = await createHook();
    const res = await t.post<WebhookItem>(
      '/api/backAdmin/webhooks.update',
      { id: hook.id, events: ['thread.created'], enabled: false, secret: '' },
      t.admin,
    );
    expect(res.Code, res.Message).toBe(0);
    expect(res.Data).toMatchObject({ events: ['thread.created'], enabled: false });
    // The stored secret still signs.
    const before = receiver.requests.length;
    await t.post('/api/backAdmin/webhooks.ping', { id: hook.id }, t.admin);
    await t.app.ctx.webhooks.runDue();
    const req = receiver.requests[before]!;
    expect(verify(SECRET, req.body, req.headers['x-luntan-signature'])).toBe(true);

    expect((await t.post('/api/backAdmin/webhooks.delete', { id: hook.id }, t.admin)).Code).toBe(0);
    expect((await t.get(`/api/backAdmin/webhooks/deliveries?id=${hook.id}`, t.admin)).Code).toBe(
      Code.RESOURCE_NOT_FOUND,
    );
    expect((await t.post('/api/backAdmin/webhooks.delete', { id: hook.id }, t.admin)).Code).toBe(
      Code.RESOURCE_NOT_FOUND,
    );
    expect((await t.post('/api/backAdmin/webhooks.update', { id: hook.id, enabled: true }, t.admin)).Code).toBe(
      Code.RESOURCE_NOT_FOUND,
    );
  });
});

describe('webhooks without ALLOW_PRIVATE_FETCH', () => {
  const t = useTestServer();
  let receiver: StandIn;

  beforeAll(async () => {
    receiver = await startStandIn(() => ({ status: 200, body: 'ok' }));
  });
  afterAll(async () => {
    await receiver?.close();
  });

  it.each([
    ['http://127.0.0.1:8080/hook', '127.0.0.1'],
    ['http://10.1.2.3/hook', '10.1.2.3'],
    ['http://192.168.0.10/hook', '192.168.0.10'],
    ['http://169.254.169.254/latest/meta-data', '169.254.169.254'],
    ['http://[::1]/hook', '::1'],
    ['http://[::ffff:10.0.0.1]/hook', '::ffff:a00:1'],
    ['http://100.64.0.1/hook', '100.64.0.1'],
    ['http://0.0.0.0/hook', '0.0.0.0'],
  ])('refuses %s, naming the address', async (url, address) => {
    const res = await t.post('/api/backAdmin/webhooks', { url, secret: SECRET, events: ['post.created'] }, t.admin);
    expect(res.Code).toBe(Code.INVALID_PARAMETER);
    expect(res.Message).toContain(address);
    expect(res.Data).toMatchObject({ field: 'url', address });
  });

  it('refuses a host that resolves to a private address, naming both, in either language', async () => {
    const body = { url: 'http://localhost:9/hook', secret: SECRET, events: ['post.created'] };
    const en = await t.call('POST', '/api/backAdmin/webhooks', {
      token: t.admin,
      body,
      headers: { cookie: 'locale=en' },
    });
    expect(en.body.Code).toBe(Code.INVALID_PARAMETER);
    expect(en.body.Message).toMatch(/localhost → (127\.0\.0\.1|::1)/);
    const zh = await t.call('POST', '/api/backAdmin/webhooks', {
      token: t.admin,
      body,
      headers: { cookie: 'locale=zh' },
    });
    expect(zh.body.Message).toMatch(/localhost → (127\.0\.0\.1|::1)/);
    expect(en.body.Message).toMatch(/^Webhooks may not be sent to a loopback address/);
    expect(zh.body.Message).toMatch(/^不能发送到本机回环地址/);
  });

  it('refuses an update to a private address, and a delivery whose address became private', async () => {
    // A public address (a literal: no DNS needed) is accepted.
    const created = await t.post<WebhookItem>(
      '/api/backAdmin/webhooks',
      { url: 'http://93.184.215.14/hook', secret: SECRET, events: ['post.created'] },
      t.admin,
    );
    expect(created.Code, created.Message).toBe(0);
    const update = await t.post(
      '/api/backAdmin/webhooks.update',
      { id: created.Data.id, url: `${receiver.origin}/hook` },
      t.admin,
    );
    expect(update.Code).toBe(Code.INVALID_PARAMETER);
    expect(update.Message).toContain('127.0.0.1');

    // As if its name now resolved to this machine: the delivery checks again and records the refusal.
    await t.app.ctx.db
      .updateTable('webhooks')
      .set({ url: `${receiver.origin}/hook` })
      .where('id', '=', created.Data.id)
      .execute();
    await t.post('/api/backAdmin/webhooks.ping', { id: created.Data.id }, t.admin);
    await t.app.ctx.webhooks.runDue();
    const list = await t.get<WebhookDeliveryItem[]>(
      `/api/backAdmin/webhooks/deliveries?id=${created.Data.id}`,
      t.admin,
    );
    expect(list.Data[0]).toMatchObject({ status: 'pending', attempts: 1, responseStatus: null });
    expect(list.Data[0]!.error).toMatch(/^refused: .*127\.0\.0\.1/);
    expect(receiver.requests).toHaveLength(0);
  });
});

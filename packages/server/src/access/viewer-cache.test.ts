import { Code, GroupId, type Forum, type GroupData } from '@luntan/shared';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN, buildUser, startTestServer, type TestServer } from '../test/harness.js';
import { useTestServer } from '../test/fixture.js';

/**
 * The per-process viewer cache (auth/viewer-cache.ts) with two app instances on one database, as two processes
 * would be: what one instance changes applies to the other's very next request.
 */
const a = useTestServer();
let b: TestServer;
let admin: string;

beforeAll(async () => {
  b = await startTestServer({ storage: a.storage });
  admin = await b.login(ADMIN.username, ADMIN.password);
});
afterAll(async () => {
  await b.close({ keep: true });
});

const forumOf = async (t: TestServer, token: string) => (await t.get<Forum>('/api/v3/forum', token)).Data;
const cached = (t: TestServer, token: string) => t.app.ctx.viewers.get(token, Date.now()) !== undefined;

describe('the viewer cache across two app instances', () => {
  it('keeps a session after its first request, and drops it when the other instance bans the member', async () => {
    const u = await buildUser(a);
    expect((await a.get('/api/v3/unreadnotification', u.token)).Code).toBe(0);
    expect(cached(a, u.token)).toBe(true);
    expect((await a.get('/api/v3/unreadnotification', u.token)).Code).toBe(0);

    const ban = await b.post('/api/backAdmin/users/update.user', { id: u.id, status: 1, reason: 'spam' }, admin);
    expect(ban.Code).toBe(0);
    expect((await a.get('/api/v3/unreadnotification', u.token)).Code).toBe(Code.USER_BANNED);
  });

  it('refuses a token signed out in the other instance at once', async () => {
    const u = await buildUser(a);
    expect(await forumOf(a, u.token)).toMatchObject({ user: { userId: u.id } });
    expect((await b.post('/api/v3/users/logout', {}, u.token)).Code).toBe(0);
    expect((await a.get('/api/v3/unreadnotification', u.token)).Code).toBe(Code.JUMP_TO_LOGIN);
  });

  it('applies a permission taken away in the other instance to the next request', async () => {
    const u = await buildUser(a);
    expect((await forumOf(a, u.token)).other.canCreateThread).toBe(true);
    const group = `/api/group.resource.v2?id=${GroupId.MEMBER}&include=permission`;
    const before = (await b.get<GroupData>(group, admin)).Data.permissions!;
    const without = before.filter((p) => p !== 'createThread');
    expect((await b.post('/api/permission.v2', { groupId: GroupId.MEMBER, permissions: without }, admin)).Code).toBe(0);
    try {
      expect((await forumOf(a, u.token)).other.canCreateThread).toBe(false);
    } finally {
      await b.post('/api/permission.v2', { groupId: GroupId.MEMBER, permissions: before }, admin);
    }
    expect((await forumOf(a, u.token)).other.canCreateThread).toBe(true);
  });

  it('sees a change made straight in the database (a script, SQL by hand)', async () => {
    const u = await buildUser(a);
    expect((await a.get('/api/v3/unreadnotification', u.token)).Code).toBe(0);
    await sql`update users set status = 1 where id = ${u.id}`.execute(b.app.ctx.db);
    expect((await a.get('/api/v3/unreadnotification', u.token)).Code).toBe(Code.USER_BANNED);
  });

  it('ends a paid group membership when it expires, without any write', async () => {
    // Expiries are read from Date: faked (Date only), so only the test moves the time.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const u = await buildUser(a);
      const ends = Date.now() + 60_000;
      const endsAt = new Date(ends).toISOString();
      await sql`insert into group_user (group_id, user_id, expires_at) values (${GroupId.ADMINISTRATOR}, ${u.id}, ${endsAt})`.execute(
        b.app.ctx.db,
      );
      expect((await forumOf(a, u.token)).user).toMatchObject({ isAdmin: true });
      vi.setSystemTime(ends - 1);
      expect((await forumOf(a, u.token)).user).toMatchObject({ isAdmin: true });
      expect(cached(a, u.token)).toBe(true);
      vi.setSystemTime(ends);
      expect((await forumOf(a, u.token)).user).toMatchObject({ isAdmin: false });
    } finally {
      vi.useRealTimers();
    }
  });

  it('does not count a post or a sign-in as a change of who the viewer is', async () => {
    const u = await buildUser(a);
    expect((await a.get('/api/v3/unreadnotification', u.token)).Code).toBe(0);
    const before = a.app.ctx.versions.get('viewers');
    await b.login(u.username, u.password);
    const thread = await b.post(
      '/api/v3/thread.create',
      { categoryId: 1, title: 'hello', content: { text: 'x' } },
      u.token,
    );
    expect(thread.Code).toBe(0);
    expect((await a.get('/api/v3/unreadnotification', u.token)).Code).toBe(0);
    expect(a.app.ctx.versions.get('viewers')).toBe(before);
    expect(cached(a, u.token)).toBe(true);
  });
});

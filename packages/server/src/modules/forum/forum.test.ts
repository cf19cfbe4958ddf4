import { Code, UserStatus, type Forum, type SessionData } from '@luntan/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, buildUser } from '../../test/harness.js';
import { useTestServer } from '../../test/fixture.js';

const t = useTestServer();
let admin: string;

beforeAll(async () => {
  admin = (await t.post<SessionData>('/api/v3/users/username.login', ADMIN)).Data.accessToken;
});

describe('v3/forum', () => {
  it("tells a stopped user their status and the administrator's reason, on any page and any visit", async () => {
    const u = await buildUser(t);
    const before = await t.get<Forum>('/api/v3/forum', u.token);
    expect(before.Data.user).toMatchObject({ userId: u.id, status: UserStatus.NORMAL, rejectReason: '' });

    const ban = await t.post('/api/backAdmin/users/update.user', { id: u.id, status: 1, reason: '发广告' }, admin);
    expect(ban.Code).toBe(0);
    const banned = await t.get<Forum>('/api/v3/forum', u.token);
    expect(banned.Code).toBe(0);
    expect(banned.Data.user).toMatchObject({ userId: u.id, status: UserStatus.BANNED, rejectReason: '发广告' });
    // Other calls still refuse with the code that sends the web app to /user/status.
    expect((await t.get('/api/v3/unreadnotification', u.token)).Code).toBe(Code.USER_BANNED);

    await t.post('/api/backAdmin/users/update.user', { id: u.id, status: 0 }, admin);
    const unbanned = await t.get<Forum>('/api/v3/forum', u.token);
    expect(unbanned.Data.user).toMatchObject({ status: UserStatus.NORMAL, rejectReason: '' });
  });

  it("shows a guest no user, and nobody another user's reason", async () => {
    const [a, b] = [await buildUser(t), await buildUser(t)];
    await t.post('/api/backAdmin/users/update.user', { id: a.id, status: 1, reason: '刷屏' }, admin);
    const guest = await t.get<Forum>('/api/v3/forum');
    expect(guest.Data.user).toBeNull();
    const other = await t.get<Forum>('/api/v3/forum', b.token);
    expect(other.Data.user).toMatchObject({ userId: b.id, rejectReason: '' });
    expect(JSON.stringify(other.Data)).not.toContain('刷屏');
  });

  it('answers with a setting as soon as any process has written it, though the site information is kept', async () => {
    const u = await buildUser(t);
    const site = async () => (await t.get<Forum>('/api/v3/forum', u.token)).Data.setSite;
    const { db } = t.app.ctx;
    const write = (value: string) =>
      db
        .insertInto('settings')
        .values({ key: 'siteIntroduction', tag: 'default', value })
        .onConflict((oc) => oc.columns(['key', 'tag']).doUpdateSet({ value }))
        .execute();
    await write('一');
    expect((await site()).siteIntroduction).toBe('一');
    expect((await site()).siteIntroduction).toBe('一');
    // Another process's write reaches this one by the database alone: straight to the table, no signal, no route.
    await write('二');
    expect((await site()).siteIntroduction).toBe('二');
    expect((await t.get<{ siteIntroduction: string }>('/api/siteinfo.v2')).Data.siteIntroduction).toBe('二');
    await db.deleteFrom('settings').where('key', '=', 'siteIntroduction').where('tag', '=', 'default').execute();
    expect((await site()).siteIntroduction).toBe('');
  });
});

import { type SiteInfo } from '@luntan/shared';
import { describe, expect, it } from 'vitest';
import { ADMIN, buildUser, newStorage, startTestServer } from './test/harness.js';

describe('a restart on the same data', () => {
  it('keeps the administrator, the settings and the users, and does not seed twice', async () => {
    const storage = newStorage();
    const first = await startTestServer({ storage });
    expect(first.server.seeded.admin).toEqual({ username: ADMIN.username, generated: false });
    const admin = await first.login(ADMIN.username, ADMIN.password);
    await first.post('/api/settings.v2', { data: [{ key: 'siteName', value: '留下来', tag: 'default' }] }, admin);
    const u = await buildUser(first, { username: '老用户' });
    await first.close({ keep: true });

    // A different ADMIN_PASSWORD on a later start changes nothing: the administrator exists.
    const second = await startTestServer({ storage, env: { ADMIN_PASSWORD: 'another-password' } });
    try {
      expect(second.server.seeded.admin).toBeUndefined();
      expect((await second.get<SiteInfo>('/api/siteinfo.v2')).Data.siteName).toBe('留下来');
      expect(await second.login(ADMIN.username, ADMIN.password)).toBeTruthy();
      expect(await second.login('老用户', u.password)).toBeTruthy();
      // The token issued before the restart still works.
      expect((await second.get('/api/v3/unreadnotification', u.token)).Code).toBe(0);
      const groups = await second.server.database.db.selectFrom('groups').select('id').execute();
      expect(groups).toHaveLength(5);
    } finally {
      await second.close();
    }
  });

  it('generates a strong administrator password when none is given', async () => {
    const t = await startTestServer({ env: { ADMIN_PASSWORD: '', ADMIN_USERNAME: 'boss' } });
    try {
      const admin = t.server.seeded.admin!;
      expect(admin.generated).toBe(true);
      expect(admin.username).toBe('boss');
      expect(admin.password!.length).toBeGreaterThanOrEqual(16);
      expect(await t.login('boss', admin.password!)).toBeTruthy();
    } finally {
      await t.close();
    }
  });
});

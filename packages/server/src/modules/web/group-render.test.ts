import { Code, type Forum } from '@luntan/shared';
import { describe, expect, it } from 'vitest';
import { buildThread } from '../../test/factories.js';
import { buildUser } from '../../test/harness.js';
import { useTestServer } from '../../test/fixture.js';

/** Pages rendered once per set of groups (group-render.ts); needs the web build (`npm run build`). */
const t = useTestServer({ env: { GUEST_CACHE_MS: '60000' } });

const page = async (url: string, token?: string, headers: Record<string, string> = {}) => {
  const res = await t.app.inject({
    url,
    headers: { ...headers, ...(token ? { cookie: `access_token=${token}` } : {}) },
  });
  return { status: res.statusCode, html: res.body, cache: res.headers['x-guest-cache'] };
};

describe('member pages rendered once per set of groups', () => {
  it('renders the home page once for members of the same groups, without their own names', async () => {
    const a = await buildUser(t, { nickname: 'Alice Zhang' });
    const b = await buildUser(t, { nickname: 'Bob Li' });
    await buildThread(t, a.token, { title: 'group render first' });
    const first = await page('/', a.token);
    const second = await page('/', b.token);
    expect(first.status).toBe(200);
    expect(first.cache).toBe('miss');
    expect(second.cache).toBe('hit');
    for (const html of [first.html, second.html]) {
      expect(html).toContain('"forGroups":true');
      // Marked so until the browser has read the member's own data.
      expect(html).toMatch(/<html [^>]*data-viewer="pending"/);
      expect(html).toContain('group render first');
      expect(html).not.toContain('Bob Li');
      expect(html).not.toContain(b.username);
    }
    // The header is laid out for a signed-in member: the stand-in viewer of the groups, no name.
    expect(first.html).toMatch(/"user":\{"userId":0,"username":"","nickname":""/);
  });

  it('keeps the pages of other groups apart (an administrator gets their own render)', async () => {
    const member = await buildUser(t);
    await page('/', member.token);
    const asAdmin = await page('/', t.admin);
    expect(asAdmin.cache).toBe('miss');
    expect(asAdmin.html).toContain('"isAdmin":true');
    expect((await page('/', member.token)).html).not.toContain('"isAdmin":true');
  });

  it('shows a write at once, in the writer’s page and everyone’s', async () => {
    const a = await buildUser(t);
    const b = await buildUser(t);
    await page('/', b.token);
    await buildThread(t, a.token, { title: 'written just now' });
    const after = await page('/', b.token);
    expect(after.cache).toBe('miss');
    expect(after.html).toContain('written just now');
  });

  it('renders a stopped member’s pages as their own, and pages outside the list as their own', async () => {
    const u = await buildUser(t);
    expect((await t.post('/api/backAdmin/users/update.user', { id: u.id, status: 1, reason: 'x' }, t.admin)).Code).toBe(
      0,
    );
    const own = (await page('/', u.token)).html;
    expect(own).not.toContain('"forGroups":true');
    expect(own).not.toContain('data-viewer=');
    const other = await buildUser(t, { nickname: 'Carol Wu' });
    const my = await page('/my', other.token);
    expect(my.html).not.toContain('"forGroups":true');
    expect(my.cache).toBeUndefined();
  });

  it('ignores the render header when it comes from outside', async () => {
    const forged = await t.app.inject({
      url: '/api/v3/forum',
      headers: { 'x-luntan-render-as': 'guess 1' },
    });
    const forum = forged.json<{ Code: number; Data: Forum }>();
    expect(forum.Code).toBe(Code.SUCCESS);
    expect(forum.Data.user).toBeNull();
    expect(forum.Data.other.canCreateThread).toBe(false);
  });
});

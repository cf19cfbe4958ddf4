import { GroupId } from '@luntan/shared';
import { describe, expect, it } from 'vitest';
import { buildCategory, buildThread, setGroupPermissions } from '../../test/factories.js';
import { useTestServer } from '../../test/fixture.js';

const t = useTestServer();

describe('robots.txt and sitemap.xml', () => {
  it('robots.txt points at the sitemap and keeps robots out of private pages', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/robots.txt', headers: { host: 'forum.example' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.body).toContain('Sitemap: http://forum.example/sitemap.xml');
    expect(res.body).toContain('Disallow: /api/');
    expect(res.body).toContain('Disallow: /my');
  });

  it('lists the published threads a guest may read, and nothing else', async () => {
    const open = await buildThread(t, t.admin, { title: '公开的主题' });
    const draft = await buildThread(t, t.admin, { title: '草稿', draft: true });
    const hiddenCategory = await buildCategory(t, t.admin, { name: '内部' });
    const hidden = await buildThread(t, t.admin, { categoryId: hiddenCategory, title: '内部主题' });
    const removed = await buildThread(t, t.admin, { title: '删掉的' });
    expect((await t.post('/api/v3/thread.delete', { threadId: removed.threadId }, t.admin)).Code).toBe(0);
    // Guests may read category 1 only.
    await setGroupPermissions(t, t.admin, GroupId.GUEST, ['category1.viewThreads', 'category1.thread.viewPosts']);

    const res = await t.app.inject({ method: 'GET', url: '/sitemap.xml', headers: { host: 'forum.example' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/xml');
    expect(res.body).toContain('<loc>http://forum.example/</loc>');
    expect(res.body).toContain(`<loc>http://forum.example/thread/${open.threadId}</loc>`);
    for (const absent of [draft, hidden, removed]) {
      expect(res.body).not.toContain(`/thread/${absent.threadId}<`);
    }
  });
});

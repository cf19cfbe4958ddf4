import { GroupId, type ThreadDetail } from '@luntan/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildCategory, buildReply, setGroupPermissions } from '../../test/factories.js';
import { useTestServer } from '../../test/fixture.js';
import { setSettings } from '../../test/money-fixtures.js';

const t = useTestServer();
const HOST = 'forum.example';

const fetchFeed = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers: { host: HOST, ...headers } });

/** The feed's items: title, link, creator, description and content, in order. */
function items(xml: string) {
  return [...xml.matchAll(/<item>([\s\S]*?)<\/item>/g)].map(([, body]) => {
    const field = (name: string) => {
      const m = new RegExp(`<${name}>(?:<!\\[CDATA\\[)?([\\s\\S]*?)(?:\\]\\]>)?</${name}>`).exec(body!);
      return m ? m[1]! : null;
    };
    return {
      title: field('title'),
      link: field('link'),
      creator: field('dc:creator'),
      description: field('description'),
      content: field('content:encoded'),
    };
  });
}

const create = async (body: Record<string, unknown>) => {
  const res = await t.post<ThreadDetail>(
    '/api/v3/thread.create',
    { categoryId: 1, title: 'T', content: { text: 'text' }, ...body },
    t.admin,
  );
  expect(res.Code, res.Message).toBe(0);
  return res.Data;
};

describe('RSS feeds', () => {
  let open: ThreadDetail;
  let paid: ThreadDetail;
  let anonymous: ThreadDetail;
  let hidden: ThreadDetail;
  let hiddenCategory: number;
  const member = { nickname: '读者小王', token: '' };

  beforeAll(async () => {
    hiddenCategory = await buildCategory(t.current, t.admin, { name: '内部' });
    open = await create({ title: '公开的主题 <b>&', content: { text: '正文 ![图](/uploads/a/b.png) 结束' } });
    paid = await create({
      title: '付费主题',
      content: { text: `免费的开头。${'付费的内容，'.repeat(40)}SECRET-PART` },
      price: '5.00',
      freeWords: 0.2,
    });
    anonymous = await create({ title: '匿名的主题', anonymous: 1 });
    hidden = await create({ title: '内部主题', categoryId: hiddenCategory });
    // Guests may read category 1 only.
    await setGroupPermissions(t.current, t.admin, GroupId.GUEST, [
      'category1.viewThreads',
      'category1.thread.viewPosts',
    ]);
    const reader = await t.buildMember({ nickname: member.nickname });
    member.token = reader.token;
    await buildReply(t.current, reader.token, open.threadId, { text: '第一条回复 ![](/uploads/r/1.png)' });
    await buildReply(t.current, reader.token, open.threadId, { text: '第二条回复' });
  });

  it('/rss/latest.xml: the newest threads a guest may read, paid ones by their free part, anonymous ones anonymous', async () => {
    const res = await fetchFeed('/rss/latest.xml');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
    expect(res.body).toMatch(/^<\?xml version="1.0" encoding="utf-8"\?>\s*<rss version="2.0"/);
    expect(res.body).toContain('<atom:link href="http://forum.example/rss/latest.xml" rel="self"');
    const list = items(res.body);
    // Newest first (the anonymous thread was made after the paid one), the hidden category's thread left out.
    const links = list.map((i) => i.link);
    expect(links.indexOf(`http://forum.example/thread/${anonymous.threadId}`)).toBeLessThan(
      links.indexOf(`http://forum.example/thread/${paid.threadId}`),
    );
    expect(links).toContain(`http://forum.example/thread/${open.threadId}`);
    expect(links).not.toContain(`http://forum.example/thread/${hidden.threadId}`);
    expect(res.body).not.toContain('内部主题');
    const paidItem = list.find((i) => i.link?.endsWith(`/thread/${paid.threadId}`))!;
    expect(paidItem.description).toContain('免费的开头');
    expect(res.body).not.toContain('SECRET-PART');
    const anonymousItem = list.find((i) => i.link?.endsWith(`/thread/${anonymous.threadId}`))!;
    expect(anonymousItem.creator).toBe('匿名用户');
    // A title with markup stays text.
    expect(list.find((i) => i.link?.endsWith(`/thread/${open.threadId}`))!.title).toBe('公开的主题 <b>&');
  });

  it('/rss/category/<id>.xml: a readable category; a hidden, unknown or malformed one is the 404 page', async () => {
    const res = await fetchFeed('/rss/category/1.xml');
    expect(res.statusCode).toBe(200);
    expect(items(res.body).some((i) => i.link?.endsWith(`/thread/${open.threadId}`))).toBe(true);
    for (const url of [`/rss/category/${hiddenCategory}.xml`, '/rss/category/99999.xml', '/rss/category/abc.xml']) {
      const missing = await fetchFeed(url, { accept: 'text/html' });
      expect(missing.statusCode, url).toBe(404);
      expect(missing.headers['content-type'], url).toContain('text/html');
      expect(missing.body, url).toContain('资源不存在');
    }
    const english = await fetchFeed('/rss/thread/99999.xml', { accept: 'text/html', cookie: 'locale=en' });
    expect(english.statusCode).toBe(404);
    expect(english.body).toContain('<html lang="en"');
  });

  it('/rss/thread/<id>.xml: its newest replies first, with absolute addresses; a hidden thread is the 404 page', async () => {
    const res = await fetchFeed(`/rss/thread/${open.threadId}.xml`);
    expect(res.statusCode).toBe(200);
    const list = items(res.body);
    expect(list.map((i) => i.description)).toEqual(['第二条回复', '第一条回复']);
    expect(list[0]!.creator).toBe(member.nickname);
    expect(list[1]!.content).toContain('src="http://forum.example/uploads/r/1.png"');
    expect(list[0]!.link).toMatch(new RegExp(`^http://forum.example/thread/${open.threadId}#post-\\d+$`));
    expect((await fetchFeed(`/rss/thread/${hidden.threadId}.xml`)).statusCode).toBe(404);
  });

  it('answers a conditional GET with 304, and a new reply changes the feed at once', async () => {
    const url = `/rss/thread/${open.threadId}.xml`;
    const first = await fetchFeed(url, { 'accept-encoding': 'br' });
    expect(first.headers['content-encoding']).toBe('br');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await fetchFeed(url, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    await buildReply(t.current, member.token, open.threadId, { text: '第三条回复' });
    const changed = await fetchFeed(url, { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(items(changed.body)[0]!.description).toBe('第三条回复');
  });

  it('the home, category and thread pages name their feeds in their head', async () => {
    const page = async (url: string) =>
      (await t.app.inject({ method: 'GET', url, headers: { host: HOST, accept: 'text/html' } })).body;
    const link = (href: string, title: string) =>
      `<link rel="alternate" type="application/rss+xml" title="${title}" href="${href}">`;
    expect(await page('/')).toContain(link('/rss/latest.xml', '最新主题'));
    expect(await page('/?categoryId=1')).toContain(link('/rss/category/1.xml', '本分类的主题'));
    const thread = await page(`/thread/${open.threadId}`);
    expect(thread).toContain(link(`/rss/thread/${open.threadId}.xml`, '本主题的回复'));
    expect(thread).not.toContain('/rss/latest.xml');
  });

  it('a closed site shows no feed', async () => {
    await setSettings(t.current, t.admin, { siteClose: true });
    try {
      const res = await fetchFeed('/rss/latest.xml', { accept: 'text/html' });
      expect(res.statusCode).not.toBe(200);
      expect(res.body).not.toContain('公开的主题');
    } finally {
      await setSettings(t.current, t.admin, { siteClose: false });
    }
  });
});

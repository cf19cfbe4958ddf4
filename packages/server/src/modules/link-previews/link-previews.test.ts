import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PostItem, ThreadDetail } from '@luntan/shared';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../../test/fixture.js';
import { fetchPreview } from './fetch-preview.js';

/*
 * Link cards: a local server plays the sites (their pages' markup as Bilibili, Zhihu, WeChat articles, GitHub and
 * YouTube write it), the forum runs with ALLOW_PRIVATE_FETCH=1 to reach it.
 */

let site: Server;
let origin = '';
let png: Buffer;

const page = (head: string, body = '<p>正文</p>') =>
  `<!doctype html><html><head><meta charset="utf-8">${head}</head><body>${body}</body></html>`;

function pages(): Record<string, (res: ServerResponse) => void> {
  const html =
    (text: string, type = 'text/html; charset=utf-8') =>
    (res: ServerResponse) => {
      res.writeHead(200, { 'content-type': type });
      res.end(text);
    };
  return {
    '/video/BV1xx411c7mD': html(
      page(
        '<title>【科普】数据库索引是怎么工作的_哔哩哔哩_bilibili</title>' +
          '<meta property="og:title" content="【科普】数据库索引是怎么工作的_哔哩哔哩_bilibili">' +
          '<meta property="og:description" content="用十分钟讲清楚 B+ 树">' +
          `<meta property="og:image" content="//${origin.slice('http://'.length)}/cover.png">` +
          '<meta property="og:url" content="https://www.bilibili.com/video/BV1xx411c7mD">',
      ),
    ),
    '/question/12345': html(
      page(
        '<title>SQLite 适合做论坛的数据库吗？ - 知乎</title>' +
          '<meta property="og:title" content="SQLite 适合做论坛的数据库吗？">' +
          '<meta property="og:site_name" content="知乎">' +
          '<meta name="description" content="读多写少的场景下 SQLite 完全够用。">',
      ),
    ),
    '/s/weixin-article': html(
      page(
        '<meta property="og:title" content="一篇公众号文章">' +
          '<meta property="og:description" content="文章摘要 &amp; 更多">' +
          '<meta property="og:image" content="/cover.png">',
      ),
    ),
    '/luntan/luntan': html(
      page(
        '<meta property="og:site_name" content="GitHub">' +
          '<meta property="og:title" content="luntan/luntan: A self-hosted community forum">' +
          '<meta name="twitter:description" content="TypeScript, Fastify, React">' +
          '<meta name="twitter:image" content="/cover.png">',
      ),
    ),
    '/watch': html(
      page(
        '<title>- YouTube</title>' +
          `<link rel="alternate" type="application/json+oembed" href="${origin}/oembed?url=x&amp;format=json">`,
      ),
    ),
    '/oembed': html(
      JSON.stringify({
        title: 'How indexes work',
        author_name: 'Some Channel',
        provider_name: 'YouTube',
        thumbnail_url: `${origin}/cover.png`,
      }),
      'application/json',
    ),
    // oEmbed whose fields are not strings: a preview that once threw out of its round and was fetched for ever.
    '/odd-oembed': html(
      page(
        '<title>A page with odd oEmbed</title>' +
          '<link rel="alternate" type="application/json+oembed" href="/oembed-odd">',
      ),
    ),
    '/oembed-odd': html(
      JSON.stringify({ title: 12345, author_name: { name: 'x' }, provider_name: ['y'], thumbnail_url: 7 }),
      'application/json',
    ),
    '/gbk': (res) => {
      // 标题 in GBK, named by the page's own <meta charset>.
      const title = Buffer.from([0xb1, 0xea, 0xcc, 0xe2]);
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(
        Buffer.concat([
          Buffer.from('<html><head><meta charset="gbk"><meta property="og:title" content="'),
          title,
          Buffer.from('"></head></html>'),
        ]),
      );
    },
    '/script-title': html(page('<meta property="og:title" content="&lt;script&gt;alert(1)&lt;/script&gt; 标题">')),
    '/no-title': html('<html><head></head><body>nothing</body></html>'),
    '/cover.png': (res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(png);
    },
    '/never': () => undefined,
  };
}

beforeAll(async () => {
  png = await sharp({ create: { width: 1200, height: 630, channels: 3, background: '#3366cc' } })
    .png()
    .toBuffer();
  site = createServer((req, res) => {
    const handler = pages()[(req.url ?? '/').split('?')[0]!];
    if (!handler) {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<html><head><title>Not found</title></head></html>');
      return;
    }
    handler(res);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});
afterAll(async () => {
  site.closeAllConnections();
  await new Promise((resolve) => site.close(resolve));
});

describe('link previews', () => {
  const t = useTestServer({ env: { ALLOW_PRIVATE_FETCH: '1' } });

  /** A thread by a member with this text, its previews fetched, as a guest reads it. */
  async function threadWith(text: string): Promise<ThreadDetail> {
    const thread = await t.buildThread(undefined, { text });
    await t.app.ctx.linkPreviews.runDue();
    await t.app.ctx.events.drain();
    return (await t.get<ThreadDetail>(`/api/v3/thread.detail?threadId=${thread.threadId}`)).Data;
  }

  const cardsOf = (html: string) => [...html.matchAll(/<a class="lt-onebox"[\s\S]*?<\/a>/g)].map((m) => m[0]);

  it('a link alone on its line becomes a card: title, description, site, the forum’s copy of the image', async () => {
    const url = `${origin}/video/BV1xx411c7mD`;
    const thread = await threadWith(`看这个视频：\n${url}\n\n正文里的链接 ${origin}/question/12345 不变成卡片。`);
    const cards = cardsOf(thread.content.html);
    expect(cards).toHaveLength(1);
    const card = cards[0]!;
    expect(card).toContain(`href="${url}"`);
    expect(card).toContain('【科普】数据库索引是怎么工作的_哔哩哔哩_bilibili');
    expect(card).toContain('用十分钟讲清楚 B+ 树');
    const image = /<img class="lt-onebox__image" src="(\/uploads\/previews\/[0-9a-f]{32}\.webp)"/.exec(card)?.[1];
    expect(image).toBeDefined();
    expect(card).not.toContain(origin.slice('http://'.length) + '/cover.png');
    const served = await t.app.inject({ url: image! });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toContain('image/webp');
    const meta = await sharp(served.rawPayload).metadata();
    expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBeLessThanOrEqual(600);
    // The link inside a sentence stays a link.
    expect(thread.content.html).toContain(`<a href="${origin}/question/12345"`);
    // The page was fetched once, however many posts name it.
    const again = await threadWith(url);
    expect(cardsOf(again.content.html)).toHaveLength(1);
    const rows = await t.app.ctx.db.selectFrom('linkPreviews').selectAll().where('url', '=', url).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.attempts).toBe(1);
  });

  it('reads Zhihu, WeChat articles, GitHub and YouTube (oEmbed) pages, and a GBK page', async () => {
    const expectations: [string, string[]][] = [
      ['/question/12345', ['SQLite 适合做论坛的数据库吗？', '知乎', '读多写少的场景下 SQLite 完全够用。']],
      ['/s/weixin-article', ['一篇公众号文章', '文章摘要 &amp; 更多', 'lt-onebox__image']],
      ['/luntan/luntan', ['luntan/luntan: A self-hosted community forum', 'GitHub', 'TypeScript, Fastify, React']],
      ['/watch', ['How indexes work', 'YouTube', 'Some Channel', 'lt-onebox__image']],
      ['/gbk', ['标题']],
    ];
    for (const [path, texts] of expectations) {
      const card = cardsOf((await threadWith(`${origin}${path}`)).content.html)[0];
      expect(card, path).toBeDefined();
      for (const text of texts) expect(card, path).toContain(text);
    }
  });

  it('escapes what a page says, and leaves the plain link when there is no card to make', async () => {
    const escaped = cardsOf((await threadWith(`${origin}/script-title`)).content.html)[0]!;
    expect(escaped).toContain('&lt;script&gt;alert(1)&lt;/script&gt; 标题');
    expect(escaped).not.toContain('<script>');
    for (const path of ['/missing-page', '/no-title', '/cover.png']) {
      const thread = await threadWith(`${origin}${path}`);
      expect(cardsOf(thread.content.html), path).toEqual([]);
      expect(thread.content.html, path).toContain(`<a href="${origin}${path}"`);
    }
    const failed = await t.app.ctx.db
      .selectFrom('linkPreviews')
      .select(['url', 'status', 'error'])
      .where('url', 'in', [`${origin}/missing-page`, `${origin}/no-title`, `${origin}/cover.png`])
      .orderBy('url')
      .execute();
    expect(failed.map((f) => [f.status, f.error])).toEqual([
      ['failed', 'not a page (image/png)'],
      ['failed', 'HTTP 404'],
      ['failed', 'the page has no title'],
    ]);
  });

  it('reads oEmbed fields only when they are strings; the preview is fetched once, not again and again', async () => {
    const url = `${origin}/odd-oembed`;
    const thread = await t.buildThread(undefined, { text: url });
    const db = t.app.ctx.db;
    const row = () =>
      db
        .selectFrom('linkPreviews')
        .select(['status', 'attempts', 'title'])
        .where('url', '=', url)
        .executeTakeFirstOrThrow();
    await t.app.ctx.linkPreviews.runDue();
    // Were it left claimed, its lease running out would hand it to the next round.
    await db
      .updateTable('linkPreviews')
      .set({ claimedUntil: '2000-01-01T00:00:00.000Z' })
      .where('url', '=', url)
      .execute();
    await t.app.ctx.linkPreviews.runDue();
    await t.app.ctx.events.drain();
    expect(await row()).toEqual({ status: 'ok', attempts: 1, title: 'A page with odd oEmbed' });
    const detail = await t.get<ThreadDetail>(`/api/v3/thread.detail?threadId=${thread.threadId}`);
    expect(cardsOf(detail.Data.content.html)[0]).toContain('A page with odd oEmbed');
  });

  it('gives a preview up as failed once its claims reach the limit, without fetching it again', async () => {
    const url = `${origin}/question/12345?stuck`;
    const db = t.app.ctx.db;
    // As a preview whose fifth claim's process stopped mid-fetch leaves it: claimed, the claim run out.
    await db
      .insertInto('linkPreviews')
      .values({
        url,
        status: 'fetching',
        attempts: 5,
        claimedUntil: '2000-01-01T00:00:00.000Z',
        createdAt: new Date().toISOString(),
      })
      .execute();
    await t.app.ctx.linkPreviews.runDue();
    const row = await db
      .selectFrom('linkPreviews')
      .select(['status', 'attempts', 'claimedUntil', 'title', 'error'])
      .where('url', '=', url)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      status: 'failed',
      attempts: 5,
      claimedUntil: null,
      title: '',
      error: 'given up after 5 attempts',
    });
  });

  it('a reply edited to hold a link alone on its line shows its card', async () => {
    const thread = await t.buildThread();
    const member = await t.buildMember();
    const reply = await t.buildReply(member, thread.threadId, { text: '先占个楼' });
    const edited = await t.post<PostItem>(
      '/api/v3/posts.update',
      { id: reply.id, content: `补充：\n${origin}/luntan/luntan` },
      member.token,
    );
    expect(edited.Code, edited.Message).toBe(0);
    await t.app.ctx.linkPreviews.runDue();
    await t.app.ctx.events.drain();
    const replies = await t.get<{ pageData: PostItem[] }>(`/api/v3/posts.list?threadId=${thread.threadId}`);
    expect(cardsOf(replies.Data.pageData.find((p) => p.id === reply.id)!.content.html)).toHaveLength(1);
  });
});

describe('link previews: the rules of a server-side fetch', () => {
  const t = useTestServer();

  it('refuses this machine’s addresses unless ALLOW_PRIVATE_FETCH=1', async () => {
    const refused = await fetchPreview(`${origin}/question/12345`, { allowPrivate: false, files: t.app.ctx.files });
    expect(refused.ok).toBe(false);
    expect(refused.ok ? '' : refused.error).toMatch(/127\.0\.0\.1/);
    expect((await fetchPreview('ftp://example.com/x', { allowPrivate: true, files: t.app.ctx.files })).ok).toBe(false);
  });

  it('gives up on a page that never answers after 5 s: the link stays plain', async () => {
    const started = Date.now();
    const result = await fetchPreview(`${origin}/never`, { allowPrivate: true, files: t.app.ctx.files });
    expect(result).toEqual({ ok: false, error: 'no answer within 5000 ms' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(4900);
  }, 15_000);
});

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Code, type GoodsAnalysis } from '@luntan/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../../test/fixture.js';
import { loadConfig } from '../../config.js';
import { readProductPage } from './goods-page.js';

/** POST /api/v3/goods/analysis against product pages served by the test itself on 127.0.0.1. */

const OPEN_GRAPH = `<!doctype html><html><head><meta charset="utf-8">
<title>Shop — ignored when OpenGraph speaks</title>
<meta property="og:title" content="机械键盘 87 键 &amp; 茶轴">
<meta property="og:image" content="/img/k.jpg">
<meta property="product:price:amount" content="299">
</head><body><h1>x</h1></body></html>`;

const JSON_LD = `<html><head><title>Page title</title>
<meta property="og:title" content="OpenGraph title">
<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"WebPage","name":"not it"},
{"@type":"Product","name":"降噪耳机 Pro","image":["https://cdn.example.com/h.png"],
"offers":{"@type":"Offer","price":"1,299.5","priceCurrency":"CNY"}}]}</script>
</head><body></body></html>`;

const TITLE_ONLY = '<html><head><title>  Just a\n title  </title></head><body></body></html>';

/** JSON-LD whose Product name nests 200,000 arrays (about 400 kB, under the 1 MB read): deeper than any stack. */
const DEEP = `<html><head><script type="application/ld+json">{"@type":"Product","name":${'['.repeat(200_000)}"x"${']'.repeat(200_000)}}</script></head><body></body></html>`;

/** JSON-LD that is one array of 300,000 items (about 600 kB): more arguments than one call may take. */
const WIDE = `<html><head><script type="application/ld+json">[${'1,'.repeat(300_000)}{"@type":"Product","name":"x"}]</script></head><body></body></html>`;

/** A page of 2 MB: its <title> in the first bytes, OpenGraph only after 1.5 MB (never read). */
const BIG = `<html><head><title>Big page</title></head><body>${'x'.repeat(1_500_000)}
<meta property="og:title" content="Beyond the first megabyte">${'y'.repeat(500_000)}</body></html>`;

let page: http.Server;
let origin = '';

beforeAll(async () => {
  page = http.createServer((req, res) => {
    const html = (body: string, type = 'text/html; charset=utf-8') => {
      res.writeHead(200, { 'content-type': type });
      res.end(body);
    };
    switch (req.url) {
      case '/og':
        return html(OPEN_GRAPH);
      case '/ld':
        return html(JSON_LD);
      case '/title':
        return html(TITLE_ONLY);
      case '/big':
        return html(BIG);
      case '/deep':
        return html(DEEP);
      case '/wide':
        return html(WIDE);
      case '/json':
        return html('{"title":"x"}', 'application/json');
      case '/empty':
        return html('<html><body>nothing</body></html>');
      case '/missing':
        res.writeHead(404, { 'content-type': 'text/html' });
        return res.end('<title>Not found</title>');
      case '/to-ftp':
        res.writeHead(302, { location: 'ftp://127.0.0.1/file' });
        return res.end();
      case '/slow':
        // Answers after 1.5 s, longer than the test server's limit (GOODS_FETCH_TIMEOUT_MS=500).
        setTimeout(() => html(TITLE_ONLY), 1500).unref();
        return;
      default:
        res.writeHead(404);
        return res.end();
    }
  });
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
});
afterAll(async () => {
  page.closeAllConnections();
  await new Promise((resolve) => page.close(resolve));
});

describe('goods/analysis with ALLOW_PRIVATE_FETCH=1', () => {
  const t = useTestServer({ env: { ALLOW_PRIVATE_FETCH: '1', GOODS_FETCH_TIMEOUT_MS: '500' } });
  const analyse = (token: string | undefined, address: unknown) =>
    t.post<GoodsAnalysis>('/api/v3/goods/analysis', { address }, token);

  it('reads OpenGraph: title, price, picture (made absolute), in the family shape', async () => {
    const member = await t.buildMember();
    const res = await analyse(member.token, `${origin}/og`);
    expect(res.Code, res.Message).toBe(0);
    expect(res.Data).toEqual({
      title: '机械键盘 87 键 & 茶轴',
      price: '299.00',
      imagePath: `${origin}/img/k.jpg`,
      detailContent: `${origin}/og`,
      type: 99,
      readyContent: `${origin}/og`,
      status: 0,
    });
  });

  it('prefers a schema.org Product in JSON-LD (name, image, offers.price) over OpenGraph', async () => {
    const member = await t.buildMember();
    const res = await analyse(member.token, `${origin}/ld`);
    expect(res.Code, res.Message).toBe(0);
    expect(res.Data).toMatchObject({
      title: '降噪耳机 Pro',
      price: '1299.50',
      imagePath: 'https://cdn.example.com/h.png',
    });
  });

  it('falls back to <title>; the answer fills a goods card that thread.create takes as it is', async () => {
    const member = await t.buildMember();
    const res = await analyse(member.token, `${origin}/title`);
    expect(res.Data).toMatchObject({ title: 'Just a title', price: '', imagePath: '' });
    const { title, detailContent, type } = res.Data;
    const made = await t.post(
      '/api/v3/thread.create',
      {
        categoryId: 1,
        title: 't',
        content: { text: '', indexes: { 104: { tomId: '104', body: { title, detailContent, type } } } },
      },
      member.token,
    );
    expect(made.Code, made.Message).toBe(0);
  });

  it('reads at most 1 MB of a 2 MB page', async () => {
    const member = await t.buildMember();
    const res = await analyse(member.token, `${origin}/big`);
    expect(res.Code, res.Message).toBe(0);
    expect(res.Data.title).toBe('Big page');
  });

  it('gives up on a slow page with a sentence, within the limit', async () => {
    const member = await t.buildMember();
    const started = Date.now();
    const res = await analyse(member.token, `${origin}/slow`);
    expect(Date.now() - started).toBeLessThan(1400);
    expect(res.Code).toBe(Code.EXTERNAL_API_ERROR);
    expect(res.Message).toBe('商品页在 1 秒内没有回应，请手动填写商品信息');
  });

  it('answers failures as sentences: not HTML, an error status, no product, a redirect to ftp', async () => {
    const member = await t.buildMember();
    const cases: [string, number, string][] = [
      ['/json', Code.EXTERNAL_API_ERROR, '这个地址不是网页（application/json），请手动填写商品信息'],
      ['/missing', Code.EXTERNAL_API_ERROR, '商品页回应了 404，请手动填写商品信息'],
      ['/empty', Code.EXTERNAL_API_ERROR, '没有在这个网页找到商品信息，请手动填写'],
      ['/to-ftp', Code.INVALID_PARAMETER, '只能识别 http:// 或 https:// 开头的网址'],
    ];
    for (const [path, code, text] of cases) {
      const res = await analyse(member.token, `${origin}${path}`);
      expect(res.Code, path).toBe(code);
      expect(res.Message, path).toBe(text);
      expect(res.Data).toMatchObject({ field: 'address' });
    }
  });

  it('answers "nothing found", not an internal error, for JSON-LD nested too deep or too wide to walk', async () => {
    const member = await t.buildMember();
    for (const path of ['/deep', '/wide']) {
      const res = await analyse(member.token, `${origin}${path}`);
      expect(res.Code, `${path}: ${res.Message}`).toBe(Code.EXTERNAL_API_ERROR);
      expect(res.Message, path).toBe('没有在这个网页找到商品信息，请手动填写');
      expect(res.Data, path).toMatchObject({ field: 'address' });
    }
  });

  it('refuses an ftp:// address and a missing one by their field', async () => {
    const member = await t.buildMember();
    for (const address of ['ftp://127.0.0.1/goods', 'file:///etc/passwd', '', undefined]) {
      const res = await analyse(member.token, address);
      expect(res.Code, String(address)).toBe(Code.INVALID_PARAMETER);
      expect((res.Data as unknown as { field: string }).field).toBe('address');
      expect(res.Message).not.toMatch(/invalid_|Expected|undefined/);
    }
    const ftp = await analyse(member.token, 'ftp://127.0.0.1/goods');
    expect(ftp.Message).toContain('http:// 或 https://');
  });

  it('needs a signed-in member holding thread.insertGoods somewhere', async () => {
    expect((await analyse(undefined, `${origin}/og`)).Code).toBe(Code.JUMP_TO_LOGIN);
    const member = await t.buildMember();
    const group = await t.buildGroup(['viewThreads', 'thread.viewPosts', 'createThread'], [member]);
    const { body } = (await t.call('POST', '/api/v3/goods/analysis', {
      token: member.token,
      body: { address: `${origin}/og` },
      headers: { cookie: 'locale=en' },
    })) as { body: { Code: number; Message: string } };
    expect(body.Code).toBe(Code.UNAUTHORIZED);
    expect(body.Message).toBe('You may not insert goods');
    const category = await t.buildCategory();
    await t.post(
      '/api/permission.v2',
      {
        groupId: group,
        permissions: ['viewThreads', 'thread.viewPosts', 'createThread', `category${category}.thread.insertGoods`],
      },
      t.admin,
    );
    expect((await analyse(member.token, `${origin}/og`)).Code).toBe(0);
  });

  it('counts 30 analyses per member per hour', async () => {
    const member = await t.buildMember();
    for (let i = 0; i < 30; i++) expect((await analyse(member.token, `${origin}/title`)).Code).toBe(0);
    expect((await analyse(member.token, `${origin}/title`)).Code).toBe(Code.TOO_MANY_REQUESTS);
    const other = await t.buildMember();
    expect((await analyse(other.token, `${origin}/title`)).Code).toBe(0);
  });
});

describe('goods/analysis without ALLOW_PRIVATE_FETCH', () => {
  const t = useTestServer();

  it.each([
    ['http://127.0.0.1:1/goods', '127.0.0.1', '本机回环'],
    ['http://10.1.2.3/goods', '10.1.2.3', '内网'],
    ['http://169.254.169.254/latest/meta-data', '169.254.169.254', '链路本地'],
    ['http://[::1]/goods', '::1', '本机回环'],
    ['http://localhost/goods', '', '本机回环'],
  ])('refuses %s, naming the address', async (address, ip, kind) => {
    const member = await t.buildMember();
    const res = await t.post('/api/v3/goods/analysis', { address }, member.token);
    expect(res.Code).toBe(Code.INVALID_PARAMETER);
    expect(res.Message).toContain(kind);
    if (ip) expect(res.Message).toContain(ip);
    expect(res.Data).toMatchObject({ field: 'address' });
  });

  it('refuses a page on 127.0.0.1 before fetching it', async () => {
    const member = await t.buildMember();
    const res = await t.post('/api/v3/goods/analysis', { address: `${origin}/og` }, member.token);
    expect(res.Code).toBe(Code.INVALID_PARAMETER);
    expect(res.Data).toMatchObject({ address: '127.0.0.1' });
  });
});

describe('readProductPage', () => {
  it('reads an offer list, an image object, and ignores broken JSON-LD', () => {
    const html = `<script type="application/ld+json">{broken</script>
<script type="application/ld+json">[{"@type":["Product"],"name":"Lamp","image":{"@type":"ImageObject","url":"//cdn.example.com/l.jpg"},
"offers":[{"@type":"AggregateOffer","lowPrice":19.9}]}]</script>`;
    expect(readProductPage(html, 'https://shop.example.com/p/1')).toEqual({
      title: 'Lamp',
      price: '19.90',
      imagePath: 'https://cdn.example.com/l.jpg',
    });
  });

  it('leaves out a picture that is not http(s) and a price beyond the card', () => {
    const html = `<meta property="og:title" content="X"><meta property="og:image" content="javascript:alert(1)">
<meta property="og:price:amount" content="99999999999">`;
    expect(readProductPage(html, 'https://shop.example.com/')).toEqual({ title: 'X', price: '', imagePath: '' });
  });
});

describe('the time a product page may take', () => {
  it('is 5 s unless GOODS_FETCH_TIMEOUT_MS says otherwise', () => {
    expect(loadConfig({}).goodsFetchTimeoutMs).toBe(5000);
    expect(loadConfig({ GOODS_FETCH_TIMEOUT_MS: '500' }).goodsFetchTimeoutMs).toBe(500);
  });
});

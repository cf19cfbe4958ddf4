// @vitest-environment node
import type { Envelope } from '@luntan/shared';
import { describe, expect, it } from 'vitest';
import { render, renderPage, type RenderInput } from './entry-server';
import { envelope, forum, unread, viewer } from './test/fixtures';

type Forum = ReturnType<typeof forum>;

function serverApi(data: Forum, { failForum = false } = {}): RenderInput['api'] {
  return async <T,>(_method: 'GET' | 'POST', path: string): Promise<Envelope<T>> => {
    if (path.startsWith('/api/v3/forum')) {
      return (failForum ? envelope({}, -5002, 'down') : envelope(data)) as Envelope<T>;
    }
    if (path.startsWith('/api/v3/unreadnotification')) return envelope(unread(4)) as Envelope<T>;
    return envelope({}, -4004) as Envelope<T>;
  };
}

const DESKTOP = 'Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0 Safari/537.36';
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148 Safari/604.1';

async function page(url: string, data: Forum, headers: Record<string, string> = {}, failForum = false) {
  return render({
    url,
    headers: { 'user-agent': DESKTOP, ...headers },
    api: serverApi(data, { failForum }),
  });
}

describe('server rendering', () => {
  it('writes the head from the site settings', async () => {
    const site = {
      siteName: 'Rock & Roll',
      siteKeywords: 'music,forum',
      siteIntroduction: 'Talk "music"',
      siteFavicon: '/uploads/fav.png',
      siteStat: '<script>window.stat = 1</script>',
    };
    const result = await page('/', forum({ site }));
    expect(result.status).toBe(200);
    expect(result.html).toContain('<title>Rock &amp; Roll</title>');
    expect(result.html).toContain('<meta name="keywords" content="music,forum">');
    expect(result.html).toContain('<meta name="description" content="Talk &quot;music&quot;">');
    expect(result.html).toContain('<link rel="icon" href="/uploads/fav.png">');
    // The administrator's script as it was saved, handed to the server for the policy; no nonce anywhere.
    expect(result.html).toContain('<script>window.stat = 1</script>');
    expect(result.scripts?.siteStat).toBe('<script>window.stat = 1</script>');
    expect(result.html).not.toContain('nonce');
    expect(result.html).toContain('<html lang="zh-CN" data-platform="pc">');
  });

  it('uses 欢迎 without a site name, and puts the page part first', async () => {
    expect((await page('/', forum({ site: { siteName: '' } }))).html).toContain('<title>欢迎</title>');
    expect((await page('/user/login', forum({ site: { siteName: '' } }))).html).toContain('<title>登录 - 欢迎</title>');
  });

  it('renders the real page content, in the locale of the cookie', async () => {
    const zh = await page('/', forum({ site: { siteName: 'Forum' } }));
    expect(zh.html).toContain('首页');
    expect(zh.html).toContain('登录/注册');
    const en = await page('/', forum(), { cookie: 'locale=en' });
    expect(en.html).toContain('Login/Register');
    expect(en.html).toContain('<html lang="en"');
  });

  it('answers 404 for unknown paths and /404', async () => {
    for (const url of ['/no/such/page', '/404']) {
      const result = await page(url, forum());
      expect(result.status).toBe(404);
      expect(result.html).toContain('资源不存在');
      expect(result.html).toContain('返回上一页');
    }
  });

  it('picks h5 for a mobile user agent', async () => {
    const result = await page('/', forum(), { 'user-agent': IPHONE });
    expect(result.html).toContain('data-platform="h5"');
    expect(result.html).toContain('data-layout="h5"');
    expect(result.html).toContain('个人中心');
  });

  it('sends a guest from a guarded page to the login page, handing over the return address', async () => {
    for (const url of ['/my', '/wallet?x=1', '/message']) {
      const result = await page(url, forum());
      expect(result.status).toBe(302);
      expect(result.headers?.location).toBe('/user/login');
      expect(result.headers?.['set-cookie']).toContain(`luntan_jump_url=${encodeURIComponent(url)}`);
    }
  });

  it('shows /my to a signed-in user with the unread badge in the header', async () => {
    const result = await page('/my', forum({ user: viewer({ nickname: 'Alice' }) }));
    expect(result.status).toBe(200);
    expect(result.html).toContain('Alice');
    expect(result.html).toContain('退出登录');
    expect(result.html).toMatch(/class="lt-badge lt-badge--small"[^>]*>4</);
  });

  it('sends a member who owes the joining fee to /forum/partner-invite, and shows them that page', async () => {
    const unpaid = forum({ user: viewer({ paid: false }) });
    for (const url of ['/', '/my', '/wallet']) {
      const result = await page(url, unpaid);
      expect(result.status).toBe(302);
      expect(result.headers?.location).toBe('/forum/partner-invite');
    }
    expect((await page('/forum/partner-invite', unpaid)).status).toBe(200);
    expect((await page('/', forum({ user: viewer({ paid: true }) }))).status).toBe(200);
  });

  it('sends a signed-in user away from the login page', async () => {
    const result = await page('/user/login', forum({ user: viewer() }));
    expect(result.status).toBe(302);
    expect(result.headers?.location).toBe('/');
  });

  it('shows 获取站点接口信息失败 when the site information cannot be fetched', async () => {
    const result = await page('/', forum(), {}, true);
    expect(result.status).toBe(503);
    expect(result.html).toContain('获取站点接口信息失败');
    expect(result.html).not.toContain('<footer');
  });

  it('dehydrates the query cache and the router state for hydration', async () => {
    const result = await page('/', forum({ site: { siteName: '</script><b>' } }));
    const state = /<script type="application\/json" id="luntan-state">(.*?)<\/script>/.exec(result.html);
    expect(state).not.toBeNull();
    const parsed = JSON.parse(state![1]!) as { platform: string; locale: string; queries: { queries: unknown[] } };
    expect(parsed.platform).toBe('pc');
    expect(parsed.queries.queries.length).toBeGreaterThan(0);
    const router = /<script type="application\/json" id="luntan-router">(.*?)<\/script>/.exec(result.html);
    expect(JSON.parse(router![1]!)).toMatchObject({ loaderData: {}, errors: null });
    expect(result.html).not.toContain('</script><b>');
  });

  it('keeps a site name that closes the script element inside its data blocks, where it never runs', async () => {
    const title = '</script><script>alert(1)</script>';
    const result = await page('/', forum({ site: { siteName: title, siteIntroduction: title } }));
    // The only script elements are ours: the title neither closed a data block nor opened a script of its own.
    const scripts = result.html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.every((tag) => tag.includes('type="application/json"') || tag.includes('type="module"'))).toBe(true);
    expect(result.html).not.toContain('<script>alert(1)');
    // And it reads back whole from the blocks.
    for (const id of ['luntan-state', 'luntan-router']) {
      const block = new RegExp(`<script type="application/json" id="${id}">(.*?)</script>`).exec(result.html);
      expect(block).not.toBeNull();
      JSON.parse(block![1]!);
    }
    const state = /id="luntan-state">(.*?)<\/script>/.exec(result.html)![1]!;
    expect(state).toContain('\\u003c/script\\u003e\\u003cscript\\u003ealert(1)');
    expect(JSON.stringify(JSON.parse(state))).toContain(title);
  });
});

describe('a page in two parts', () => {
  it('knows its status and head before the app renders, and renders the app once asked', async () => {
    const data = forum({ site: { siteName: 'Two Parts' } });
    const home = await renderPage({ url: '/', headers: { 'user-agent': DESKTOP }, api: serverApi(data) });
    expect(home.status).toBe(200);
    expect(home.head).toMatch(/^<!doctype html><html [^>]*><head>.*<title>Two Parts<\/title>.*<\/head><body>$/);
    expect(home.head).not.toContain('id="root"');
    // In parts, never joined here (server/document.ts): the app, each data block and the end on their own.
    const parts = home.rest();
    expect(parts.length).toBeGreaterThanOrEqual(4);
    expect(parts[0]).toMatch(/^<div id="root">.*<\/div>$/s);
    expect(parts.at(-1)).toBe('</body></html>');
    const rest = parts.join('');
    expect(rest).toMatch(/^<div id="root">.*首页.*<\/body><\/html>$/s);
    expect(rest).toContain('id="luntan-state"');

    const missing = await renderPage({
      url: '/no/such/page',
      headers: { 'user-agent': DESKTOP },
      api: serverApi(data),
    });
    expect(missing.status).toBe(404);
    expect(missing.rest().join('')).toContain('资源不存在');
  });

  it('has nothing to send for a redirect', async () => {
    const result = await renderPage({ url: '/my', headers: { 'user-agent': DESKTOP }, api: serverApi(forum()) });
    expect(result.status).toBe(302);
    expect(result.headers?.location).toMatch(/^\/user\/login/);
    expect(result.head).toBe('');
    expect(result.rest()).toEqual([]);
  });
});

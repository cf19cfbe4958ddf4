import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SiteInfo } from '@luntan/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../support/api';
import { hydrated, useE2E } from '../support/harness';
import { ADMIN } from '../support/server';

/** What an attacker's page and a hostile administrator snippet can and cannot do, in a real browser. */
const e2e = useE2E();

const PNG_DATA_URL =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';

/** An attacker's page on another port of the same host: same site as the forum, so a Lax cookie goes along. */
let attacker: http.Server;
let attackerUrl = '';
const attackerPages = new Map<string, string>();

beforeAll(async () => {
  attacker = http.createServer((request, response) => {
    if (request.url === '/stat.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end('window.statLoaded = true;');
      return;
    }
    const page = attackerPages.get(request.url ?? '') ?? 'not here';
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  attackerUrl = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => attacker.close(resolve));
});

/** A page that posts a multipart form (a data-URL logo, or a real file) to the forum as soon as it opens. */
function autoPostPage(action: string, fields: Record<string, string>, file?: boolean): string {
  const inputs = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${value}">`)
    .join('');
  const attach = file
    ? `const dt = new DataTransfer();
       dt.items.add(new File([Uint8Array.from(atob('${PNG_DATA_URL.split(',')[1]}'), (c) => c.charCodeAt(0))], 'x.png', { type: 'image/png' }));
       document.querySelector('input[type=file]').files = dt.files;`
    : '';
  return `<!doctype html><html><body>
    <form method="post" enctype="multipart/form-data" action="${action}">${inputs}${file ? '<input type="file" name="file">' : ''}</form>
    <script>${attach} document.forms[0].submit();</script></body></html>`;
}

async function signedInAdminPage() {
  const { page, context, errors } = await e2e.newPage();
  const session = await new ApiClient(e2e.baseUrl).ok<{ accessToken: string }>(
    'POST',
    '/api/v3/users/username.login',
    ADMIN,
  );
  await context.addCookies([{ name: 'access_token', value: session.accessToken, url: e2e.baseUrl, httpOnly: true }]);
  return { page, errors };
}

describe('cross-site requests', () => {
  it("refuse a form post from another port that carries the administrator's cookie", async () => {
    const { page } = await signedInAdminPage();
    attackerPages.set(
      '/logo',
      autoPostPage(`${e2e.baseUrl}/api/settings/logo.v2`, { type: 'logo', logo: PNG_DATA_URL }),
    );
    attackerPages.set('/upload', autoPostPage(`${e2e.baseUrl}/api/v3/attachments`, { type: 'image' }, true));

    for (const path of ['/logo', '/upload']) {
      await page.goto(attackerUrl + path);
      await page.waitForURL((url) => url.href.startsWith(`${e2e.baseUrl}/api/`));
      const answer = JSON.parse((await page.locator('body').innerText()).trim()) as { Code: number };
      expect(answer.Code, path).toBe(-4002);
    }
    const site = await new ApiClient(e2e.baseUrl).ok<SiteInfo>('GET', '/api/siteinfo.v2');
    expect(site.siteLogo).toBe('');

    // The same administrator on the forum's own page is not affected.
    await page.goto('/admin');
    await hydrated(page);
    await page.locator('[data-testid="site-image-logo"] input[type=file]').setInputFiles({
      name: 'logo.png',
      mimeType: 'image/png',
      buffer: Buffer.from(PNG_DATA_URL.split(',')[1]!, 'base64'),
    });
    await page.locator('[data-testid="site-image-logo"] img').waitFor();
    const after = await new ApiClient(e2e.baseUrl).ok<SiteInfo>('GET', '/api/siteinfo.v2');
    expect(after.siteLogo).toMatch(/^\/uploads\/site\//);
    await (await e2e.admin()).ok('POST', '/api/settings/delete.logo.v2', { type: 'logo' });
  });
});

describe('content security policy', () => {
  it("runs the app and the administrator's statistics script, and nothing injected", async () => {
    const admin = await e2e.admin();
    // The usual shape of a statistics snippet: an inline script that loads the service's script from its host.
    await admin.settings({
      siteStat:
        '<script>window.siteStatRan = true; var s = document.createElement("script"); ' +
        `s.src = "${attackerUrl}/stat.js"; document.head.appendChild(s);</script>`,
    });
    // A thread whose title tries to close the page's data block and open a script of its own.
    const thread = await admin.ok<{ threadId: number }>('POST', '/api/v3/thread.create', {
      categoryId: 1,
      title: '</script><script>window.titleRan = true</script>',
      content: { text: '正文' },
    });
    const { page, errors } = await e2e.newPage();
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    const response = await page.goto('/');
    // No nonce: one policy for every page (hashes of the inline code, the hosts the snippet names).
    const csp = (await response!.allHeaders())['content-security-policy'] ?? '';
    const scriptSrc = csp.split(';').find((directive) => directive.trim().startsWith('script-src ')) ?? '';
    expect(scriptSrc).toMatch(/'self' 'sha256-/);
    expect(scriptSrc).not.toMatch(/nonce|unsafe-inline|strict-dynamic/);
    expect(scriptSrc).toContain(attackerUrl);
    await hydrated(page);
    expect(await page.evaluate(() => (window as unknown as { siteStatRan?: boolean }).siteStatRan)).toBe(true);
    await page.waitForFunction(() => (window as unknown as { statLoaded?: boolean }).statLoaded === true);
    // The page hydrated with its data blocks and its hashed import map: not one violation.
    expect(violations).toEqual([]);
    // Scripts that slipped into the page (what an XSS would be) do not run: an inline event handler, and an inline
    // script whose hash the policy does not name.
    const injected = await page.evaluate(async () => {
      const s = document.createElement('div');
      s.innerHTML = '<img src="x" onerror="window.injectedRan = true">';
      document.body.appendChild(s);
      const script = document.createElement('script');
      script.textContent = 'window.injectedScriptRan = true';
      document.body.appendChild(script);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const w = window as unknown as { injectedRan?: boolean; injectedScriptRan?: boolean };
      return { handler: w.injectedRan === true, script: w.injectedScriptRan === true };
    });
    expect(injected).toEqual({ handler: false, script: false });
    expect(violations.some((v) => /script-src-attr|inline event handler/i.test(v))).toBe(true);
    expect(violations.some((v) => /inline script/i.test(v))).toBe(true);
    // The thread's title is text in the page and data in its blocks, never a script.
    violations.length = 0;
    await page.goto(`/thread/${thread.threadId}`);
    await hydrated(page);
    await page.getByText('</script><script>window.titleRan = true</script>').first().waitFor();
    expect(await page.evaluate(() => (window as unknown as { titleRan?: boolean }).titleRan)).toBeUndefined();
    // The app itself: lazily loaded pages, navigation, no violation.
    await page.goto('/search?keyword=x');
    await hydrated(page);
    await page.goto('/user/login');
    await hydrated(page);
    expect(violations).toEqual([]);
    expect(errors.filter((e) => !/Content Security Policy/.test(e))).toEqual([]);
    await admin.settings({ siteStat: '' });
  });
});

describe('pages and the content security policy', () => {
  it('load without a single violation report (no eval probe from the schema library either)', async () => {
    const admin = await e2e.admin();
    const thread = await admin.ok<{ threadId: number }>('POST', '/api/v3/thread.create', {
      categoryId: 1,
      title: 'CSP 检查',
      content: { text: '正文' },
    });
    const { page, context, errors } = await e2e.newPage();
    // Before any script of the page runs: what the browser reports, however the page handles the error.
    await context.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { cspViolations: string[] }).cspViolations = seen;
      document.addEventListener('securitypolicyviolation', (event) =>
        seen.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`),
      );
    });
    const consoleReports: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|unsafe-eval|Refused to/i.test(message.text())) consoleReports.push(message.text());
    });
    for (const url of ['/', `/thread/${thread.threadId}`, '/search?keyword=CSP', '/user/login', '/user/register']) {
      await page.goto(url);
      await hydrated(page);
      // A lazily loaded page's chunks (the schemas among them) have run once the form or list is on screen.
      await page.waitForLoadState('networkidle');
      const violations = await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
      expect(violations, url).toEqual([]);
    }
    expect(consoleReports).toEqual([]);
    expect(errors).toEqual([]);
  });
});

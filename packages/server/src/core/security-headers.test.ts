import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { type AttachmentItem } from '@luntan/shared';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../test/fixture.js';
import { INERT_CSP, pageCsp } from './security-headers.js';

const t = useTestServer();

/** The web app's client build (made before the tests run). */
const clientDir = () =>
  path.join(path.dirname(createRequire(import.meta.url).resolve('@luntan/web/package.json')), 'dist', 'client');

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

/** Helmet's headers that only a document reads: a page has them, nothing else does. */
const DOCUMENT_HEADERS = {
  'x-frame-options': 'SAMEORIGIN',
  'cross-origin-opener-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'x-dns-prefetch-control': 'off',
  'x-xss-protection': '0',
  'x-download-options': 'noopen',
  'x-permitted-cross-domain-policies': 'none',
};

function expectCommonHeaders(headers: Record<string, unknown>, kind: 'document' | 'resource') {
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(headers['cross-origin-resource-policy']).toBe('same-site');
  if (kind === 'document') {
    expect(headers).toMatchObject(DOCUMENT_HEADERS);
  } else {
    for (const name of Object.keys(DOCUMENT_HEADERS)) expect(headers[name], name).toBeUndefined();
    // Not framed anyway: the inert policy forbids every ancestor.
    expect(String(headers['content-security-policy'])).toContain("frame-ancestors 'none'");
  }
}

/** `'sha256-…'` of a script's text, as a browser computes it. */
const hashOf = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The sources of the policy's script-src. */
function scriptSources(csp: unknown): string[] {
  const directive = String(csp)
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith('script-src '));
  expect(directive, String(csp)).toBeDefined();
  return directive!.split(' ').slice(1);
}

/**
 * The scripts of a page the policy would not let run: every script element but the JSON data blocks must be a file
 * of this site, of a host the policy names, or inline code whose hash it names.
 */
function blockedScripts(html: string, csp: unknown): string[] {
  const allowed = scriptSources(csp);
  const blocked: string[] = [];
  for (const [, attributes, text] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (/type="application\/json"/.test(attributes!)) continue;
    const src = /\bsrc="([^"]*)"/.exec(attributes!)?.[1];
    if (src !== undefined) {
      if (src.startsWith('/') && !src.startsWith('//')) continue;
      if (allowed.includes(new URL(src).origin)) continue;
      blocked.push(src);
    } else if (!allowed.includes(hashOf(text!))) {
      blocked.push(text!);
    }
  }
  return blocked;
}

async function saveSiteStat(stat: string): Promise<void> {
  expect(
    (await t.post('/api/settings.v2', { data: [{ key: 'siteStat', value: stat, tag: 'default' }] }, t.admin)).Code,
  ).toBe(0);
}

describe('security headers', () => {
  it('give API answers nosniff, no framing, a referrer policy and an inert policy, and no document-only headers', async () => {
    const res = await get('/api/siteinfo.v2');
    expectCommonHeaders(res.headers, 'resource');
    expect(res.headers['content-security-policy']).toBe(INERT_CSP);
  });

  it("let a page run only its own scripts and the administrator's, with no nonce: the same bytes and policy for all", async () => {
    const baidu =
      'var _hmt = _hmt || [];\n(function() {\n  var hm = document.createElement("script");\n' +
      '  hm.src = "https://hm.baidu.com/hm.js?0123456789abcdef";\n' +
      '  var s = document.getElementsByTagName("script")[0];\n  s.parentNode.insertBefore(hm, s);\n})();';
    await saveSiteStat(
      `<script>window.siteStatRan = true</script><script src="https://stats.example/s.js"></script><script>${baidu}</script>`,
    );
    const first = await get('/');
    expect(first.statusCode).toBe(200);
    expectCommonHeaders(first.headers, 'document');
    const csp = String(first.headers['content-security-policy']);
    expect(csp).toContain("frame-ancestors 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("script-src-attr 'none'");
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(csp).not.toContain('nonce');
    expect(csp).not.toContain("'unsafe-inline' ");
    expect(scriptSources(csp)).not.toContain("'unsafe-inline'");
    expect(scriptSources(csp)).not.toContain("'strict-dynamic'");
    expect(scriptSources(csp)).toEqual(
      expect.arrayContaining([
        "'self'",
        hashOf('window.siteStatRan = true'),
        hashOf(baidu),
        'https://stats.example',
        // Named inside the loader: the script it adds.
        'https://hm.baidu.com',
      ]),
    );
    expect(first.body).not.toContain('nonce');
    expect(blockedScripts(first.body, csp)).toEqual([]);
    // The build's import map is inline code: allowed by its hash.
    expect(first.body).toContain('<script type="importmap">');

    // The same page again (kept) and another page: the same policy; the kept page is the same bytes.
    const second = await get('/');
    expect(second.headers['content-security-policy']).toBe(csp);
    expect(second.body).toBe(first.body);
    const other = await get('/search?keyword=x');
    expect(other.headers['content-security-policy']).toBe(csp);

    // A new snippet gives a new policy: the old script is no longer allowed.
    await saveSiteStat('<script>window.siteStatRan = 2</script>');
    const changed = await get('/');
    const newCsp = String(changed.headers['content-security-policy']);
    expect(scriptSources(newCsp)).toContain(hashOf('window.siteStatRan = 2'));
    expect(scriptSources(newCsp)).not.toContain(hashOf('window.siteStatRan = true'));
    expect(newCsp).not.toContain('https://stats.example');
    expect(blockedScripts(changed.body, newCsp)).toEqual([]);
  });

  it('keep a thread title that closes a script element inside the data blocks, where it cannot run', async () => {
    const title = '</script><script>alert(1)</script>';
    const thread = await t.buildThread(t.admin, { title });
    const res = await get(`/thread/${thread.threadId}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('<script>alert(1)');
    expect(blockedScripts(res.body, res.headers['content-security-policy'])).toEqual([]);
    const state = /<script type="application\/json" id="luntan-state">(.*?)<\/script>/.exec(res.body);
    expect(JSON.stringify(JSON.parse(state![1]!))).toContain(JSON.stringify(title).slice(1, -1));
  });

  it('make the page policy once per build and snippet, hashing scripts as a browser reads them', () => {
    const stat =
      '<script>a();\r\nb();</script><script src="//cdn.example:8443/x.js"></script>' +
      '<script src="javascript:alert(1)"></script><script src="https://bad.example;script-src *"></script>' +
      '<SCRIPT SRC="/static/local.js"></SCRIPT><img src="https://img.example/p.png">';
    const csp = pageCsp({ inline: ['{"imports":{}}'], siteStat: stat });
    expect(pageCsp({ inline: ['{"imports":{}}'], siteStat: stat })).toBe(csp);
    expect(scriptSources(csp)).toEqual(["'self'", hashOf('{"imports":{}}'), hashOf('a();\nb();'), 'cdn.example:8443']);
    expect(scriptSources(pageCsp({ inline: [], siteStat: '' }))).toEqual(["'self'"]);
  });

  it('serve uploads so they can never run as a page', async () => {
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#123456' } })
      .png()
      .toBuffer();
    const boundary = 'hdrBoundary';
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\nimage\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n`),
      Buffer.from('Content-Type: image/png\r\n\r\n'),
      png,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const uploaded = await t.call<AttachmentItem>('POST', '/api/v3/attachments', {
      token: t.admin,
      body,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(uploaded.body.Code).toBe(0);
    for (const url of [uploaded.body.Data.url, uploaded.body.Data.sizes[0]!.url]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(String(res.headers['content-type']), url).toMatch(/^image\//);
      expectCommonHeaders(res.headers, 'resource');
      expect(res.headers['content-security-policy'], url).toBe(INERT_CSP);
    }
  });

  it("send a page's scripts and stylesheet with what a resource reads, without a document's headers", async () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(clientDir(), '.vite', 'manifest.json'), 'utf8')) as Record<
      string,
      { file: string; isEntry?: boolean }
    >;
    const chunks = Object.values(manifest);
    for (const file of [chunks.find((c) => c.isEntry)!.file, chunks.find((c) => c.file.endsWith('.css'))!.file]) {
      const res = await get(`/${file}`, { 'accept-encoding': 'br' });
      expect(res.statusCode, file).toBe(200);
      expectCommonHeaders(res.headers, 'resource');
      expect(res.headers['content-security-policy'], file).toBe(INERT_CSP);
    }
  });

  it('give the API browser its own policy, without forcing https', async () => {
    const res = await get('/api/docs');
    expect(res.statusCode).toBe(200);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain('script-src');
    expect(csp).not.toContain('upgrade-insecure-requests');
  });
});

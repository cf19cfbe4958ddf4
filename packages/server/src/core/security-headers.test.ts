import { type AttachmentItem } from '@luntan/shared';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../test/fixture.js';
import { INERT_CSP } from './security-headers.js';

const t = useTestServer();

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

function expectCommonHeaders(headers: Record<string, unknown>) {
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['x-frame-options']).toBe('SAMEORIGIN');
  expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
}

/** The nonce the page's Content-Security-Policy allows. */
function policyNonce(csp: unknown): string {
  const match = /script-src [^;]*'nonce-([^']+)'/.exec(String(csp));
  expect(match, String(csp)).not.toBeNull();
  return match![1]!;
}

function scriptTags(html: string): string[] {
  return (html.match(/<script\b[^>]*>/g) ?? []).filter((tag) => !tag.includes('application/json'));
}

describe('security headers', () => {
  it('give API answers nosniff, no framing, a referrer policy and an inert policy', async () => {
    const res = await get('/api/siteinfo.v2');
    expectCommonHeaders(res.headers);
    expect(res.headers['content-security-policy']).toBe(INERT_CSP);
  });

  it("let a page run only its own scripts and the administrator's, each with the response's nonce", async () => {
    const stat = '<script>window.siteStatRan = true</script><script src="https://stats.example/s.js"></script>';
    expect(
      (await t.post('/api/settings.v2', { data: [{ key: 'siteStat', value: stat, tag: 'default' }] }, t.admin)).Code,
    ).toBe(0);
    const first = await get('/');
    expect(first.statusCode).toBe(200);
    expectCommonHeaders(first.headers);
    const csp = String(first.headers['content-security-policy']);
    expect(csp).toContain("'strict-dynamic'");
    expect(csp).toContain("frame-ancestors 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain('upgrade-insecure-requests');
    const nonce = policyNonce(csp);
    const tags = scriptTags(first.body);
    expect(tags.length).toBeGreaterThanOrEqual(4);
    expect(tags.filter((tag) => !tag.includes(`nonce="${nonce}"`))).toEqual([]);

    // The same page from the guest cache: a new nonce in the header, and the page carries that one.
    const second = await get('/');
    expect(second.headers['x-guest-cache']).toBe('hit');
    const again = policyNonce(second.headers['content-security-policy']);
    expect(again).not.toBe(nonce);
    expect(second.body).not.toContain(nonce);
    expect(scriptTags(second.body).filter((tag) => !tag.includes(`nonce="${again}"`))).toEqual([]);
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
      expectCommonHeaders(res.headers);
      expect(res.headers['content-security-policy'], url).toBe(INERT_CSP);
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

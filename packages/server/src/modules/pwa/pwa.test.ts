import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../../test/fixture.js';
import { setSettings } from '../../test/money-fixtures.js';

describe('the installable app', () => {
  const t = useTestServer();

  it('/manifest.webmanifest names the site, its icons and colours', async () => {
    await setSettings(t.current, t.admin, { siteName: '技术交流社区' });
    const res = await t.app.inject({ url: '/manifest.webmanifest' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/manifest+json');
    const manifest = res.json<{
      name: string;
      short_name: string;
      lang: string;
      start_url: string;
      display: string;
      theme_color: string;
      icons: { src: string; sizes: string; purpose: string }[];
    }>();
    expect(manifest).toMatchObject({
      name: '技术交流社区',
      lang: 'zh-CN',
      start_url: '/',
      display: 'standalone',
      theme_color: '#2563eb',
    });
    expect(manifest.icons.map((i) => [i.sizes, i.purpose])).toEqual([
      ['192x192', 'any'],
      ['512x512', 'any'],
      ['512x512', 'maskable'],
    ]);
    for (const icon of manifest.icons) {
      const png = await t.app.inject({ url: icon.src });
      expect(png.statusCode, icon.src).toBe(200);
      expect(png.headers['content-type']).toBe('image/png');
      const meta = await sharp(png.rawPayload).metadata();
      expect(`${meta.width}x${meta.height}`).toBe(icon.sizes);
    }
    expect((await t.app.inject({ url: '/pwa/icon-256.png' })).statusCode).toBe(404);
  });

  it('makes the icons from the site’s logo, and names new icons when the logo changes', async () => {
    const logo = await sharp({ create: { width: 300, height: 100, channels: 3, background: '#ff0000' } })
      .png()
      .toBuffer();
    await t.app.ctx.files.put('uploads/site/test-logo.png', logo);
    const before = (await t.app.inject({ url: '/manifest.webmanifest' })).json<{ icons: { src: string }[] }>();
    await setSettings(t.current, t.admin, { siteLogo: '/uploads/site/test-logo.png' });
    const after = (await t.app.inject({ url: '/manifest.webmanifest' })).json<{ icons: { src: string }[] }>();
    expect(after.icons[0]!.src).not.toBe(before.icons[0]!.src);
    const png = (await t.app.inject({ url: after.icons[1]!.src })).rawPayload;
    const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    // The middle pixel is the logo's red.
    const middle = (Math.floor(info.height / 2) * info.width + Math.floor(info.width / 2)) * info.channels;
    expect([data[middle], data[middle + 1], data[middle + 2]]).toEqual([255, 0, 0]);
  });

  it('/sw.js is the service worker of this build, never kept stale', async () => {
    const res = await t.app.inject({ url: '/sw.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/javascript');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['service-worker-allowed']).toBe('/');
    // Not the inert policy (its sandbox and default-src 'none' would stop the worker fetching any page).
    expect(res.headers['content-security-policy']).toContain("connect-src 'self'");
    expect(res.headers['content-security-policy']).not.toContain('sandbox');
    expect(res.body).toMatch(/const VERSION = '([0-9a-f]{16}|dev)';/);
    expect(res.body).not.toContain('__VERSION__');
    expect(res.body).toContain("request.mode === 'navigate'");
  });

  it('/offline.html speaks the site’s language, or the visitor’s choice', async () => {
    const zh = await t.app.inject({ url: '/offline.html' });
    expect(zh.statusCode).toBe(200);
    expect(zh.body).toContain('<html lang="zh-CN"');
    expect(zh.body).toContain('网络已断开');
    const en = await t.app.inject({ url: '/offline.html', headers: { cookie: 'locale=en' } });
    expect(en.body).toContain('You are offline');
    expect(en.headers['content-security-policy']).not.toContain('unsafe-eval');
  });
});

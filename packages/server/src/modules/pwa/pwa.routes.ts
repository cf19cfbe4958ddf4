import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveLocale, type Locale } from '@luntan/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { loadSharp } from '../../core/sharp.js';
import { chosenLocale, localize } from '../../core/i18n.js';
import { PAGE_CSP } from '../../core/security-headers.js';
import { readSiteSettings } from '../settings/index.js';
import { SERVICE_WORKER } from './service-worker.js';

/*
 * The installable app (issue 26, part 5): the web app manifest (the site's name, icons made from its logo, its theme
 * colour), the service worker (/sw.js: hashed assets cached, an offline page, pages never from a cache) and that
 * offline page in the site's language. The page's head links the manifest (packages/web/src/server/document.ts) and
 * the client registers the worker (packages/web/src/platform/service-worker.ts).
 */

export const THEME_COLOR = '#2563eb';
const BACKGROUND_COLOR = '#f4f5f7';
const ICON_SIZES = [192, 512] as const;

/** The default icon (the web app's favicon), when the site has no logo of its own on this forum. */
const DEFAULT_ICON = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32" viewBox="0 0 32 32">' +
    '<rect x="0" y="0" width="32" height="32" rx="7" fill="#2563eb"/>' +
    '<path d="M9 9h14a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2h-7l-5 4v-4H9a2 2 0 0 1-2-2v-8a2 2 0 0 1 2-2Z" fill="#fff"/></svg>',
);

const TEXT = {
  // The name the web app's header shows when the site has none of its own.
  forum: { zh: 'Luntan', en: 'Luntan' },
  offlineTitle: { zh: '网络已断开', en: 'You are offline' },
  offlineBody: {
    zh: '暂时连不上网络。请检查网络连接，连上后再试一次。',
    en: 'The network cannot be reached right now. Check your connection and try again.',
  },
  retry: { zh: '重试', en: 'Try again' },
};

/** The web build's client manifest, whose hash names the service worker's version: a deploy changes it. */
function buildId(): string {
  const candidates: string[] = [];
  try {
    const require = createRequire(import.meta.url);
    candidates.push(
      path.join(path.dirname(require.resolve('@luntan/web/package.json')), 'dist/client/.vite/manifest.json'),
    );
  } catch {
    // not installed as a package: the source tree's neighbour
  }
  candidates.push(fileURLToPath(new URL('../../../../web/dist/client/.vite/manifest.json', import.meta.url)));
  for (const file of candidates) {
    try {
      return createHash('sha256').update(fs.readFileSync(file)).digest('hex').slice(0, 16);
    } catch {
      // try the next
    }
  }
  return 'dev';
}

async function siteOf(app: FastifyInstance, request: FastifyRequest) {
  const [settings, gate] = await Promise.all([readSiteSettings(app.ctx.db), app.ctx.siteGate.get()]);
  const locale: Locale = resolveLocale(chosenLocale(request), gate.locale);
  const name = String(settings.siteName || settings.siteTitle || '') || localize(TEXT.forum, locale);
  return { settings, locale, name };
}

/**
 * A service worker runs under the policy its script was served with. The inert policy every non-page answer gets
 * (core/security-headers.ts: default-src 'none' and sandbox) would leave it an opaque origin that may fetch nothing:
 * every page it answers would fail, and it could keep no offline page. It may reach this origin only. A route-level
 * hook, so it runs after the app's onSend that sets the inert policy.
 */
const WORKER_CSP = "default-src 'none'; connect-src 'self'; script-src 'self'; img-src 'self'; frame-ancestors 'none'";

async function workerPolicy(_request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  reply.header('content-security-policy', WORKER_CSP);
  return payload;
}

export async function pwaRoutes(app: FastifyInstance): Promise<void> {
  const { ctx } = app;
  let version: string | null = null;
  /** Icons made, by logo, size and kind (any / maskable): a logo change is a new key. */
  const icons = new Map<string, Buffer>();

  async function icon(logo: string, size: number, maskable: boolean): Promise<Buffer> {
    const key = `${logo} ${size} ${maskable}`;
    const kept = icons.get(key);
    if (kept) return kept;
    let source: Buffer = DEFAULT_ICON;
    if (logo.startsWith('/uploads/')) {
      source = (await ctx.files.read(logo.slice(1)).catch(() => null)) ?? DEFAULT_ICON;
    }
    // A maskable icon keeps its picture inside the middle 80 % (the launcher may cut the rest to a circle).
    const inner = maskable ? Math.round(size * 0.7) : size;
    const sharp = await loadSharp();
    let picture: Buffer;
    try {
      picture = await sharp(source, { density: 300 })
        .resize(inner, inner, { fit: 'contain', background: { r: 255, g: 255, b: 255, alpha: 0 } })
        .png()
        .toBuffer();
    } catch {
      picture = await sharp(DEFAULT_ICON, { density: 300 }).resize(inner, inner).png().toBuffer();
    }
    const made = await sharp({
      create: {
        width: size,
        height: size,
        channels: 4,
        background: maskable ? { r: 255, g: 255, b: 255, alpha: 1 } : { r: 0, g: 0, b: 0, alpha: 0 },
      },
    })
      .composite([{ input: picture, gravity: 'center' }])
      .png()
      .toBuffer();
    if (icons.size > 50) icons.clear();
    icons.set(key, made);
    return made;
  }

  app.get('/manifest.webmanifest', async (request, reply) => {
    const { settings, locale, name } = await siteOf(app, request);
    const logo = String(settings.siteLogo ?? '');
    // The icons' addresses change with the logo, so a browser that kept the old ones asks again.
    const v = createHash('sha256').update(logo).digest('hex').slice(0, 8);
    const manifest = {
      name,
      short_name: [...name].slice(0, 12).join(''),
      description: String(settings.siteIntroduction ?? ''),
      lang: locale === 'zh' ? 'zh-CN' : 'en',
      start_url: '/',
      scope: '/',
      display: 'standalone',
      theme_color: THEME_COLOR,
      background_color: BACKGROUND_COLOR,
      icons: [
        ...ICON_SIZES.map((size) => ({
          src: `/pwa/icon-${size}.png?v=${v}`,
          sizes: `${size}x${size}`,
          type: 'image/png',
          purpose: 'any',
        })),
        { src: `/pwa/icon-512-maskable.png?v=${v}`, sizes: '512x512', type: 'image/png', purpose: 'maskable' },
      ],
    };
    return reply
      .type('application/manifest+json; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(JSON.stringify(manifest));
  });

  app.get<{ Params: { size: string } }>('/pwa/icon-:size(^\\d{3}(-maskable)?).png', async (request, reply) => {
    const [size, kind] = request.params.size.split('-');
    if (!ICON_SIZES.includes(Number(size) as (typeof ICON_SIZES)[number]) || (kind && Number(size) !== 512)) {
      return reply.callNotFound();
    }
    const { settings } = await siteOf(app, request);
    const png = await icon(String(settings.siteLogo ?? ''), Number(size), kind === 'maskable');
    return reply.type('image/png').header('cache-control', 'public, max-age=86400').send(png);
  });

  app.get('/sw.js', { onSend: workerPolicy }, async (_request, reply) => {
    version ??= buildId();
    return reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('service-worker-allowed', '/')
      .send(SERVICE_WORKER.replace('__VERSION__', version));
  });

  app.get('/offline.html', async (request, reply) => {
    const { locale, name } = await siteOf(app, request);
    const esc = (s: string) =>
      s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
    const html =
      `<!doctype html><html lang="${locale === 'zh' ? 'zh-CN' : 'en'}"><head><meta charset="utf-8">` +
      '<meta name="viewport" content="width=device-width, initial-scale=1">' +
      `<meta name="theme-color" content="${THEME_COLOR}">` +
      `<title>${esc(localize(TEXT.offlineTitle, locale))} - ${esc(name)}</title>` +
      '<style>body{margin:0;font-family:system-ui,-apple-system,"PingFang SC","Noto Sans CJK SC",sans-serif;' +
      'background:#f4f5f7;color:#1c2024;display:flex;min-height:100vh;align-items:center;justify-content:center}' +
      'main{max-width:28rem;margin:1rem;padding:2rem;background:#fff;border-radius:12px;text-align:center;' +
      'box-shadow:0 1px 2px rgb(16 24 40/.06)}h1{font-size:1.375rem;margin:0 0 .75rem}p{color:#5b6370;line-height:1.7}' +
      `a{display:inline-block;margin-top:1rem;padding:.5rem 1.25rem;border-radius:8px;background:${THEME_COLOR};` +
      'color:#fff;text-decoration:none}</style></head>' +
      `<body><main data-testid="offline-page"><h1>${esc(localize(TEXT.offlineTitle, locale))}</h1>` +
      `<p>${esc(localize(TEXT.offlineBody, locale))}</p><a href="/">${esc(localize(TEXT.retry, locale))}</a>` +
      `<p><small>${esc(name)}</small></p></main></body></html>`;
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('content-security-policy', PAGE_CSP)
      .header('vary', 'cookie')
      .send(html);
  });
}

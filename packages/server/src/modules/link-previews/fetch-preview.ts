import { createHash } from 'node:crypto';
import type ogs from 'open-graph-scraper';
import { loadSharp } from '../../core/sharp.js';
import { safeFetch, type PrivatePolicy } from '../../core/safe-fetch.js';
import type { FileStore } from '../../core/storage/index.js';

const codePoint = (n: number) => (n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : '');
const decodeEntities = (s: string) =>
  s
    .replace(/&#(\d{1,7});/g, (_, n: string) => codePoint(Number(n)))
    .replace(/&#x([0-9a-f]{1,6});/gi, (_, n: string) => codePoint(parseInt(n, 16)))
    .replace(/&(amp|lt|gt|quot|apos);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" })[e]!);

/** What a page's preview holds, or why there is none. */
export type FetchedPreview =
  { ok: true; title: string; description: string; siteName: string; image: string } | { ok: false; error: string };

/** The rules of every fetch a preview makes (the issue's): 5 s, 1 MB for the page, http(s) only, public addresses. */
export const PAGE_TIMEOUT_MS = 5_000;
const PAGE_MAX_BYTES = 1024 * 1024;
const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
/** A card's image, at most this wide or tall, as WebP. */
const IMAGE_SIZE = 600;
const USER_AGENT = 'Mozilla/5.0 (compatible; LuntanBot/1.0; link previews)';

/** Names of sites whose pages do not name themselves (og:site_name), by host suffix. */
const KNOWN_SITES: [string, string][] = [
  ['bilibili.com', '哔哩哔哩'],
  ['b23.tv', '哔哩哔哩'],
  ['zhihu.com', '知乎'],
  ['mp.weixin.qq.com', '微信公众平台'],
  ['github.com', 'GitHub'],
  ['youtube.com', 'YouTube'],
  ['youtu.be', 'YouTube'],
];

function siteNameOf(url: URL): string {
  const host = url.hostname.toLowerCase();
  return KNOWN_SITES.find(([suffix]) => host === suffix || host.endsWith(`.${suffix}`))?.[1] ?? host;
}

const clip = (s: string | undefined, max: number) => {
  const text = (s ?? '').replace(/\s+/g, ' ').trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
};

/** The page's text: the charset its header names, else its <meta charset>, else UTF-8 (GBK pages are common). */
function decodePage(body: Buffer, contentType: string | undefined): string {
  const named =
    /charset=["']?([\w-]+)/i.exec(contentType ?? '')?.[1] ??
    /<meta[^>]+charset=["']?([\w-]+)/i.exec(body.subarray(0, 4096).toString('latin1'))?.[1];
  try {
    return new TextDecoder(named ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

interface OEmbed {
  title?: string;
  author_name?: string;
  provider_name?: string;
  thumbnail_url?: string;
}

/** The oEmbed fields a card uses, each kept only when it is a string: the site chooses what its JSON holds. */
function oEmbedOf(json: unknown): OEmbed {
  if (typeof json !== 'object' || json === null) return {};
  const fields = json as Record<string, unknown>;
  const text = (key: keyof OEmbed) => {
    const value = fields[key];
    return typeof value === 'string' ? value : undefined;
  };
  return {
    title: text('title'),
    author_name: text('author_name'),
    provider_name: text('provider_name'),
    thumbnail_url: text('thumbnail_url'),
  };
}

/** An error's message, short enough for the row. */
export const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 500);

/** The page's oEmbed data, when it names an endpoint (<link type="application/json+oembed">) that answers. */
async function readOEmbed(html: string, base: URL, allowPrivate: PrivatePolicy): Promise<OEmbed | null> {
  const tag = /<link\b[^>]*type=["']application\/json\+oembed["'][^>]*>/i.exec(html)?.[0];
  const href = tag ? /href=["']([^"']+)["']/i.exec(tag)?.[1] : undefined;
  if (!href) return null;
  try {
    const res = await safeFetch(new URL(href.replace(/&amp;/g, '&'), base).toString(), {
      allowPrivate,
      timeoutMs: PAGE_TIMEOUT_MS,
      maxBytes: 64 * 1024,
      headers: { 'user-agent': USER_AGENT, accept: 'application/json' },
    });
    if (res.status < 200 || res.status >= 300 || res.truncated) return null;
    return oEmbedOf(JSON.parse(res.body.toString('utf8')));
  } catch {
    return null;
  }
}

/** The forum's copy of an image (WebP, at most IMAGE_SIZE), or '' when it cannot be had. */
async function copyImage(
  src: string,
  base: URL,
  pageUrl: string,
  files: FileStore,
  allowPrivate: PrivatePolicy,
): Promise<string> {
  try {
    const url = new URL(src, base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return '';
    const res = await safeFetch(url.toString(), {
      allowPrivate,
      timeoutMs: PAGE_TIMEOUT_MS,
      maxBytes: IMAGE_MAX_BYTES,
      maxRedirects: 5,
      headers: { 'user-agent': USER_AGENT, accept: 'image/*' },
    });
    if (res.status < 200 || res.status >= 300 || res.truncated) return '';
    const sharp = await loadSharp();
    const webp = await sharp(res.body, { limitInputPixels: 40_000_000 })
      .rotate()
      .resize(IMAGE_SIZE, IMAGE_SIZE, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 80 })
      .toBuffer();
    const key = `uploads/previews/${createHash('sha256').update(pageUrl).digest('hex').slice(0, 32)}.webp`;
    await files.put(key, webp, 'image/webp');
    return `/${key}`;
  } catch {
    return '';
  }
}

/**
 * Reads a page's OpenGraph, Twitter card and oEmbed data (open-graph-scraper on the HTML the server fetched itself,
 * through core/safe-fetch.ts: no loopback, private or link-local address, after redirects and DNS too, unless
 * ALLOW_PRIVATE_FETCH=1), and keeps a copy of its image. Never throws: whatever goes wrong is an answer without a card.
 */
export async function fetchPreview(
  rawUrl: string,
  options: { allowPrivate: PrivatePolicy; files: FileStore },
): Promise<FetchedPreview> {
  try {
    return await readPreview(rawUrl, options);
  } catch (error) {
    return { ok: false, error: errorText(error) };
  }
}

async function readPreview(
  rawUrl: string,
  options: { allowPrivate: PrivatePolicy; files: FileStore },
): Promise<FetchedPreview> {
  let res;
  try {
    res = await safeFetch(rawUrl, {
      allowPrivate: options.allowPrivate,
      timeoutMs: PAGE_TIMEOUT_MS,
      maxBytes: PAGE_MAX_BYTES,
      maxRedirects: 5,
      headers: {
        'user-agent': USER_AGENT,
        accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5',
        'accept-language': 'zh-CN,zh;q=0.9,en;q=0.8',
      },
    });
  } catch (error) {
    return { ok: false, error: errorText(error) };
  }
  if (res.status < 200 || res.status >= 300) return { ok: false, error: `HTTP ${res.status}` };
  const type = String(res.headers['content-type'] ?? '');
  if (!/html/i.test(type)) return { ok: false, error: `not a page (${type || 'no content type'})` };
  const html = decodePage(res.body, type);
  const page = new URL(res.url);
  let data: Awaited<ReturnType<typeof ogs>>['result'];
  try {
    // The <title> fallback is ours, after oEmbed's title: a page that needs scripts to set it says only "- YouTube".
    // Loaded with the first card (about 7 MB of heap a process that makes none does not keep).
    const { default: scrape } = await import('open-graph-scraper');
    data = (await scrape({ html, onlyGetOpenGraphInfo: ['title'] })).result;
  } catch {
    return { ok: false, error: 'the page could not be read' };
  }
  const oembed = !data.ogTitle || !data.ogImage?.length ? await readOEmbed(html, page, options.allowPrivate) : null;
  const pageTitle = /<title[^>]*>([^<]*)<\/title>/i.exec(html)?.[1];
  const title = clip(
    data.ogTitle ?? data.twitterTitle ?? oembed?.title ?? data.dcTitle ?? (pageTitle ? decodeEntities(pageTitle) : ''),
    300,
  );
  if (!title) return { ok: false, error: 'the page has no title' };
  const description = clip(
    data.ogDescription ?? data.twitterDescription ?? (oembed?.author_name ? oembed.author_name : ''),
    300,
  );
  const siteName = clip(data.ogSiteName ?? oembed?.provider_name ?? siteNameOf(page), 100);
  const imageSrc = data.ogImage?.[0]?.url ?? data.twitterImage?.[0]?.url ?? oembed?.thumbnail_url;
  const image = imageSrc ? await copyImage(imageSrc, page, rawUrl, options.files, options.allowPrivate) : '';
  return { ok: true, title, description, siteName, image };
}

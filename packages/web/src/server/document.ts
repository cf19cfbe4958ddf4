import { BOOT_STATE_ELEMENT_ID, ROUTER_STATE_ELEMENT_ID } from '../boot-state';

/** The HTML document around the server-rendered app. */
export interface DocumentParts {
  lang: string;
  platform: string;
  /**
   * The page was rendered for the member's groups (modules/web/group-render.ts on the server): `<html
   * data-viewer="pending">` until the browser has read the member's own data (entry-client.tsx sets "member").
   */
  viewerPending?: boolean;
  title: string;
  keywords: string;
  description: string;
  favicon: string;
  /**
   * The site's statistics snippet (trusted administrator HTML, placed as is): the server's Content-Security-Policy
   * allows its inline scripts by their hashes and its external scripts by their origins (core/security-headers.ts).
   */
  siteStat: string;
  /** The page's RSS feeds (`<link rel="alternate" type="application/rss+xml">`). */
  feeds?: { href: string; title: string }[];
  /** OpenGraph properties; empty values are left out. */
  openGraph?: Record<string, string>;
  /**
   * The import map (script-safe JSON) that resolves what plugin modules import (`react`, `react/jsx-runtime`,
   * `@luntan/plugin-sdk`) to the forum's shims; it must come before any module script or preload.
   */
  importMapJson?: string | null;
  appHtml: string;
  bootStateJson: string;
  /** The router's hydration data (script-safe JSON), a data block read by entry-client.tsx. */
  routerStateJson: string;
  stylesheets: readonly string[];
  modulePreloads: readonly string[];
  entryScript: string | null;
}

export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/**
 * The document up to the opening of its body: what is known once the page's data is read (status, title, description,
 * OpenGraph, stylesheets, module preloads), sent before the app is rendered so the browser fetches the styles and
 * scripts meanwhile (the server's modules/web/web.routes.ts). `renderDocumentHead(parts) + renderDocumentRest(parts)` is
 * the whole document, byte for byte.
 */
export function renderDocumentHead(
  parts: Omit<DocumentParts, 'appHtml' | 'bootStateJson' | 'routerStateJson' | 'entryScript' | 'siteStat'>,
): string {
  // No nonce anywhere: the bytes are the same for every visitor of a page (kept once, sent to all). The only inline
  // code is the import map, allowed by its hash; data goes in JSON blocks, which never run; the entry loads from 'self'.
  const head = [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">',
    parts.importMapJson ? `<script type="importmap">${parts.importMapJson}</script>` : '',
    `<title>${escapeHtml(parts.title)}</title>`,
    `<meta name="keywords" content="${escapeHtml(parts.keywords)}">`,
    `<meta name="description" content="${escapeHtml(parts.description)}">`,
    `<link rel="icon" href="${escapeHtml(parts.favicon)}">`,
    // The installable app (the server's modules/pwa): its manifest, the phone's bar colour, the home-screen icon.
    '<link rel="manifest" href="/manifest.webmanifest">',
    '<meta name="theme-color" content="#2563eb">',
    '<link rel="apple-touch-icon" href="/pwa/icon-192.png">',
    ...(parts.feeds ?? []).map(
      (feed) =>
        `<link rel="alternate" type="application/rss+xml" title="${escapeHtml(feed.title)}" href="${escapeHtml(feed.href)}">`,
    ),
    ...Object.entries(parts.openGraph ?? {})
      .filter(([, value]) => value !== '')
      .map(([property, value]) => `<meta property="${escapeHtml(property)}" content="${escapeHtml(value)}">`),
    ...parts.stylesheets.map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`),
    ...parts.modulePreloads.map((href) => `<link rel="modulepreload" href="${escapeHtml(href)}">`),
  ];
  return (
    `<!doctype html><html lang="${escapeHtml(parts.lang)}" data-platform="${escapeHtml(parts.platform)}"` +
    `${parts.viewerPending ? ' data-viewer="pending"' : ''}>` +
    `<head>${head.filter(Boolean).join('')}</head><body>`
  );
}

/**
 * The document after the opening of its body: the rendered app, its data blocks and the entry script, in parts whose
 * concatenation is that text. Never joined here: joined, a page's text is one string of 150 kB and more (two bytes a
 * character once it holds any Chinese), which V8 allocates apart, in its large-object space, at a cost of nearly a
 * millisecond, more than writing the document around the app. The server encodes each part (modules/web/stream-page.ts).
 */
export function renderDocumentRest(
  parts: Pick<DocumentParts, 'appHtml' | 'bootStateJson' | 'routerStateJson' | 'entryScript' | 'siteStat'>,
): string[] {
  return [
    `<div id="root">${parts.appHtml}</div>`,
    `<script type="application/json" id="${BOOT_STATE_ELEMENT_ID}">${parts.bootStateJson}</script>`,
    `<script type="application/json" id="${ROUTER_STATE_ELEMENT_ID}">${parts.routerStateJson}</script>`,
    parts.entryScript ? `<script type="module" src="${escapeHtml(parts.entryScript)}"></script>` : '',
    parts.siteStat ? `<div id="site-stat" class="lt-site-stat">${parts.siteStat}</div>` : '',
    '</body></html>',
  ].filter(Boolean);
}

export function renderDocument(parts: DocumentParts): string {
  return renderDocumentHead(parts) + renderDocumentRest(parts).join('');
}

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
  /** The site's statistics snippet (trusted administrator HTML, placed as is; its scripts get the nonce). */
  siteStat: string;
  /** The Content-Security-Policy nonce of this response: every script we place carries it. */
  nonce: string;
  /** OpenGraph properties; empty values are left out. */
  openGraph?: Record<string, string>;
  /**
   * The import map (script-safe JSON) that resolves what plugin modules import (`react`, `react/jsx-runtime`,
   * `@luntan/plugin-sdk`) to the forum's shims; it must come before any module script or preload.
   */
  importMapJson?: string | null;
  appHtml: string;
  bootStateJson: string;
  routerHydrationScript: string;
  stylesheets: string[];
  modulePreloads: string[];
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

/** The administrator's snippet with the nonce on each of its script tags (their scripts are trusted, not others'). */
function withNonce(html: string, nonce: string): string {
  return html.replace(/<script\b/gi, `<script nonce="${escapeHtml(nonce)}"`);
}

export function renderDocument(parts: DocumentParts): string {
  const nonce = escapeHtml(parts.nonce);
  const head = [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">',
    // Vite's preload helper reads the nonce from here for the links it adds.
    `<meta property="csp-nonce" nonce="${nonce}">`,
    parts.importMapJson ? `<script type="importmap" nonce="${nonce}">${parts.importMapJson}</script>` : '',
    `<title>${escapeHtml(parts.title)}</title>`,
    `<meta name="keywords" content="${escapeHtml(parts.keywords)}">`,
    `<meta name="description" content="${escapeHtml(parts.description)}">`,
    `<link rel="icon" href="${escapeHtml(parts.favicon)}">`,
    ...Object.entries(parts.openGraph ?? {})
      .filter(([, value]) => value !== '')
      .map(([property, value]) => `<meta property="${escapeHtml(property)}" content="${escapeHtml(value)}">`),
    ...parts.stylesheets.map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`),
    ...parts.modulePreloads.map((href) => `<link rel="modulepreload" href="${escapeHtml(href)}" nonce="${nonce}">`),
  ];
  const body = [
    `<div id="root">${parts.appHtml}</div>`,
    `<script type="application/json" id="luntan-state">${parts.bootStateJson}</script>`,
    `<script nonce="${nonce}">${parts.routerHydrationScript}</script>`,
    parts.entryScript ? `<script type="module" src="${escapeHtml(parts.entryScript)}" nonce="${nonce}"></script>` : '',
    parts.siteStat ? `<div id="site-stat" class="lt-site-stat">${withNonce(parts.siteStat, parts.nonce)}</div>` : '',
  ];
  return (
    `<!doctype html><html lang="${escapeHtml(parts.lang)}" data-platform="${escapeHtml(parts.platform)}"` +
    `${parts.viewerPending ? ' data-viewer="pending"' : ''}>` +
    `<head>${head.filter(Boolean).join('')}</head><body>${body.filter(Boolean).join('')}</body></html>`
  );
}

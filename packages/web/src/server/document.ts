/** The HTML document around the server-rendered app. */
export interface DocumentParts {
  lang: string;
  platform: string;
  title: string;
  keywords: string;
  description: string;
  favicon: string;
  /** The site's statistics snippet (trusted administrator HTML, placed as is). */
  siteStat: string;
  /** OpenGraph properties; empty values are left out. */
  openGraph?: Record<string, string>;
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

export function renderDocument(parts: DocumentParts): string {
  const head = [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">',
    `<title>${escapeHtml(parts.title)}</title>`,
    `<meta name="keywords" content="${escapeHtml(parts.keywords)}">`,
    `<meta name="description" content="${escapeHtml(parts.description)}">`,
    `<link rel="icon" href="${escapeHtml(parts.favicon)}">`,
    ...Object.entries(parts.openGraph ?? {})
      .filter(([, value]) => value !== '')
      .map(([property, value]) => `<meta property="${escapeHtml(property)}" content="${escapeHtml(value)}">`),
    ...parts.stylesheets.map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`),
    ...parts.modulePreloads.map((href) => `<link rel="modulepreload" href="${escapeHtml(href)}">`),
  ];
  const body = [
    `<div id="root">${parts.appHtml}</div>`,
    `<script type="application/json" id="luntan-state">${parts.bootStateJson}</script>`,
    `<script>${parts.routerHydrationScript}</script>`,
    parts.entryScript ? `<script type="module" src="${escapeHtml(parts.entryScript)}"></script>` : '',
    parts.siteStat ? `<div id="site-stat" class="lt-site-stat">${parts.siteStat}</div>` : '',
  ];
  return (
    `<!doctype html><html lang="${escapeHtml(parts.lang)}" data-platform="${escapeHtml(parts.platform)}">` +
    `<head>${head.join('')}</head><body>${body.filter(Boolean).join('')}</body></html>`
  );
}

import { createHash } from 'node:crypto';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import { Parser } from 'htmlparser2';

/**
 * The policy of anything that is not one of our pages (API answers, uploads, attachments, scripts and styles):
 * nothing in it may run, load or be framed, even if a browser were talked into showing it as a page.
 */
export const INERT_CSP = "default-src 'none'; frame-ancestors 'none'; sandbox";

/**
 * What a page runs besides the files of the build (packages/web's RenderResult.scripts): the text of each inline script
 * the render placed (the plugin import map) and the site's statistics snippet as placed.
 */
export interface PageScripts {
  inline: readonly string[];
  siteStat: string;
}

/**
 * The Content-Security-Policy of our pages. There is no nonce: a page's bytes are the same for every visitor (kept once,
 * compressed once, sent to all), and so is its policy for a given build and site settings.
 *
 * Scripts: the build's files from 'self' (the module entry, the lazily loaded pages, plugin modules); inline code only
 * by its sha256 hash (the import map, the statistics snippet's inline scripts); the hosts the statistics snippet names
 * (its `<script src>` and the absolute URLs in its inline scripts, e.g. the `https://hm.baidu.com/hm.js` that Baidu
 * Tongji's loader adds). The page's data is in JSON blocks (`<script type="application/json">`), which never run.
 * No 'unsafe-inline', and no 'strict-dynamic': with it a browser ignores 'self' and every host, so the parser-inserted
 * entry module and the `<link rel="modulepreload">` of the page would need a nonce again, and a statistics loader's
 * scripts would run only because a trusted script inserted them, whatever their host. Without it, what the page may
 * run is the build, the hashes and the named hosts; a loader that builds its URL piece by piece (CNZZ's
 * `document.write(unescape(…))`) must be saved as a plain `<script src>` instead.
 * Styles and images may come from anywhere (Markdown images, inline styles of widgets); forms post only here.
 */
function pagePolicy(scriptSources: readonly string[]): string {
  const directives: [string, ...string[]][] = [
    ['default-src', "'self'"],
    ['script-src', "'self'", ...scriptSources],
    ['script-src-attr', "'none'"],
    ['style-src', "'self'", "'unsafe-inline'"],
    ['img-src', "'self'", 'data:', 'blob:', 'https:', 'http:'],
    ['font-src', "'self'", 'data:'],
    // The statistics script of the site settings may report to its own host.
    ['connect-src', "'self'", 'https:'],
    // blob: the editor reads a chosen video's duration and poster frame from an object URL before uploading it.
    ['media-src', "'self'", 'https:', 'blob:'],
    ['object-src', "'none'"],
    ['base-uri', "'self'"],
    ['form-action', "'self'"],
    ['frame-ancestors', "'self'"],
  ];
  return directives.map((values) => values.join(' ')).join('; ');
}

/** The policy of an HTML answer that is not a rendered page (the "web app not built" page): the build's files only. */
export const PAGE_CSP = pagePolicy([]);

/** `'sha256-…'` of an inline script's text, as the browser hashes it (after turning CR LF and CR into LF). */
function scriptHash(text: string): string {
  const normalized = text.replace(/\r\n?/g, '\n');
  return `'sha256-${createHash('sha256').update(normalized, 'utf8').digest('base64')}'`;
}

/**
 * A CSP host source for a script address: `https://host[:port]`, or `host[:port]` for a scheme-relative `//host/…`;
 * null for a same-origin path (covered by 'self') or anything else.
 */
function hostSource(address: string): string | null {
  const trimmed = address.trim();
  const schemeRelative = trimmed.startsWith('//');
  if (!schemeRelative && !/^https?:\/\//i.test(trimmed)) return null;
  let url: URL;
  try {
    url = new URL(schemeRelative ? `https:${trimmed}` : trimmed);
  } catch {
    return null;
  }
  // Only plain host names and ports: nothing that could end the directive or add a keyword.
  if (!/^[a-z0-9.-]+(:\d+)?$/.test(url.host) || !url.hostname.includes('.')) return null;
  return schemeRelative ? url.host : `${url.protocol}//${url.host}`;
}

/** Absolute or scheme-relative addresses written as string literals in a script (`"https://hm.baidu.com/hm.js?…"`). */
const QUOTED_ADDRESS = /["'`]((?:https?:)?\/\/[^"'`\s/?#\\]+)/gi;

/** The script sources a statistics snippet needs: the hashes of its inline scripts and the hosts it names. */
function snippetSources(html: string): string[] {
  const sources: string[] = [];
  let script: { text: string; external: boolean } | null = null;
  const parser = new Parser({
    onopentag(name, attributes) {
      if (name !== 'script') return;
      const src = attributes.src;
      if (src !== undefined) {
        const host = hostSource(src);
        if (host) sources.push(host);
      }
      script = { text: '', external: src !== undefined };
    },
    ontext(text) {
      if (script) script.text += text;
    },
    onclosetag(name) {
      if (name !== 'script' || !script) return;
      if (!script.external && script.text !== '') {
        sources.push(scriptHash(script.text));
        for (const [, address] of script.text.matchAll(QUOTED_ADDRESS)) {
          const host = hostSource(address!);
          if (host) sources.push(host);
        }
      }
      script = null;
    },
  });
  parser.end(html);
  return sources;
}

/** Page policies by what their pages run: the same few values (a build, a snippet) for every request. */
const policies = new Map<string, string>();
const KEPT_POLICIES = 16;

/**
 * The policy of a rendered page, made once per build and statistics snippet (the snippet changes only when the
 * administrator saves it), then read from memory.
 */
export function pageCsp(scripts: PageScripts): string {
  const key = JSON.stringify([scripts.inline, scripts.siteStat]);
  let policy = policies.get(key);
  if (policy === undefined) {
    const sources = [...scripts.inline.map(scriptHash), ...(scripts.siteStat ? snippetSources(scripts.siteStat) : [])];
    policy = pagePolicy([...new Set(sources)]);
    if (policies.size >= KEPT_POLICIES) policies.clear();
    policies.set(key, policy);
  }
  return policy;
}

/**
 * Helmet's headers that only a document (an HTML page in a browsing context) reads: framing, the opener, the agent
 * cluster, DNS prefetching, the legacy XSS filter, Internet Explorer's download prompt, Adobe's cross-domain policy
 * files. On a script, a stylesheet, an image or an API answer they do nothing but weigh about 220 bytes, on every
 * API call and on each of a first page's scripts. What such answers do read stays: nosniff, the resource policy
 * (CORP), the referrer policy (a stylesheet's or module's own fetches), HSTS, and the inert CSP, which also keeps
 * such an answer from being framed.
 */
const DOCUMENT_ONLY_HEADERS = [
  'x-frame-options',
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'x-dns-prefetch-control',
  'x-xss-protection',
  'x-download-options',
  'x-permitted-cross-domain-policies',
];

/**
 * Security headers on every answer (@fastify/helmet): nosniff, frame protection, a referrer policy; and a
 * Content-Security-Policy: a rendered page gets its page policy (modules/web sets it, pageCsp), another HTML answer
 * PAGE_CSP unless its route set its own (the API browser), anything else INERT_CSP.
 */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: false,
    // A site on plain http (a LAN, localhost) must keep working: no forced upgrade; HSTS only says so over https,
    // and never for sibling subdomains the forum does not own.
    strictTransportSecurity: { maxAge: 15_552_000, includeSubDomains: false },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // Our images may be shown by the other sites of the same site (a blog on a sibling subdomain).
    crossOriginResourcePolicy: { policy: 'same-site' },
  });

  app.addHook('onRequest', async (_request, reply) => {
    reply.header('content-security-policy', PAGE_CSP);
  });
  // Whatever is not an HTML page gets the inert policy instead of the page policy, and none of the headers only a
  // document reads.
  app.addHook('onSend', async (_request, reply, payload) => {
    const type = String(reply.getHeader('content-type') ?? '');
    if (!type.startsWith('text/html')) {
      reply.header('content-security-policy', INERT_CSP);
      for (const name of DOCUMENT_ONLY_HEADERS) reply.raw.removeHeader(name);
    }
    return payload;
  });
}

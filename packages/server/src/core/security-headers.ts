import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import helmet from '@fastify/helmet';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** The nonce of a response's scripts, made on first use (by the CSP header or the page render) and kept on it. */
const NONCE = Symbol('luntan.cspNonce');
type WithNonce = ServerResponse & { [NONCE]?: string };

export function cspNonce(reply: FastifyReply): string {
  return nonceOf(reply.raw);
}

/**
 * The policy of anything that is not one of our pages (API answers, uploads, attachments, scripts and styles):
 * nothing in it may run, load or be framed, even if a browser were talked into showing it as a page.
 */
export const INERT_CSP = "default-src 'none'; frame-ancestors 'none'; sandbox";

/**
 * Security headers on every answer (@fastify/helmet): nosniff, frame protection, a referrer policy, and a
 * Content-Security-Policy. Pages run only the scripts that carry the response's nonce ('strict-dynamic' lets those
 * load what they need: the app's lazily loaded pages, the administrator's statistics script and what it loads);
 * styles and images may come from anywhere (Markdown images, inline styles of widgets), forms post only here.
 */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", (_req, res) => `'nonce-${nonceOf(res as ServerResponse)}'`, "'strict-dynamic'"],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:', 'http:'],
        fontSrc: ["'self'", 'data:'],
        // The statistics script of the site settings may report to its own host.
        connectSrc: ["'self'", 'https:'],
        // blob: the editor reads a chosen video's duration and poster frame from an object URL before uploading it.
        mediaSrc: ["'self'", 'https:', 'blob:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'self'"],
      },
    },
    // A site on plain http (a LAN, localhost) must keep working: no forced upgrade; HSTS only says so over https,
    // and never for sibling subdomains the forum does not own.
    strictTransportSecurity: { maxAge: 15_552_000, includeSubDomains: false },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // Our images may be shown by the other sites of the same site (a blog on a sibling subdomain).
    crossOriginResourcePolicy: { policy: 'same-site' },
  });

  // Whatever is not an HTML page gets the inert policy instead of the page policy.
  app.addHook('onSend', async (_request, reply, payload) => {
    const type = String(reply.getHeader('content-type') ?? '');
    if (!type.startsWith('text/html')) reply.header('content-security-policy', INERT_CSP);
    return payload;
  });
}

function nonceOf(res: ServerResponse): string {
  const carrier = res as WithNonce;
  carrier[NONCE] ??= randomBytes(16).toString('base64');
  return carrier[NONCE];
}

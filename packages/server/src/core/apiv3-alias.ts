import type { IncomingMessage } from 'node:http';

/** `/apiv3`, followed by the end, a `/` or a `?`. */
const APIV3 = /^\/apiv3(?=$|[/?])/;

/**
 * The family's backend answers every `/api/v3/x` at `/apiv3/x` too, and its web client calls some paths so
 * (`/apiv3/upgrade.group`). Fastify's `rewriteUrl` (before routing) maps that spelling onto `/api/v3/`, so that
 * there is one route table: the hooks, which read `request.routeOptions.url`, the guest cache (keyed by the
 * rewritten `request.url`), the rate limits and the OpenAPI document see one route, whichever spelling was called.
 * The spelling the client used stays in `request.originalUrl`.
 */
export function rewriteApiv3(request: IncomingMessage): string {
  const url = request.url ?? '/';
  return APIV3.test(url) ? url.replace(APIV3, '/api/v3') : url;
}

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
  return familySpelling(request.url ?? '/');
}

/** `/plugin/<name>/api/`: where the family mounted a plugin's routes (its plugin/<Name>/Routes/Api.php). */
const FAMILY_PLUGIN = /^\/plugin\/([A-Za-z0-9_.-]+)\/api\//;

/**
 * The one route table's spelling of a path the family's client calls: `/apiv3/x` is `/api/v3/x`, and a plugin's
 * `/plugin/<appid>/api/x` is `/api/plugin/<appid>/x`, where this site's plugins answer (so the /api hooks and the
 * envelope hold for them too). Other paths are left alone.
 */
export function familySpelling(url: string): string {
  if (APIV3.test(url)) return url.replace(APIV3, '/api/v3');
  return FAMILY_PLUGIN.test(url) ? url.replace(FAMILY_PLUGIN, '/api/plugin/$1/') : url;
}

import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { loginRequired } from '../../access/guards.js';
import { requireUser } from '../../access/viewer.js';

/** How often an idle stream says it is alive (proxies close connections silent for a minute or so). */
const KEEPALIVE_MS = 25_000;

/**
 * GET /api/v3/live: the signed-in page's event stream (server-sent events). Each event names what changed
 * (`notification`, `dialogMessage`, `dialogRead`, `unread`) and the page reads it again through the API; the
 * stream ends when the session logs out. Other processes' events arrive through the signal bus (core/signals.ts).
 */
export async function liveRoutes(app: FastifyInstance): Promise<void> {
  const { live } = app.ctx;
  const open = new Set<ServerResponse>();
  // Open streams would keep the server from closing.
  app.addHook('preClose', async () => {
    for (const res of open) res.end();
  });

  app.get(
    '/v3/live',
    {
      onRequest: loginRequired,
      schema: {
        tags: ['dialogs'],
        summary: 'Server-sent events for the signed-in member: notification, dialogMessage, dialogRead, unread',
        description:
          'text/event-stream; each event is `event: <kind>` with a JSON `data` line. Keep-alive comments every 25 s. ' +
          'The stream ends when this session logs out. Across app processes through Redis, PostgreSQL LISTEN/NOTIFY or the cluster IPC channel.',
      },
    },
    async (request, reply) => {
      const me = requireUser(request.viewer);
      const tokenId = request.viewer.tokenId;
      reply.hijack();
      const res = reply.raw;
      const headers = Object.fromEntries(
        Object.entries(reply.getHeaders()).filter(([, v]) => v !== undefined),
      ) as Record<string, string>;
      res.writeHead(200, {
        ...headers,
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
        connection: 'keep-alive',
      });
      res.write('retry: 3000\n: connected\n\n');
      open.add(res);
      const unsubscribe = live.subscribe(me.id, (event) => {
        res.write(`event: ${event.kind}\ndata: ${JSON.stringify(event)}\n\n`);
        if (event.kind === 'logout' && event.tokenId === tokenId) res.end();
      });
      const keepalive = setInterval(() => res.write(': keepalive\n\n'), KEEPALIVE_MS);
      res.on('close', () => {
        clearInterval(keepalive);
        unsubscribe();
        open.delete(res);
      });
    },
  );
}

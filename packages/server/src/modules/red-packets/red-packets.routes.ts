import { checkRedPacketQuery } from '@luntan/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '../../core/envelope.js';
import { loginRequired } from '../../access/guards.js';
import { checkUserRedPacket } from './red-packets.service.js';

/** Red packets (part 106): whether the viewer got one (the family's check.user.get.redpacket). */
export async function redPacketsRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/v3/check.user.get.redpacket',
    {
      onRequest: loginRequired,
      schema: {
        tags: ['threads'],
        summary: "Whether I got a packet of the thread's red packet, how much and when",
        querystring: checkRedPacketQuery,
      },
    },
    async (request) => ok(request, await checkUserRedPacket(app.ctx, request.viewer, request.query.threadId)),
  );
}

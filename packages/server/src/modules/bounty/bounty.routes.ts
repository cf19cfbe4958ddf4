import { bountyAwardBody } from '@luntan/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '../../core/envelope.js';
import { loginRequired } from '../../access/guards.js';
import { awardBounty } from './bounty.service.js';

/** Bounty questions (part 107): awarding a reply (docs/thread-parts.md, "Bounty questions"). */
export async function bountyRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    '/v3/posts.reward',
    {
      onRequest: loginRequired,
      schema: {
        tags: ['threads'],
        summary: "Award part of a thread's bounty (悬赏) to a reply: only the thread's author, with the pay password",
        description:
          'rewards: the amount (at most what is left). -4004 no bounty; -4002 not the author; -4001 ended, too much, ' +
          'not a reply of this thread or your own; -10000 a wrong pay password (Data.triesLeft); -4029 locked. ' +
          'Answers the bounty after the award.',
        body: bountyAwardBody,
      },
    },
    async (request) => ok(request, await awardBounty(app.ctx, request.viewer, request.body)),
  );
}

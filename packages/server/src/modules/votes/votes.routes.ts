import { voteThreadBody } from '@luntan/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '../../core/envelope.js';
import { loginRequired } from '../../access/guards.js';
import { castVote } from './votes.service.js';

export async function votesRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;

  api.post(
    '/v3/vote.thread',
    {
      onRequest: loginRequired,
      schema: {
        tags: ['threads'],
        summary: "Vote in a thread's vote (part 109); answers the part as the voter now sees it",
        description:
          "Body { threadId, vote: { id, subitemIds } } (the family's) or { threadId, voteId, subitemIds }. A signed-in " +
          'member who may read the thread votes once: one option of a single-choice vote (choiceType 1), one or more ' +
          'of a multiple-choice one (2), before expiredAt. -4001 when already voted (also for the second of two ' +
          'ballots sent at once), after the end, or for options the vote does not hold; -4004 without such a vote.',
        body: voteThreadBody,
      },
    },
    async (request) => ok(request, await castVote(ctx, request.viewer, request.body)),
  );
}

import { ThreadPart, VoteChoice, type ThreadPartView, type VotePart, type VoteThreadBody } from '@luntan/shared';
import type { AppContext } from '../../context.js';
import { requireUser, type ViewerContext } from '../../access/viewer.js';
import { AppError, invalidField, notFoundField } from '../../core/errors.js';
import { isUniqueViolation } from '../../db/errors.js';
import { now } from '../../core/time.js';
import { msg } from '../../i18n/index.js';
import { assertCanReadThread, findThread, isPublished } from '../threads/index.js';
import { findVote, insertBallot, optionsOf } from './votes.repository.js';
import { presentVote } from './votes.part.js';
import { Code } from '@luntan/shared';

const alreadyVoted = () => new AppError(Code.INVALID_PARAMETER, msg('votes.alreadyVoted'));

/**
 * A member's ballot (POST /api/v3/vote.thread): a signed-in member who may read the thread (the right to reply is
 * not needed: voting is not writing) votes once, before the end, for one option of a single-choice vote or one or
 * more of a multiple-choice one. Refusals are the family's -4001 (already voted, ended, wrong options) and -4004 (no
 * such thread or vote). Answers the vote part as the voter now sees it, results included.
 */
export async function castVote(
  ctx: AppContext,
  viewer: ViewerContext,
  body: VoteThreadBody,
): Promise<Record<string, ThreadPartView<VotePart[]>>> {
  const user = requireUser(viewer);
  const thread = await findThread(ctx.db, body.threadId);
  assertCanReadThread(viewer, thread);
  if (!isPublished(thread)) throw new AppError(Code.INVALID_PARAMETER, msg('votes.notPublished'));
  const vote = await findVote(ctx.db, body.vote.id);
  if (!vote || vote.threadId !== thread.id) throw notFoundField('vote.id', msg('votes.notFound'));
  const at = now();
  if (Date.parse(vote.expiredAt) <= Date.parse(at)) throw new AppError(Code.INVALID_PARAMETER, msg('votes.ended'));
  const chosen = body.vote.subitemIds;
  if (vote.choiceType === VoteChoice.SINGLE && chosen.length !== 1) {
    throw invalidField('vote.subitemIds', msg('votes.singleChoice'));
  }
  const options = new Set((await optionsOf(ctx.db, vote.id)).map((o) => o.id));
  if (!chosen.every((id) => options.has(id))) throw invalidField('vote.subitemIds', msg('votes.noSuchOption'));
  try {
    await ctx.db.transaction().execute(async (trx) => {
      const voted = await trx
        .selectFrom('threadVoteUsers')
        .select('id')
        .where('threadVoteId', '=', vote.id)
        .where('userId', '=', user.id)
        .executeTakeFirst();
      if (voted) throw alreadyVoted();
      await insertBallot(trx, { voteId: vote.id, threadId: thread.id, userId: user.id, optionIds: chosen, at });
    });
  } catch (err) {
    // Two ballots at once: the unique index lets the first in and breaks the second.
    if (isUniqueViolation(err)) throw alreadyVoted();
    throw err;
  }
  const after = (await findVote(ctx.db, vote.id))!;
  const body109 = await presentVote(ctx.db, viewer, { userId: thread.userId, isDraft: thread.isDraft === 1 }, after);
  return {
    [String(ThreadPart.VOTE)]: {
      tomId: String(ThreadPart.VOTE),
      operation: 'select',
      threadId: thread.id,
      body: [body109],
    },
  };
}

import {
  BOUNTY_MAX_DURATION_MS,
  BOUNTY_MIN_DURATION_MS,
  BountyType,
  Code,
  formatMoney,
  ThreadPart,
  WalletChangeType,
  type BountyPart,
  type BountyPartBody,
} from '@luntan/shared';
import type { Kysely } from 'kysely';
import type { AppContext } from '../../context.js';
import { AppError, forbidden, invalidField } from '../../core/errors.js';
import type { DB } from '../../db/schema.js';
import { msg } from '../../i18n/index.js';
import { findThread } from '../threads/index.js';
import type { PartWrite, ThreadPartHandler } from '../thread-parts/index.js';
import { findBounty, insertBounty, takeBackBounty } from './bounty.repository.js';
import { ledgerText, moveBountyMoney, presentBounty } from './bounty.service.js';

/** What thread_parts.value keeps of a bounty: its offer (the state is in thread_bounties). */
interface BountyValue {
  amountCents: number;
  type: number;
}

const FIELD = 'content.indexes.107.body';

/**
 * Posts a bounty: only on a thread being written for the first time or still a draft (as the family), only from the
 * author's own wallet, the deadline 24 hours to 30 days ahead. The offer is frozen in the author's wallet in the
 * thread's transaction (too little money: the whole write is refused, nothing stored), and the deadline's timer set.
 */
async function postBounty(ctx: AppContext, trx: Kysely<DB>, write: PartWrite, body: BountyPartBody) {
  const thread = await findThread(trx, write.thread.id);
  if (!thread) throw new Error('the thread of a part must exist');
  if (write.viewer.user?.id !== thread.userId) throw forbidden(msg('bounty.notAuthor'));
  if (!write.thread.isDraft && thread.createdAt !== write.at) {
    throw invalidField('content.indexes.107', msg('bounty.onlyNewThread'));
  }
  const ahead = Date.parse(body.expiredAt) - Date.parse(write.at);
  if (ahead < BOUNTY_MIN_DURATION_MS) throw invalidField(`${FIELD}.expiredAt`, msg('bounty.tooSoon'));
  if (ahead > BOUNTY_MAX_DURATION_MS) throw invalidField(`${FIELD}.expiredAt`, msg('bounty.tooLate'));
  try {
    await moveBountyMoney(
      trx,
      {
        userId: thread.userId,
        available: -body.price,
        frozen: body.price,
        type: WalletChangeType.BOUNTY_FREEZE,
        desc: await ledgerText(trx, 'bounty.ledgerFreeze', thread.title),
      },
      true,
    );
  } catch (error) {
    if (error instanceof AppError && (error.options.data as { reason?: string })?.reason === 'balance') {
      throw new AppError(Code.PAYMENT_FAILED, msg('bounty.notEnoughMoney', { amount: formatMoney(body.price) }), {
        data: { field: `${FIELD}.price`, reason: 'balance' },
      });
    }
    throw error;
  }
  const type = body.type ?? BountyType.EVERYONE;
  await insertBounty(trx, {
    threadId: thread.id,
    userId: thread.userId,
    type,
    amountCents: body.price,
    expiresAt: body.expiredAt,
    at: write.at,
  });
  await ctx.events.emit(
    trx,
    'bounty.expiry_due',
    { threadId: thread.id, userId: thread.userId },
    { dueAt: body.expiredAt },
  );
  return { amountCents: body.price, type };
}

/** Takes a draft's bounty back: its offer returns to the author's available money. */
async function withdrawBounty(trx: Kysely<DB>, write: PartWrite): Promise<void> {
  const bounty = await findBounty(trx, write.thread.id);
  if (!bounty) return;
  const cannotRemove = () => invalidField('content.indexes.107', msg('bounty.cannotRemove'));
  if (!write.thread.isDraft) throw cannotRemove();
  // Removed only as it is untouched, in the statement itself: its deadline may have settled it since it was read.
  const offer = await takeBackBounty(trx, write.thread.id);
  if (offer === null) throw cannotRemove();
  const thread = await findThread(trx, write.thread.id);
  await moveBountyMoney(trx, {
    userId: bounty.userId,
    available: offer,
    frozen: -offer,
    type: WalletChangeType.BOUNTY_REFUND,
    desc: await ledgerText(trx, 'bounty.ledgerRefund', thread?.title ?? ''),
  });
}

/**
 * A bounty question (part 107). Once posted it cannot be changed or removed (the family: 已发布的悬赏不可修改):
 * sending the same offer again keeps it as it is; a draft's bounty may still be changed or taken back, which
 * unfreezes its offer. A bounty's timer is due at its deadline (bounty.service.ts, expireBounty).
 */
export function bountyPart(ctx: AppContext): ThreadPartHandler<typeof ThreadPart.REWARD, BountyValue> {
  return {
    type: ThreadPart.REWARD,
    create: (trx, write, body) => postBounty(ctx, trx, write, body),
    async update(trx, write, body, previous) {
      if (body.price === previous.amountCents && (body.type ?? BountyType.EVERYONE) === previous.type) {
        return previous;
      }
      if (!write.thread.isDraft) throw invalidField('content.indexes.107', msg('bounty.cannotChange'));
      await withdrawBounty(trx, write);
      return postBounty(ctx, trx, write, body);
    },
    remove: (trx, write) => withdrawBounty(trx, write),
    async present(db, read): Promise<BountyPart | null> {
      const bounty = await findBounty(db, read.thread.id);
      return bounty ? presentBounty(db, bounty) : null;
    },
  };
}

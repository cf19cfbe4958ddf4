import {
  Code,
  formatMoney,
  WalletChangeType,
  type BountyAwardBody,
  type BountyPart,
  type WalletChangeTypeValue,
} from '@luntan/shared';
import type { Kysely, Transaction } from 'kysely';
import type { AppContext } from '../../context.js';
import { AppError, forbidden, invalidField, notFound } from '../../core/errors.js';
import { now } from '../../core/time.js';
import type { DB } from '../../db/schema.js';
import { requireUser, type ViewerContext } from '../../access/viewer.js';
import { msg, type MessageKey } from '../../i18n/index.js';
import { readSiteSettings } from '../settings/index.js';
import { findPost, findThread } from '../threads/index.js';
import { applyChange, checkPayPassword } from '../wallet/index.js';
import {
  findBounty,
  insertAward,
  listAwards,
  settleBounty,
  takeFromBounty,
  type BountyRow,
} from './bounty.repository.js';

/*
 * Bounty questions (悬赏, part 107): awarding replies (posts.reward) and what happens at the deadline. The money
 * moves only through the wallet's ledger, in one transaction with the bounty's own change (docs/thread-parts.md).
 */

/** The bounty's subscriber on the event bus (it keys its delivery rows: never rename it). */
export const BOUNTY_SUBSCRIBER = 'bounty';

/** A ledger row's text, in the site's language at the time (as the orders' rows). */
export async function ledgerText(
  db: Kysely<DB>,
  key: Extract<MessageKey, `bounty.ledger${string}`>,
  title: string,
): Promise<string> {
  const locale = String((await readSiteSettings(db)).siteLocale ?? 'zh');
  const text = msg(key, { title: title || '#' });
  return locale === 'en' ? text.en : text.zh;
}

/**
 * Moves money in or out of a wallet for a bounty (one ledger row). `trx` is a transaction: the award's and the
 * timer's own, or the thread's write (parts are handed it as a Kysely).
 */
export async function moveBountyMoney(
  trx: Kysely<DB>,
  change: { userId: number; available: number; frozen: number; type: WalletChangeTypeValue; desc: string },
  requireActive = false,
): Promise<void> {
  await applyChange(trx as Transaction<DB>, { ...change, requireActive });
}

/** The bounty as a viewer sees it (thread.detail's part 107, posts.reward's answer). */
export async function presentBounty(db: Kysely<DB>, bounty: BountyRow): Promise<BountyPart> {
  const awards = await listAwards(db, bounty.threadId);
  const amount = formatMoney(bounty.amountCents);
  const remaining = formatMoney(bounty.remainingCents);
  return {
    type: bounty.type,
    amount,
    price: amount,
    remaining,
    remainMoney: remaining,
    expiredAt: bounty.expiresAt,
    isExpired: bounty.settledAt !== null || bounty.expiresAt <= now(),
    awards: awards.map((a) => ({
      postId: a.postId,
      userId: a.userId,
      nickname: a.nickname || a.username,
      amount: formatMoney(a.amountCents),
      createdAt: a.createdAt,
    })),
  };
}

const notEnoughLeft = (bounty: BountyRow) =>
  invalidField('rewards', msg('bounty.notEnoughLeft', { remaining: formatMoney(bounty.remainingCents) }));

/**
 * POST /api/v3/posts.reward: the thread's author gives part of what is left of the bounty to a reply by someone
 * else. Checked first (who, which reply, how much, the pay password, as every payment from a wallet), then in one
 * transaction: what is left shrinks only if enough is (so concurrent awards cannot overspend), the author's frozen
 * money goes down and the answerer's available money up, with a ledger row on each side.
 */
export async function awardBounty(ctx: AppContext, viewer: ViewerContext, body: BountyAwardBody): Promise<BountyPart> {
  const user = requireUser(viewer);
  const thread = await findThread(ctx.db, body.threadId);
  const bounty = thread && thread.deletedAt === null ? await findBounty(ctx.db, thread.id) : undefined;
  if (!thread || !bounty) throw notFound(msg('bounty.notFound'));
  if (bounty.userId !== user.id) throw forbidden(msg('bounty.onlyAuthor'));
  if (bounty.settledAt !== null || bounty.expiresAt <= now())
    throw new AppError(Code.INVALID_PARAMETER, msg('bounty.over'));
  if (bounty.remainingCents < body.rewards) throw notEnoughLeft(bounty);
  const post = await findPost(ctx.db, body.postId);
  if (
    !post ||
    post.threadId !== thread.id ||
    post.isFirst === 1 ||
    post.isComment === 1 ||
    post.isApproved !== 1 ||
    post.deletedAt !== null
  ) {
    throw invalidField('postId', msg('bounty.replyNotFound'));
  }
  if (post.userId === user.id) throw invalidField('postId', msg('bounty.ownReply'));
  await checkPayPassword(ctx.db, user.id, body.payPassword);

  await ctx.db.transaction().execute(async (trx) => {
    const at = now();
    if (!(await takeFromBounty(trx, thread.id, body.rewards, at))) {
      const current = (await findBounty(trx, thread.id))!;
      if (current.settledAt !== null || current.expiresAt <= at) {
        throw new AppError(Code.INVALID_PARAMETER, msg('bounty.over'));
      }
      throw notEnoughLeft(current);
    }
    await moveBountyMoney(trx, {
      userId: user.id,
      available: 0,
      frozen: -body.rewards,
      type: WalletChangeType.BOUNTY_EXPENSE,
      desc: await ledgerText(trx, 'bounty.ledgerExpense', thread.title),
    });
    await moveBountyMoney(trx, {
      userId: post.userId,
      available: body.rewards,
      frozen: 0,
      type: WalletChangeType.BOUNTY_INCOME,
      desc: await ledgerText(trx, 'bounty.ledgerIncome', thread.title),
    });
    await insertAward(trx, {
      threadId: thread.id,
      postId: post.id,
      userId: post.userId,
      amountCents: body.rewards,
      at,
    });
    await ctx.events.emit(trx, 'bounty.awarded', {
      threadId: thread.id,
      postId: post.id,
      userId: user.id,
      answererId: post.userId,
      amountCents: body.rewards,
    });
  });
  return presentBounty(ctx.db, (await findBounty(ctx.db, thread.id))!);
}

/**
 * At the deadline (the bounty.expiry_due timer), what is left goes back to the author's available money, as the
 * family's `reward:expire` does for bounties open to everyone: once, however many processes or retries run it
 * (a conditional update on the unsettled bounty holding what was read). Answers the cents returned, or null when
 * there was nothing to do (settled already, removed, not due yet).
 */
export async function expireBounty(ctx: AppContext, threadId: number): Promise<number | null> {
  return ctx.db.transaction().execute(async (trx) => {
    const at = now();
    const bounty = await findBounty(trx, threadId);
    if (!bounty || bounty.settledAt !== null) return null;
    if (bounty.expiresAt > at) throw new Error('bounty not due yet');
    // Another transaction changed it between the read and here (an award in its last second): the event is retried.
    if (!(await settleBounty(trx, threadId, bounty.remainingCents, at))) throw new Error('bounty changed meanwhile');
    if (bounty.remainingCents > 0) {
      const thread = await findThread(trx, threadId);
      await moveBountyMoney(trx, {
        userId: bounty.userId,
        available: bounty.remainingCents,
        frozen: -bounty.remainingCents,
        type: WalletChangeType.BOUNTY_REFUND,
        desc: await ledgerText(trx, 'bounty.ledgerRefund', thread?.title ?? ''),
      });
    }
    await ctx.events.emit(trx, 'bounty.expired', {
      threadId,
      userId: bounty.userId,
      refundCents: bounty.remainingCents,
    });
    return bounty.remainingCents;
  });
}

/** A bounty's timer (bounty.expiry_due, due at its deadline) returns what is left to its author. */
export function subscribeBountyExpiry(ctx: AppContext): void {
  // What it returns shows on the event's thread (core/page-cache.ts).
  ctx.events.subscribe(
    BOUNTY_SUBSCRIBER,
    ['bounty.expiry_due'],
    async (event) => {
      await expireBounty(ctx, event.payload.threadId);
    },
    { reach: 'event' },
  );
}

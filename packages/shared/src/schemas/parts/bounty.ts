import { z } from 'zod';
import { labeled } from '../field-labels.js';
import { moneyField } from '../money-field.js';
import { bodyId } from '../categories.js';
import { problem } from '../../validation-messages.js';

/*
 * A bounty question (part 107, thread.insertReward: the family's 悬赏, its `thread_rewards`). Not the tipping of a
 * thread (打赏, order type 2), which keeps its own name "reward"; ours says "bounty". docs/thread-parts.md.
 */

/** The least a bounty may offer, as the family: 0.10. */
export const BOUNTY_MIN_CENTS = 10;
/** The most a bounty may offer, as the family: 1,000,000.00. */
export const BOUNTY_MAX_CENTS = 100_000_000;
/** A bounty's deadline is at least this far ahead when it is posted (the family: 24 hours) … */
export const BOUNTY_MIN_DURATION_MS = 24 * 60 * 60 * 1000;
/** … and at most this far (30 days, the longest the family's client offers). */
export const BOUNTY_MAX_DURATION_MS = 30 * 24 * 60 * 60 * 1000;

/** Who may answer: 0 everyone (the only kind the family offers; its 1, one named member, was never used). */
export const BountyType = { EVERYONE: 0 } as const;

const deadline = z
  .string()
  .trim()
  .max(40)
  .refine(
    (s) => /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(s) && Number.isFinite(Date.parse(s.replace(' ', 'T'))),
    problem({ kind: 'badFormat', format: 'datetime' }),
  )
  .transform((s) => new Date(Date.parse(s.replace(' ', 'T'))).toISOString());

/** Part 107's body in a request (content.indexes["107"].body). */
export const bountyPartBody = z.object({
  /** What the author offers for answers ("50.00"): frozen in the author's wallet when the thread is posted. */
  price: labeled(moneyField(BOUNTY_MIN_CENTS, BOUNTY_MAX_CENTS), { zh: '悬赏金额', en: 'Bounty amount' }),
  /** When the bounty ends (ISO time): 24 hours to 30 days ahead. What is left then goes back to the author. */
  expiredAt: labeled(deadline, { zh: '悬赏截止时间', en: 'Bounty deadline' }),
  type: labeled(
    z
      .number()
      .int()
      .refine(
        (n) => n === BountyType.EVERYONE,
        problem({ kind: 'sentence', zh: '悬赏只能是所有人可回答', en: 'A bounty is open to everyone' }),
      ),
    { zh: '悬赏类型', en: 'Bounty type' },
  ).optional(),
});
export type BountyPartBody = z.infer<typeof bountyPartBody>;

/** One award of a bounty: which reply, whose, how much. */
export interface BountyAward {
  postId: number;
  userId: number;
  nickname: string;
  amount: string;
  createdAt: string;
}

/** Part 107 as thread.detail answers it. */
export interface BountyPart {
  type: number;
  /** What was offered ("50.00"); `price` too, as the family's clients read it. */
  amount: string;
  price: string;
  /** What is left to award ("20.00"); `remainMoney` too, the family's name. */
  remaining: string;
  remainMoney: string;
  expiredAt: string;
  isExpired: boolean;
  /** The awards so far, oldest first. */
  awards: BountyAward[];
}

/** POST /api/v3/posts.reward: the thread's author awards part of the bounty to a reply (the family's shape). */
export const bountyAwardBody = z.object({
  threadId: labeled(bodyId, { zh: '帖子', en: 'Thread' }),
  postId: labeled(bodyId, { zh: '回复', en: 'Reply' }),
  rewards: labeled(moneyField(1), { zh: '采纳金额', en: 'Award amount' }),
  /** The author's pay password: money leaves the author's wallet for another member's. */
  payPassword: labeled(z.string().max(20), { zh: '支付密码', en: 'Pay password' }).optional(),
});
export type BountyAwardBody = z.infer<typeof bountyAwardBody>;

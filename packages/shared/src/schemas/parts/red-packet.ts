import { z } from 'zod';
import { labeled } from '../field-labels.js';
import { moneyField } from '../money-field.js';
import { problem } from '../../validation-messages.js';
import { partLine } from './common.js';
import type { OrderInfo } from '../wallet.js';

/** How a red packet's money is split (the family's `rule`): 0 equal amounts, 1 random amounts. */
export const RedPacketRule = { EQUAL: 0, RANDOM: 1 } as const;
/** What a member does to get a packet (the family's `condition`): 0 reply, 1 collect likes on the reply. */
export const RedPacketCondition = { REPLY: 0, LIKES: 1 } as const;
/**
 * The family's `status`: 1 still handed out, 0 expired (the rest went back to the author) or all taken; ours, 2: made
 * to be paid through a provider and not paid yet (its thread stays a draft until its order of type 9 is paid).
 */
export const RedPacketStatus = { EXPIRED: 0, VALID: 1, PENDING: 2 } as const;

/** How the author pays a red packet: from the wallet when the part is made, or through one of the site's providers. */
export const RED_PACKET_PAYMENTS = ['wallet', 'provider'] as const;
export type RedPacketPayment = (typeof RED_PACKET_PAYMENTS)[number];

/** The most packets one red packet holds, each packet's most (equal rule) and the random total's most. */
export const RED_PACKET_NUMBER_MAX = 100;
export const RED_PACKET_PRICE_MAX_CENTS = 20_000;
export const RED_PACKET_LIKES_MAX = 250;
export const RED_PACKET_PASSWORD_MAX = 50;
/** Unclaimed packets go back to the author this long after the red packet was made (the family's 24 hours). */
export const RED_PACKET_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * A red packet (part 106, thread.insertRedPacket), in the family's shape (`thread_red_packets`). `price` is each
 * packet's amount under the equal rule and the whole amount under the random rule, as the family has it. The author
 * pays it from the wallet when the part is created (the pay password confirms it), or, with `payment: 'provider'`,
 * through an order of type 9 that publishes the thread when it is paid; once paid it cannot be changed.
 */
export const redPacketPartBody = z
  .object({
    rule: labeled(z.union([z.literal(0), z.literal(1)]), { zh: '发放规则', en: 'Split' }),
    condition: labeled(z.union([z.literal(0), z.literal(1)]), { zh: '领取条件', en: 'Condition' }),
    /** Under the likes condition: the likes a reply needs. */
    likenum: labeled(z.number().int().min(1).max(RED_PACKET_LIKES_MAX), {
      zh: '集赞数',
      en: 'Likes needed',
    }).optional(),
    number: labeled(z.number().int().min(1).max(RED_PACKET_NUMBER_MAX), { zh: '红包个数', en: 'Number of packets' }),
    price: labeled(moneyField(1, RED_PACKET_PRICE_MAX_CENTS), { zh: '红包金额', en: 'Amount' }),
    /** The password text (口令) a reply must hold; empty: none. */
    content: labeled(partLine(RED_PACKET_PASSWORD_MAX, 0), { zh: '红包口令', en: 'Password text' }).optional(),
    /** The wallet's pay password, checked before the money leaves the wallet (never stored). */
    payPassword: labeled(z.string().max(32), { zh: '支付密码', en: 'Pay password' }).optional(),
    /** How it is paid: 'wallet' (the default) or 'provider' (an order of type 9; the thread waits as a draft). */
    payment: labeled(z.enum(RED_PACKET_PAYMENTS), { zh: '支付方式', en: 'Payment' }).optional(),
  })
  .superRefine((body, ctx) => {
    if (body.condition === RedPacketCondition.LIKES && body.likenum === undefined) {
      ctx.addIssue({ code: 'custom', path: ['likenum'], ...problem({ kind: 'required' }) });
    }
    if (body.rule === RedPacketRule.RANDOM && body.price < body.number) {
      ctx.addIssue({
        code: 'custom',
        path: ['price'],
        ...problem({
          kind: 'sentence',
          zh: '红包金额不够分：每个红包至少 0.01 元',
          en: 'The amount is too small to split: each packet needs at least 0.01',
        }),
      });
    }
  });
export type RedPacketPartBody = z.infer<typeof redPacketPartBody>;

/** One packet a member got. */
export interface RedPacketReceiver {
  userId: number;
  nickname: string;
  avatar: string;
  amount: string;
  receivedAt: string;
}

/** Part 106 as thread.detail answers it. */
export interface RedPacketPart {
  id: number;
  rule: number;
  condition: number;
  likenum: number;
  number: number;
  /** Each packet's amount (equal rule) or the whole amount (random rule), as given. */
  price: string;
  /** The whole amount. */
  money: string;
  remainMoney: string;
  remainNumber: number;
  /** 1 still handed out, 0 not any more (all taken or expired). */
  status: number;
  isDone: boolean;
  isExpired: boolean;
  expiredAt: string;
  /** The password text a reply must hold ("" when none). */
  content: string;
  /** The viewer's own packet, if any. */
  mine: { amount: string; receivedAt: string } | null;
  /** Waiting for its order (type 9) to be paid through a provider: nothing is handed out yet. */
  unpaid: boolean;
  /** To its author, while unpaid: the order to pay (trade/pay/order), null when there is none any more. */
  order: OrderInfo | null;
  /** Who got what, first first. */
  receivers: RedPacketReceiver[];
}

/** GET /api/v3/check.user.get.redpacket */
export const checkRedPacketQuery = z.object({
  threadId: labeled(z.coerce.number().int().positive(), { zh: '帖子', en: 'Thread' }),
});

/** Whether the viewer got a packet of the thread (the family's shape). */
export interface CheckRedPacketResult {
  status: boolean;
  amount: string;
  getRedPacketTime: string;
  /** The first time the viewer asks since getting it (to show a greeting once). */
  afterGetRedPacketFirstEnter: boolean;
}

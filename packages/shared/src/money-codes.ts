/*
 * The money codes (orders, payments, withdrawals, the ledger) and the pay password's form, plain values without a
 * schema: pages that show money import these, and importing them from the schema modules would load zod and every
 * schema with them (schemas/wallet.ts imports them from here).
 */

/** Order status: 0 pending, 1 paid, 2 cancelled, 3 failed, 4 expired, 10 refunded. */
export const OrderStatus = { PENDING: 0, PAID: 1, CANCELLED: 2, FAILED: 3, EXPIRED: 4, REFUNDED: 10 } as const;
export type OrderStatusValue = (typeof OrderStatus)[keyof typeof OrderStatus];

/** How an order is paid: 10 WeChat native QR, 11 WeChat H5, 20 wallet, 30 Alipay desktop, 31 Alipay mobile, 90 sandbox. */
export const PayType = {
  WXPAY_NATIVE: 10,
  WXPAY_H5: 11,
  WALLET: 20,
  ALIPAY_PAGE: 30,
  ALIPAY_WAP: 31,
  SANDBOX: 90,
} as const;
export type PayTypeValue = (typeof PayType)[keyof typeof PayType];
export const PAY_TYPES: readonly PayTypeValue[] = Object.values(PayType);

/** A wallet: 0 normal, 1 frozen (an administrator froze it: it can neither pay nor withdraw; it can still receive). */
export const WalletStatus = { NORMAL: 0, FROZEN: 1 } as const;

/** Withdrawal status: 1 pending review, 2 approved (being paid out), 3 rejected, 5 paid, 6 payout failed. */
export const CashStatus = { PENDING: 1, APPROVED: 2, REJECTED: 3, PAID: 5, PAYOUT_FAILED: 6 } as const;
export type CashStatusValue = (typeof CashStatus)[keyof typeof CashStatus];

/**
 * Ledger change types (every row of the ledger has one). Ours, documented in docs/money.md:
 * 10-19 withdrawals, 30-39 money in, 40-69 money out.
 */
export const WalletChangeType = {
  CASH_FREEZE: 10,
  CASH_PAID: 11,
  CASH_THAW: 12,
  ADMIN_ADD: 30,
  RECHARGE: 31,
  REWARD_INCOME: 32,
  THREAD_INCOME: 33,
  /** A provider's payment that could not buy what it was for (bought or paid already): returned to the wallet. */
  PAYMENT_RETURNED: 34,
  REWARD_EXPENSE: 41,
  THREAD_EXPENSE: 42,
  GROUP_EXPENSE: 43,
  REGISTER_EXPENSE: 44,
  ADMIN_SUBTRACT: 50,
  /** Red packets, numbered as the family numbers them: the author's money frozen for the packets. */
  RED_PACKET_FREEZE: 150,
  /** A packet a member got. */
  RED_PACKET_INCOME: 151,
  /** The unclaimed rest back to the author (unfrozen). */
  RED_PACKET_REFUND: 152,
  /** A packet taken from the author's frozen money. */
  RED_PACKET_EXPENSE: 153,
  /**
   * Ours (the family kept such money outside the wallet): a red packet's money paid through a provider (order type 9),
   * credited to the author's frozen money, from which its packets are then taken (153) and its rest returned (152).
   */
  RED_PACKET_PAID: 155,
  /** A bounty question (悬赏), in the family's numbers: the offer frozen in the author's wallet … */
  BOUNTY_FREEZE: 160,
  /** … an award received by the answerer … */
  BOUNTY_INCOME: 161,
  /** … what was left at the deadline, back to the author (frozen to available) … */
  BOUNTY_REFUND: 162,
  /** … and an award leaving the author's frozen money. */
  BOUNTY_EXPENSE: 164,
  /**
   * Imported from Discuz! Q: an inviter's share of a member's joining fee (the family's 30 and 34, numbers that mean
   * something else here).
   */
  REGISTER_SHARE_INCOME: 39,
  /**
   * Imported from Discuz! Q: one per wallet whose old ledger did not add up to its balance, dated before its first
   * entry, making up the difference (available and frozen), so every wallet sums to its ledger. Above the family's
   * numbers (the last is 180), so never read as one of theirs.
   */
  OPENING_BALANCE: 190,
} as const;
export type WalletChangeTypeValue = (typeof WalletChangeType)[keyof typeof WalletChangeType];

/** A pay password: exactly six digits (payPasswordSchema checks the same). */
export const PAY_PASSWORD_PATTERN = /^\d{6}$/;

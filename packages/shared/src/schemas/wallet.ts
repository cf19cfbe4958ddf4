import { z } from 'zod';
import { moneyField } from './money-field.js';
import { problem } from '../validation-messages.js';
import { bodyId, queryId } from './categories.js';
import { CONTROL_CHARS, noControlChars, paginationQuery } from './common.js';
import { labeled } from './field-labels.js';
import { mobileSchema, smsCodeSchema } from './sms.js';
import { ORDER_TYPES } from '../list-codes.js';
import { PAY_PASSWORD_PATTERN, PAY_TYPES } from '../money-codes.js';

/*
 * Money: wallets, the ledger, orders, payments, withdrawals and finance statistics, in the family's names and
 * numbers (shared/spec/api-routes.md). Amounts travel as strings with two decimals ("12.50"); requests may send a
 * string or a number, which the schemas parse to integer cents.
 */

/** An unpaid order expires this long after it was made. */
export const ORDER_EXPIRY_MS = 10 * 60 * 1000;

/** A pay password: exactly six digits. */
export const payPasswordSchema = labeled(
  z
    .string()
    .regex(
      PAY_PASSWORD_PATTERN,
      problem({ kind: 'sentence', zh: '支付密码需要是 6 位数字', en: 'The pay password must be six digits' }),
    ),
  { zh: '支付密码', en: 'Pay password' },
);

const amount = (min = 1) => labeled(moneyField(min), { zh: '金额', en: 'Amount' });

// --- Wallet ----------------------------------------------------------------------------------------------------------

/** GET /api/v3/wallet/user */
export interface WalletInfo {
  userId: number;
  availableAmount: string;
  freezeAmount: string;
  walletStatus: number;
  /** Whether a pay password is set (paying from the wallet needs it). */
  hasPayPassword: boolean;
  /** Until when paying from the wallet is locked after five wrong pay passwords (ISO time), or null. */
  payLockedUntil: string | null;
  /** The site's withdrawal rules, for the form. */
  cash: { minAmount: string; maxAmount: string; dailyCount: number; feeRate: string };
}

/** GET /api/v3/wallet/log */
export const walletLogQuery = paginationQuery.extend({
  filter: z
    .object({
      /** One change type or several separated by commas. */
      changeType: z
        .string()
        .regex(/^\d{1,3}(,\d{1,3})*$/, problem({ kind: 'idList' }))
        .optional(),
      startTime: z.string().max(40).optional(),
      endTime: z.string().max(40).optional(),
    })
    .default({}),
});
export type WalletLogQuery = z.infer<typeof walletLogQuery>;

export interface WalletLogItem {
  id: number;
  changeAvailableAmount: string;
  changeFreezeAmount: string;
  /** The balances after this change. */
  availableAmount: string;
  freezeAmount: string;
  changeType: number;
  changeDesc: string;
  orderSn: string | null;
  cashSn: string | null;
  createdAt: string;
}

/** POST /api/v3/users/pay-password/reset: the login password confirms it. */
export const payPasswordResetBody = z.object({
  password: z.string().min(1).max(100),
  payPassword: payPasswordSchema,
});

/**
 * POST /api/v3/users/sms.reset.pay.pwd (the family's call): a reset_pay_pwd code sent to the member's own number
 * sets a new pay password, typed twice.
 */
export const smsResetPayPasswordBody = z
  .object({
    mobile: mobileSchema,
    code: smsCodeSchema,
    payPassword: payPasswordSchema,
    payPasswordConfirmation: labeled(z.string(), { zh: '确认支付密码', en: 'Pay password again' }),
  })
  .refine((b) => b.payPassword === b.payPasswordConfirmation, {
    path: ['payPasswordConfirmation'],
    ...problem({ kind: 'sentence', zh: '两次输入的支付密码不一致', en: 'The two pay passwords do not match' }),
  });
export type SmsResetPayPasswordBody = z.infer<typeof smsResetPayPasswordBody>;

// --- Orders and paying -----------------------------------------------------------------------------------------------

/** POST /api/v3/order.create */
export const orderCreateBody = z.object({
  type: labeled(
    z
      .number()
      .int()
      .refine((v) => (ORDER_TYPES as number[]).includes(v), problem({ kind: 'notOneOf', values: [...ORDER_TYPES] })),
    { zh: '订单类型', en: 'Order type' },
  ),
  /** Recharge and reward: the amount (a reward may send it as rewardAmount, as the family did). */
  amount: amount().optional(),
  rewardAmount: amount().optional(),
  threadId: bodyId.optional(),
  groupId: bodyId.optional(),
  payeeId: bodyId.optional(),
  isAnonymous: z.union([z.boolean(), z.literal(0), z.literal(1)]).optional(),
});
export type OrderCreateBody = z.infer<typeof orderCreateBody>;

/** An order as its payer (or an administrator) sees it. */
export interface OrderInfo {
  id: number;
  orderSn: string;
  type: number;
  status: number;
  amount: string;
  /** The payee's and the site's shares (paid threads and rewards). */
  authorAmount: string;
  masterAmount: string;
  userId: number;
  payeeId: number | null;
  threadId: number | null;
  groupId: number | null;
  /** What the order is for, in words: a thread's title, a group's name. */
  title: string;
  paymentType: number | null;
  isAnonymous: boolean;
  createdAt: string;
  paidAt: string | null;
  expiresAt: string;
}

/** GET /api/v3/order.detail */
export const orderDetailQuery = z.object({ orderSn: z.string().min(1).max(40) });

/** GET /api/v3/order.list (ours): my orders. */
export const orderListQuery = paginationQuery.extend({
  filter: z
    .object({
      type: z.coerce.number().int().optional(),
      status: z.coerce.number().int().optional(),
    })
    .default({}),
});

/** POST /api/v3/trade/pay/order */
export const tradePayBody = z.object({
  orderSn: labeled(z.string().min(1).max(40), { zh: '订单号', en: 'Order number' }),
  paymentType: labeled(
    z
      .number()
      .int()
      .refine((v) => (PAY_TYPES as number[]).includes(v), problem({ kind: 'notOneOf', values: [...PAY_TYPES] })),
    { zh: '支付方式', en: 'Payment method' },
  ),
  payPassword: z.string().max(20).optional(),
  /** Where the browser returns after a provider's page: a path on this site (default: the thread, or /wallet). */
  returnPath: z.string().max(500).optional(),
});

/** What trade/pay/order answers: paid at once (wallet), or where to go on (a URL) or what to show (a QR code's text). */
export interface TradePayResult {
  orderSn: string;
  status: number;
  paymentType: number;
  /** Open this address (the provider's page, the sandbox checkout). */
  payUrl?: string;
  /** Show this text as a QR code (WeChat native). */
  qrCode?: string;
}

/** GET /api/v3/pay/methods (ours): the payment types the site takes now, for the pay dialog. */
export const payMethodsQuery = z.object({ platform: z.enum(['pc', 'h5']).default('pc') });
export interface PayMethods {
  wallet: boolean;
  /** The provider payment types on this platform and their enabled state. */
  types: number[];
  recharge: { minAmount: string; maxAmount: string };
}

/** The sandbox checkout page's decision: POST /api/v3/pay/sandbox/complete (signed by the forum itself). */
export const sandboxCompleteBody = z.object({
  orderSn: z.string().min(1).max(40),
  outcome: z.enum(['paid', 'failed']),
});

// --- Withdrawals -----------------------------------------------------------------------------------------------------

/** POST /api/v3/wallet/cash */
export const cashCreateBody = z.object({
  cashApplyAmount: labeled(moneyField(1), { zh: '提现金额', en: 'Withdrawal amount' }),
  receiveAccount: labeled(z.string().trim().min(1).max(100).refine(noControlChars, CONTROL_CHARS), {
    zh: '收款账号',
    en: 'Receiving account',
  }),
  /** Money leaving the site needs the pay password, as paying from the wallet does. */
  payPassword: z.string().max(20).optional(),
});

export interface CashItem {
  id: number;
  cashSn: string;
  userId: number;
  username?: string;
  cashApplyAmount: string;
  /** The fee the site keeps. */
  cashCharge: string;
  /** What is paid out: the applied amount (the fee is frozen on top of it). */
  cashActualAmount: string;
  receiveAccount: string;
  cashStatus: number;
  remark: string;
  createdAt: string;
  updatedAt: string;
}

/** GET /api/v3/wallet/cash */
export const cashListQuery = paginationQuery.extend({
  filter: z.object({ cashStatus: z.coerce.number().int().optional() }).default({}),
});

// --- Administrators --------------------------------------------------------------------------------------------------

/** POST /api/backAdmin/wallet.cash.review: 2 approve, 3 reject; 5 marks an approved one paid by hand. */
export const cashReviewBody = z.object({
  ids: z.array(bodyId).min(1).max(100),
  cashStatus: labeled(
    z
      .number()
      .int()
      .refine((v) => v === 2 || v === 3 || v === 5, problem({ kind: 'notOneOf', values: [2, 3, 5] })),
    { zh: '审核结果', en: 'Review result' },
  ),
  remark: z.string().trim().max(200).refine(noControlChars, CONTROL_CHARS).default(''),
});

/** POST /api/backAdmin/users/wallet.update */
export const walletUpdateBody = z.object({
  userId: bodyId,
  operateType: labeled(
    z
      .number()
      .int()
      .refine((v) => v === 1 || v === 2, problem({ kind: 'notOneOf', values: [1, 2] })),
    { zh: '操作类型', en: 'Operation' },
  ).optional(),
  operateAmount: labeled(moneyField(1), { zh: '金额', en: 'Amount' }).optional(),
  operateReason: labeled(z.string().trim().max(200).refine(noControlChars, CONTROL_CHARS), {
    zh: '原因',
    en: 'Reason',
  }).default(''),
  /** 0 normal, 1 frozen. */
  walletStatus: z.union([z.literal(0), z.literal(1)]).optional(),
});

/** users.wallet.logs / users.order.logs / users.cash.logs: every user's, with filters. */
export const adminMoneyLogQuery = paginationQuery.extend({
  filter: z
    .object({
      userId: queryId.optional(),
      username: z.string().max(50).optional(),
      type: z.coerce.number().int().optional(),
      status: z.coerce.number().int().optional(),
      startTime: z.string().max(40).optional(),
      endTime: z.string().max(40).optional(),
    })
    .default({}),
});

/** What wallet.cash.review answers: each id either succeeded or failed with why (a stable key and a sentence). */
export interface CashReviewResult {
  succeeded: number[];
  failed: {
    id: number;
    /** notFound, status (not in a state this decision applies to), balance, payout (the provider refused or failed). */
    reason: 'notFound' | 'status' | 'balance' | 'payout';
    message: string;
  }[];
}

/** Who a row of the administrators' money lists belongs to. */
export interface MoneyLogUser {
  userId: number;
  username: string;
  nickname: string;
}

/** users.wallet.logs */
export interface AdminWalletLogItem extends WalletLogItem, MoneyLogUser {
  operatorId: number | null;
}

/** users.order.logs */
export interface AdminOrderItem extends OrderInfo, MoneyLogUser {
  tradeNo: string | null;
}

/** users.cash.logs */
export interface AdminCashItem extends Omit<CashItem, 'username'>, MoneyLogUser {
  reviewerId: number | null;
  reviewedAt: string | null;
  tradeNo: string | null;
}

/** GET /api/statistic/finance.v2 */
export interface FinanceStats {
  totalIncome: string;
  totalWithdrawal: string;
  totalWallet: string;
  totalProfit: string;
  withdrawalProfit: string;
  orderRoyalty: string;
  totalRegisterProfit: string;
  /** Paid orders (the family counted every order made; an abandoned pay dialog is not a sale). */
  orderCount: number;
}

/** GET /api/statistic/financeChart.v2: type 1 by day, 2 by week, 3 by month; default the last 60 days. */
export const financeChartQuery = z.object({
  createdAtBegin: z.string().max(40).optional(),
  createdAtEnd: z.string().max(40).optional(),
  type: z.coerce.number().int().min(1).max(3).default(1),
});

export interface FinanceChartPoint {
  /** The day (2026-11-22), the week's Monday, or the month (2026-11). */
  date: string;
  totalIncome: string;
  totalWithdrawal: string;
  withdrawalProfit: string;
  orderRoyalty: string;
  totalRegisterProfit: string;
  totalProfit: string;
  orderCount: number;
}

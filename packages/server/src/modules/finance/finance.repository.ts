import { CashStatus, OrderStatus, OrderType } from '@luntan/shared';
import { sql, type Kysely, type RawBuilder, type SqlBool, type Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';

/**
 * All SQL of the administrators' money pages: the three lists, the wallet's status, and the finance sums. Sums of
 * bigint columns come back as text from PostgreSQL (numeric): every one goes through Number().
 */

type Db = Kysely<DB> | Transaction<DB>;

/** The filters the three lists share; times are ISO bounds already checked by the service. */
export interface MoneyListFilter {
  userId?: number | undefined;
  /** Lower-cased: a username that starts with it (the whole name included). */
  usernamePrefix?: string | undefined;
  type?: number | undefined;
  status?: number | undefined;
  from?: string | undefined;
  /** Exclusive when `toExclusive`, else inclusive. */
  to?: string | undefined;
  toExclusive?: boolean;
}

const prefixPattern = (part: string) => `${part.replace(/[\\%_]/g, '\\$&')}%`;

/** The shared conditions, on the list's own table `alias` (joined with users as `u`). */
function conditions(
  alias: string,
  f: MoneyListFilter,
  typeColumn?: string,
  statusColumn?: string,
): RawBuilder<SqlBool>[] {
  const col = (name: string) => sql.ref(`${alias}.${name}`);
  const out: RawBuilder<SqlBool>[] = [];
  if (f.userId !== undefined) out.push(sql<SqlBool>`${col('userId')} = ${f.userId}`);
  if (f.usernamePrefix) {
    out.push(sql<SqlBool>`${sql.ref('u.usernameNormalized')} like ${prefixPattern(f.usernamePrefix)} escape '\\'`);
  }
  if (f.type !== undefined && typeColumn) out.push(sql<SqlBool>`${col(typeColumn)} = ${f.type}`);
  if (f.status !== undefined && statusColumn) out.push(sql<SqlBool>`${col(statusColumn)} = ${f.status}`);
  if (f.from) out.push(sql<SqlBool>`${col('createdAt')} >= ${f.from}`);
  if (f.to) {
    out.push(
      f.toExclusive ? sql<SqlBool>`${col('createdAt')} < ${f.to}` : sql<SqlBool>`${col('createdAt')} <= ${f.to}`,
    );
  }
  return out;
}

export interface Paging {
  limit: number;
  offset: number;
}

// --- users.wallet.logs -------------------------------------------------------------------------------------------------

export async function countWalletLogs(db: Db, f: MoneyListFilter): Promise<number> {
  let q = db
    .selectFrom('walletLogs as l')
    .innerJoin('users as u', 'u.id', 'l.userId')
    .select((eb) => eb.fn.countAll<number>().as('n'));
  for (const c of conditions('l', f, 'changeType')) q = q.where(c);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

export async function listWalletLogs(db: Db, f: MoneyListFilter, page: Paging) {
  let q = db
    .selectFrom('walletLogs as l')
    .innerJoin('users as u', 'u.id', 'l.userId')
    .leftJoin('orders as o', 'o.id', 'l.orderId')
    .leftJoin('walletCash as c', 'c.id', 'l.cashId')
    .select([
      'l.id',
      'l.userId',
      'u.username',
      'u.nickname',
      'l.changeAvailableCents',
      'l.changeFrozenCents',
      'l.availableAfterCents',
      'l.frozenAfterCents',
      'l.changeType',
      'l.changeDesc',
      'l.operatorId',
      'o.orderSn',
      'c.cashSn',
      'l.createdAt',
    ]);
  for (const c of conditions('l', f, 'changeType')) q = q.where(c);
  return q.orderBy('l.id', 'desc').limit(page.limit).offset(page.offset).execute();
}

// --- users.order.logs --------------------------------------------------------------------------------------------------

export async function countOrders(db: Db, f: MoneyListFilter): Promise<number> {
  let q = db
    .selectFrom('orders as o')
    .innerJoin('users as u', 'u.id', 'o.userId')
    .select((eb) => eb.fn.countAll<number>().as('n'));
  for (const c of conditions('o', f, 'type', 'status')) q = q.where(c);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

export async function listOrders(db: Db, f: MoneyListFilter, page: Paging) {
  let q = db
    .selectFrom('orders as o')
    .innerJoin('users as u', 'u.id', 'o.userId')
    .leftJoin('threads as t', 't.id', 'o.threadId')
    .leftJoin('groups as g', 'g.id', 'o.groupId')
    .selectAll('o')
    .select(['u.username', 'u.nickname', 't.title as threadTitle', 'g.name as groupName']);
  for (const c of conditions('o', f, 'type', 'status')) q = q.where(c);
  return q.orderBy('o.id', 'desc').limit(page.limit).offset(page.offset).execute();
}

// --- users.cash.logs ---------------------------------------------------------------------------------------------------

export async function countWithdrawals(db: Db, f: MoneyListFilter): Promise<number> {
  let q = db
    .selectFrom('walletCash as c')
    .innerJoin('users as u', 'u.id', 'c.userId')
    .select((eb) => eb.fn.countAll<number>().as('n'));
  for (const c of conditions('c', f, undefined, 'status')) q = q.where(c);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

export async function listWithdrawals(db: Db, f: MoneyListFilter, page: Paging) {
  let q = db
    .selectFrom('walletCash as c')
    .innerJoin('users as u', 'u.id', 'c.userId')
    .selectAll('c')
    .select(['u.username', 'u.nickname']);
  for (const c of conditions('c', f, undefined, 'status')) q = q.where(c);
  return q.orderBy('c.id', 'desc').limit(page.limit).offset(page.offset).execute();
}

// --- Wallets -----------------------------------------------------------------------------------------------------------

export async function userExists(db: Db, userId: number): Promise<boolean> {
  return (await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst()) !== undefined;
}

export async function setWalletStatus(trx: Transaction<DB>, userId: number, status: number, at: string): Promise<void> {
  await trx.updateTable('wallets').set({ status, updatedAt: at }).where('userId', '=', userId).execute();
}

// --- Finance sums ------------------------------------------------------------------------------------------------------

const cents = (value: unknown) => Number(value ?? 0);

/** Whole-site sums in cents (see FinanceStats for what each means). */
export async function financeTotals(db: Kysely<DB>) {
  const paid = OrderStatus.PAID;
  const [orders, cash, wallets] = await Promise.all([
    db
      .selectFrom('orders')
      .select([
        sql<string>`coalesce(sum(case when status = ${paid} then amount_cents else 0 end), 0)`.as('income'),
        sql<string>`coalesce(sum(case when status = ${paid} then master_amount_cents else 0 end), 0)`.as('royalty'),
        sql<string>`coalesce(sum(case when status = ${paid} and type = ${OrderType.REGISTER} then amount_cents else 0 end), 0)`.as(
          'register',
        ),
        // Orders that were paid: an abandoned pay dialog is not an order of the site's.
        sql<string>`coalesce(sum(case when status = ${paid} then 1 else 0 end), 0)`.as('orderCount'),
      ])
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('walletCash')
      .select([
        sql<string>`coalesce(sum(apply_cents), 0)`.as('withdrawn'),
        sql<string>`coalesce(sum(charge_cents), 0)`.as('fees'),
      ])
      .where('status', '=', CashStatus.PAID)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('wallets')
      .select(sql<string>`coalesce(sum(available_cents + frozen_cents), 0)`.as('held'))
      .executeTakeFirstOrThrow(),
  ]);
  return {
    incomeCents: cents(orders.income),
    royaltyCents: cents(orders.royalty),
    registerCents: cents(orders.register),
    orderCount: cents(orders.orderCount),
    withdrawnCents: cents(cash.withdrawn),
    feeCents: cents(cash.fees),
    walletCents: cents(wallets.held),
  };
}

/** One UTC day's figures of the chart (days without any are absent). */
export interface DayFigures {
  day: string;
  incomeCents: number;
  royaltyCents: number;
  registerCents: number;
  orderCount: number;
  withdrawnCents: number;
  feeCents: number;
}

/**
 * The chart's figures per UTC day between `from` (inclusive) and `to` (exclusive), ISO times: paid orders (their sums
 * and their number) by the day they were paid, paid-out withdrawals by the day they were paid out.
 * Times are ISO text on both databases, so the day is its first ten characters.
 */
export async function financeByDay(db: Kysely<DB>, from: string, to: string): Promise<DayFigures[]> {
  const paid = OrderStatus.PAID;
  const [paidOrders, withdrawals] = await Promise.all([
    db
      .selectFrom('orders')
      .select([
        sql<string>`substr(paid_at, 1, 10)`.as('day'),
        sql<string>`sum(amount_cents)`.as('income'),
        sql<string>`sum(master_amount_cents)`.as('royalty'),
        sql<string>`sum(case when type = ${OrderType.REGISTER} then amount_cents else 0 end)`.as('register'),
        sql<string>`count(*)`.as('n'),
      ])
      .where('status', '=', paid)
      .where('paidAt', '>=', from)
      .where('paidAt', '<', to)
      .groupBy(sql`substr(paid_at, 1, 10)`)
      .execute(),
    db
      .selectFrom('walletCash')
      .select([
        sql<string>`substr(reviewed_at, 1, 10)`.as('day'),
        sql<string>`sum(apply_cents)`.as('withdrawn'),
        sql<string>`sum(charge_cents)`.as('fees'),
      ])
      .where('status', '=', CashStatus.PAID)
      .where('reviewedAt', '>=', from)
      .where('reviewedAt', '<', to)
      .groupBy(sql`substr(reviewed_at, 1, 10)`)
      .execute(),
  ]);
  const days = new Map<string, DayFigures>();
  const dayOf = (day: string) => {
    let figures = days.get(day);
    if (!figures) {
      figures = {
        day,
        incomeCents: 0,
        royaltyCents: 0,
        registerCents: 0,
        orderCount: 0,
        withdrawnCents: 0,
        feeCents: 0,
      };
      days.set(day, figures);
    }
    return figures;
  };
  for (const r of paidOrders) {
    const d = dayOf(r.day);
    d.incomeCents += cents(r.income);
    d.royaltyCents += cents(r.royalty);
    d.registerCents += cents(r.register);
    d.orderCount += cents(r.n);
  }
  for (const r of withdrawals) {
    const d = dayOf(r.day);
    d.withdrawnCents += cents(r.withdrawn);
    d.feeCents += cents(r.fees);
  }
  return [...days.values()];
}

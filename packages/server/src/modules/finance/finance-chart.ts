import { formatMoney, type FinanceChartPoint } from '@luntan/shared';
import { invalidField } from '../../core/errors.js';
import type { DayFigures } from './finance.repository.js';
import { msg } from '../../i18n/index.js';

/*
 * The finance chart's calendar, pure (no database): which UTC days a query covers, and how days fold into the
 * points of the chart (a day, the week from its Monday, or a month). Every point of the range is present, with
 * zeros where nothing happened.
 */

export const CHART_DEFAULT_DAYS = 60;
export const CHART_MAX_YEARS = 3;

const DAY_MS = 86_400_000;
const dayText = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const dayMs = (day: string) => Date.parse(`${day}T00:00:00.000Z`);

/** "2026-11-01" or an ISO time ("2026-11-01T08:00:00Z") to its UTC day; null when it is neither. */
export function utcDayOf(value: string): string | null {
  const text = value.trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) {
    const ms = dayMs(text);
    return Number.isNaN(ms) || dayText(ms) !== text ? null : text;
  }
  if (!/^\d{4}-\d{2}-\d{2}T/.test(text)) return null;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : dayText(ms);
}

export interface ChartRange {
  /** First and last UTC day, both included. */
  begin: string;
  end: string;
}

const badDate = (field: string) =>
  invalidField(field, field === 'createdAtBegin' ? msg('finance.startDateFormat') : msg('finance.endDateFormat'));

/** The days the chart covers: by default the last 60 (today included); end ≥ begin, at most three years. */
export function chartRange(
  q: { createdAtBegin?: string | undefined; createdAtEnd?: string | undefined },
  today: string,
): ChartRange {
  const end = q.createdAtEnd ? utcDayOf(q.createdAtEnd) : today;
  if (end === null) throw badDate('createdAtEnd');
  const begin = q.createdAtBegin ? utcDayOf(q.createdAtBegin) : dayText(dayMs(end) - (CHART_DEFAULT_DAYS - 1) * DAY_MS);
  if (begin === null) throw badDate('createdAtBegin');
  if (end < begin) {
    throw invalidField('createdAtEnd', msg('finance.endDateCannotBefore'));
  }
  const earliest = new Date(dayMs(end));
  earliest.setUTCFullYear(earliest.getUTCFullYear() - CHART_MAX_YEARS);
  if (dayMs(begin) < earliest.getTime()) {
    throw invalidField('createdAtBegin', msg('finance.rangeSpanMostYears', { chartMaxYears: CHART_MAX_YEARS }));
  }
  return { begin, end };
}

/** The ISO bounds of a range for SQL: from the first day's midnight to (excluded) the midnight after the last. */
export function rangeBounds(range: ChartRange): { from: string; to: string } {
  return {
    from: new Date(dayMs(range.begin)).toISOString(),
    to: new Date(dayMs(range.end) + DAY_MS).toISOString(),
  };
}

export type ChartGrouping = 1 | 2 | 3;

/** The Monday (UTC) of the week a day falls in. */
export function mondayOf(day: string): string {
  const ms = dayMs(day);
  const weekday = (new Date(ms).getUTCDay() + 6) % 7; // Monday 0 ... Sunday 6
  return dayText(ms - weekday * DAY_MS);
}

/** The point a day belongs to: the day, its week's Monday, or its month (2026-11). */
export function pointKey(day: string, grouping: ChartGrouping): string {
  if (grouping === 2) return mondayOf(day);
  if (grouping === 3) return day.slice(0, 7);
  return day;
}

/** Every point key of a range, in order. */
export function pointKeys(range: ChartRange, grouping: ChartGrouping): string[] {
  const keys: string[] = [];
  for (let ms = dayMs(range.begin); ms <= dayMs(range.end); ms += DAY_MS) {
    const key = pointKey(dayText(ms), grouping);
    if (keys[keys.length - 1] !== key) keys.push(key);
  }
  return keys;
}

/** Folds the days' figures into the chart's points, every point of the range present. */
export function chartPoints(
  range: ChartRange,
  grouping: ChartGrouping,
  days: readonly DayFigures[],
): FinanceChartPoint[] {
  const sums = new Map(
    pointKeys(range, grouping).map((key) => [
      key,
      { incomeCents: 0, royaltyCents: 0, registerCents: 0, orderCount: 0, withdrawnCents: 0, feeCents: 0 },
    ]),
  );
  for (const d of days) {
    const sum = sums.get(pointKey(d.day, grouping));
    if (!sum) continue;
    sum.incomeCents += d.incomeCents;
    sum.royaltyCents += d.royaltyCents;
    sum.registerCents += d.registerCents;
    sum.orderCount += d.orderCount;
    sum.withdrawnCents += d.withdrawnCents;
    sum.feeCents += d.feeCents;
  }
  return [...sums].map(([date, s]) => ({
    date,
    totalIncome: formatMoney(s.incomeCents),
    totalWithdrawal: formatMoney(s.withdrawnCents),
    withdrawalProfit: formatMoney(s.feeCents),
    orderRoyalty: formatMoney(s.royaltyCents),
    totalRegisterProfit: formatMoney(s.registerCents),
    totalProfit: formatMoney(s.registerCents + s.royaltyCents + s.feeCents),
    orderCount: s.orderCount,
  }));
}

import type { DzqValue } from './source.js';

/*
 * Reading a Discuz! Q column: sources give numbers as numbers or as their text (DECIMAL always as text), times as
 * 'YYYY-MM-DD HH:MM:SS' in UTC (the dump's TIME_ZONE='+00:00', the live session's time_zone), money in yuan.
 */

export const int = (v: DzqValue | undefined, fallback = 0): number => {
  if (v === null || v === undefined || v === '') return fallback;
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isFinite(n) ? Math.trunc(n) : fallback;
};

/** A reference to another row: 0 and null both mean none. */
export const ref = (v: DzqValue | undefined): number | null => {
  const n = int(v);
  return n > 0 ? n : null;
};

export const str = (v: DzqValue | undefined): string => (v === null || v === undefined ? '' : String(v));

export const num = (v: DzqValue | undefined): number | null => {
  if (v === null || v === undefined || v === '') return null;
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isFinite(n) ? n : null;
};

/**
 * Yuan as DECIMAL text ('12.50', '-3.5', '7') to integer cents, digit by digit: never through a float, so
 * '0.29' is 29 and not 28.999…. Digits past the cents are dropped toward zero (DZQ stores two at most).
 */
export function cents(v: DzqValue | undefined): number {
  if (v === null || v === undefined || v === '') return 0;
  const text = typeof v === 'number' ? v.toFixed(2) : v.trim();
  const match = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(text);
  if (!match) return 0;
  const [, sign, whole = '', fraction = ''] = match;
  const value = Number(whole || '0') * 100 + Number((fraction + '00').slice(0, 2));
  return sign === '-' ? -value : value;
}

/**
 * The old site's clock: Discuz! Q writes DATETIME columns in its own time zone (Asia/Shanghai unless changed in
 * config/app.php), so a time is read at this offset from UTC (--timezone; minutes east of UTC).
 */
let siteOffsetMinutes = 480;

export function setSiteOffset(minutes: number): void {
  siteOffsetMinutes = minutes;
}

/** '+08:00', '-05:30', 'Z' or '0' as minutes east of UTC, or null when it is none of these. */
export function parseOffset(text: string): number | null {
  if (text === 'Z' || text === '0' || text === 'UTC') return 0;
  const match = /^([+-])(\d{2}):?(\d{2})$/.exec(text);
  if (!match) return null;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return minutes > 14 * 60 ? null : match[1] === '-' ? -minutes : minutes;
}

/** A DZQ time (the site's clock) as our ISO-8601 UTC string; null for NULL and MySQL's zero date. */
export function time(v: DzqValue | undefined): string | null {
  if (v === null || v === undefined) return null;
  const text = String(v).trim();
  if (text === '' || text.startsWith('0000-00-00')) return null;
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2}):(\d{2}))?/.exec(text);
  if (!match) return null;
  const [, y, mo, d, h = '00', mi = '00', s = '00'] = match;
  const utc = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  if (!Number.isFinite(utc)) return null;
  return new Date(utc - siteOffsetMinutes * 60_000).toISOString();
}

/** A time that must be there: the fallback (the import's own time) when the row has none. */
export const timeOr = (v: DzqValue | undefined, fallback: string): string => time(v) ?? fallback;

/** A JSON column: the parsed value, or null when it is empty or not JSON. */
export function json(v: DzqValue | undefined): unknown {
  const text = str(v).trim();
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

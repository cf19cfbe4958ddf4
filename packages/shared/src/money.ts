/*
 * Money is integer cents inside the program and in the database, and a string with two decimals ("12.50") in the
 * API and on pages. No floating point on the way: text is parsed digit by digit, cents are formatted by integer
 * division. A JSON number (12.5) is accepted as its decimal text, which JavaScript prints exactly for two decimals.
 */

/** The largest amount anything may hold: 100,000,000.00 (well inside the safe-integer range as cents). */
export const MONEY_MAX_CENTS = 10_000_000_000;

/** "12.5" / "12.50" / "12" / 12.5 to cents; null when it is not a non-negative amount with at most two decimals. */
export function parseMoney(value: string | number): number | null {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value.trim();
  const match = /^(\d{1,11})(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) return null;
  const cents = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return cents <= MONEY_MAX_CENTS ? cents : null;
}

/** Cents to "12.50" (and "-3.05" for a negative change). */
export function formatMoney(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(cents));
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** A ratio in hundredths of a percent (basis points) from "0.60" (percent) text; null when not one. */
export function parsePercent(value: string | number): number | null {
  const bp = parseMoney(value);
  return bp !== null && bp <= 10_000 ? bp : null;
}

import { z } from 'zod';
import { formatMoney, MONEY_MAX_CENTS, parseMoney } from '../money.js';
import { problem } from '../validation-messages.js';

/**
 * An amount field: a string or number with at most two decimals, between `min` and `max` cents; parses to cents.
 * Label it with `labeled()` at the use (金额 / Amount by default through COMMON_FIELD_LABELS).
 */
export function moneyField(minCents = 0, maxCents = MONEY_MAX_CENTS) {
  return z.union([z.string(), z.number()]).transform((value, ctx): number => {
    const cents = parseMoney(value);
    if (cents === null) {
      ctx.addIssue({ code: 'custom', input: value, ...problem({ kind: 'badFormat', format: 'money' }) });
      return z.NEVER;
    }
    if (cents < minCents) {
      ctx.addIssue({
        code: 'custom',
        input: value,
        ...problem({ kind: 'amountBelow', min: formatMoney(minCents) }),
      });
      return z.NEVER;
    }
    if (cents > maxCents) {
      ctx.addIssue({
        code: 'custom',
        input: value,
        ...problem({ kind: 'amountAbove', max: formatMoney(maxCents) }),
      });
      return z.NEVER;
    }
    return cents;
  });
}

import { z } from 'zod';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '../constants.js';
import { problem } from '../validation-messages.js';

/** The envelope of every answer under /api. */
export const envelopeSchema = <T extends z.ZodType>(data: T) =>
  z.object({
    Code: z.number().int(),
    Message: z.string(),
    Data: data,
    RequestId: z.string(),
    RequestTime: z.string(),
  });

export interface Envelope<T = unknown> {
  Code: number;
  Message: string;
  Data: T;
  RequestId: string;
  RequestTime: string;
}

export interface Page<T> {
  pageData: T[];
  currentPage: number;
  perPage: number;
  totalCount: number;
  totalPage: number;
}

/** One page of a list, as every list endpoint answers it (`totalPage` rounds up). */
export function pageOf<T>(pageData: T[], currentPage: number, perPage: number, totalCount: number): Page<T> {
  return { pageData, currentPage, perPage, totalCount, totalPage: Math.ceil(totalCount / perPage) };
}

/** Query strings carry numbers as text: accept both. */
export const queryInt = z.coerce.number().int();

export const paginationQuery = z.object({
  page: queryInt.min(1).default(1),
  perPage: queryInt.min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
});

export const emptyData = z.object({}).strict();

/** Counts code points, so a Chinese character or an emoji is one. */
export const codePoints = (s: string): number => [...s].length;

/**
 * A length counted in code points (zod's min/max count UTF-16 units), refused with zod's own too_small / too_big
 * issues, so the message says how long like any other: `.superRefine(charsBetween(2, 15))`.
 */
export function charsBetween(min: number, max: number) {
  return (s: string, ctx: z.RefinementCtx<string>): void => {
    const n = codePoints(s);
    if (n < min) ctx.addIssue({ code: 'too_small', origin: 'string', minimum: min, inclusive: true, input: s });
    else if (n > max) ctx.addIssue({ code: 'too_big', origin: 'string', maximum: max, inclusive: true, input: s });
  };
}

/** No control characters (NUL, which neither database stores, among them). */
export const noControlChars = (s: string): boolean => !/\p{Cc}/u.test(s);
/** No control characters other than line breaks and tabs (multi-line text). */
export const noControlCharsInLines = (s: string): boolean =>
  ![...s].some((ch) => /\p{Cc}/u.test(ch) && ch !== '\n' && ch !== '\r' && ch !== '\t');
/** The refinement's params: `.refine(noControlChars, CONTROL_CHARS)`. */
export const CONTROL_CHARS = problem({ kind: 'controlChars' });

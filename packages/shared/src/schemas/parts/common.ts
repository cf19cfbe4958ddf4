import { z } from 'zod';
import { CONTROL_CHARS, noControlChars } from '../common.js';
import { problem } from '../../validation-messages.js';

/** An http(s) address of at most `max` characters (a link or a picture a part points at). */
export function httpAddress(max = 2000) {
  return z
    .string()
    .trim()
    .max(max)
    .refine(
      (s) => /^https?:\/\/[^\s/]+/i.test(s) && URL.canParse(s) && noControlChars(s),
      problem({
        kind: 'sentence',
        zh: '地址需要是 http:// 或 https:// 开头的网址',
        en: 'The address must start with http:// or https://',
      }),
    );
}

/** One line of text: trimmed, `min` to `max` characters, no control characters. */
export function partLine(max: number, min = 1) {
  return z.string().trim().min(min).max(max).refine(noControlChars, CONTROL_CHARS);
}

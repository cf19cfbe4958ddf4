import type { FastifySchemaCompiler } from 'fastify';
import { z } from 'zod';
import type { Locale } from '@luntan/shared';

/** The issues of a rejected request, kept raw so the message can be written in the viewer's locale. */
export class RequestValidationError extends Error {
  constructor(
    readonly issues: z.core.$ZodIssue[],
    readonly part: string,
  ) {
    super(`${part}: invalid`);
    this.name = 'RequestValidationError';
  }
}

/** Zod validation for Fastify routes; the input is reported so messages can say what was received. */
export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data) => {
    const result = schema.safeParse(data, { reportInput: true });
    if (result.success) return { value: result.data };
    return { error: new RequestValidationError(result.error.issues, httpPart ?? 'body') };
  };

const zhLocale = z.locales.zhCN();
const enLocale = z.locales.en();

/** `field: message` for the first failing issue, in the viewer's locale. */
export function describeIssue(issue: z.core.$ZodIssue, part: string, locale: Locale): string {
  const field = issue.path.length > 0 ? issue.path.map(String).join('.') : part;
  let message = issue.message;
  if (issue.code === 'custom') {
    const zh = (issue.params as { zh?: string } | undefined)?.zh;
    if (locale === 'zh' && zh) message = zh;
  } else if (!isCustomMessage(issue)) {
    const formatted = (locale === 'zh' ? zhLocale : enLocale).localeError(issue as never);
    const text = typeof formatted === 'string' ? formatted : formatted?.message;
    if (text) message = text;
  }
  return `${field}: ${message}`;
}

/** A message given in the schema itself wins over the locale's generic text. */
function isCustomMessage(issue: z.core.$ZodIssue): boolean {
  const generic = enLocale.localeError(issue as never);
  const text = typeof generic === 'string' ? generic : generic?.message;
  return text !== undefined && text !== issue.message;
}

import { DEFAULT_LOCALE, describeIssue, type Locale } from '@luntan/shared';
import type { z } from 'zod';

/**
 * Client-side parameter checks (spec section 5) reuse the shared zod schemas. A failure produces an error titled
 * "Parameter Validator Error" carrying the first failing message, written as the server writes it (the same
 * sentences, packages/shared/src/validation-messages.ts) in the page's language; the dispatcher only warns about
 * it unless validation is switched on for the call.
 */
export type ParameterSchema = z.ZodType;

export const PARAMETER_VALIDATOR_ERROR = 'Parameter Validator Error';

export class ParameterValidatorError extends Error {
  override name = PARAMETER_VALIDATOR_ERROR;
  constructor(
    message: string,
    /** The failing field's path (`data.0.key`), as the server's `Data.field`. */
    readonly path: string,
  ) {
    super(message);
  }
}

/** The page's language, as the language switch keeps it on <html lang>. */
function pageLocale(): Locale {
  if (typeof document === 'undefined') return DEFAULT_LOCALE;
  return document.documentElement.lang.startsWith('en') ? 'en' : 'zh';
}

export function checkParameters(
  schema: ParameterSchema,
  input: unknown,
  locale: Locale = pageLocale(),
): ParameterValidatorError | null {
  const result = schema.safeParse(input);
  if (result.success) return null;
  const first = result.error.issues[0];
  if (!first) return new ParameterValidatorError(locale === 'zh' ? '参数不正确' : 'Invalid parameters', '');
  const described = describeIssue(first, { schema, input });
  return new ParameterValidatorError(described.message[locale], described.field);
}

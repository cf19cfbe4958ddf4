import { Code, type CodeValue } from '@luntan/shared';

/** A message in both locales, or one text for both (e.g. a field name with a technical detail). */
export type LocalizedText = { zh: string; en: string } | string;

/**
 * The one error type the routes throw. It carries a spec code for programs and, optionally, a more precise
 * message for people; the error handler writes the envelope. HTTP status stays 200 (the family's convention)
 * unless a transport-level status is given.
 */
export class AppError extends Error {
  constructor(
    readonly code: CodeValue,
    readonly text?: LocalizedText,
    readonly options: { data?: unknown; httpStatus?: number; headers?: Record<string, string> } = {},
  ) {
    super(typeof text === 'string' ? text : (text?.en ?? String(code)));
    this.name = 'AppError';
  }
}

export const notFound = (text?: LocalizedText) => new AppError(Code.RESOURCE_NOT_FOUND, text);
export const needLogin = () => new AppError(Code.JUMP_TO_LOGIN);
export const forbidden = (text?: LocalizedText) => new AppError(Code.UNAUTHORIZED, text);

/**
 * An error about one field: a sentence for people that names the field in words (never its raw path), and the
 * path in Data for programs (`Data.field`, as the validation errors carry it).
 */
export const fieldError = (code: CodeValue, field: string, text: LocalizedText, data: Record<string, unknown> = {}) =>
  new AppError(code, text, { data: { field, ...data } });
export const invalidField = (field: string, text: LocalizedText) => fieldError(Code.INVALID_PARAMETER, field, text);
export const notFoundField = (field: string, text: LocalizedText) => fieldError(Code.RESOURCE_NOT_FOUND, field, text);

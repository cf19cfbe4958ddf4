/**
 * Client-side parameter checks (spec section 5) reuse the shared zod schemas. A failure produces an error titled
 * "Parameter Validator Error" carrying the first failing message; the dispatcher only warns about it unless
 * validation is switched on for the call.
 */
export interface ParameterSchema {
  safeParse(
    input: unknown,
  ):
    | { success: true }
    | { success: false; error: { issues: ReadonlyArray<{ message: string; path: ReadonlyArray<PropertyKey> }> } };
}

export const PARAMETER_VALIDATOR_ERROR = 'Parameter Validator Error';

export class ParameterValidatorError extends Error {
  override name = PARAMETER_VALIDATOR_ERROR;
  constructor(
    message: string,
    readonly path: string,
  ) {
    super(message);
  }
}

export function checkParameters(schema: ParameterSchema, input: unknown): ParameterValidatorError | null {
  const result = schema.safeParse(input);
  if (result.success) return null;
  const first = result.error.issues[0];
  const path = first ? first.path.map(String).join('.') : '';
  const message = first ? (path ? `${path}: ${first.message}` : first.message) : 'invalid parameters';
  return new ParameterValidatorError(message, path);
}

import { describeIssue, type DescribedIssue } from '@luntan/shared';
import type { FastifySchemaCompiler } from 'fastify';
import type { z } from 'zod';

/**
 * The issues of a rejected request, kept raw with the schema and the input that was checked, so that the message
 * can be written in the viewer's locale and name the field in words (packages/shared/src/validation-messages.ts).
 */
export class RequestValidationError extends Error {
  constructor(
    readonly issues: z.core.$ZodIssue[],
    readonly part: string,
    readonly source: { schema?: z.core.$ZodType; input?: unknown } = {},
  ) {
    super(`${part}: invalid`);
    this.name = 'RequestValidationError';
  }

  /** The first issue as a sentence for people (both locales) and the failing field's path for programs. */
  describe(): DescribedIssue | null {
    const first = this.issues[0];
    return first ? describeIssue(first, { ...this.source, part: this.part }) : null;
  }
}

/** Zod validation for Fastify routes. */
export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data) => {
    const result = schema.safeParse(data);
    if (result.success) return { value: result.data };
    return { error: new RequestValidationError(result.error.issues, httpPart ?? 'body', { schema, input: data }) };
  };

import type { FastifyRequest } from 'fastify';
import { describeProblem } from '@luntan/shared';
import { MAX_JSON_DEPTH } from './body-parsers.js';
import { invalidField } from './errors.js';

const NUL = String.fromCharCode(0);

/**
 * Where the first string holding a NUL character sits in a parsed request part (`body.title`, `query.filter.search`),
 * or null. Neither database's text type can store NUL (PostgreSQL refuses it: "invalid byte sequence") and no text a
 * person writes needs it, so every route refuses it once, here, before validation.
 */
export function nulPath(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === 'string') return value.includes(NUL) ? path : null;
  if (value === null || typeof value !== 'object' || depth > MAX_JSON_DEPTH) return null;
  for (const [key, item] of Object.entries(value)) {
    if (key.includes(NUL)) return path;
    const found = nulPath(item, `${path}.${key}`, depth + 1);
    if (found) return found;
  }
  return null;
}

/** preValidation hook for /api: -4001 for a NUL character in the query, the path parameters or a parsed body. */
export async function refuseNulCharacters(request: FastifyRequest): Promise<void> {
  const where = nulPath(request.query, 'query') ?? nulPath(request.params, 'params') ?? nulPath(request.body, 'body');
  if (where) {
    const field = where.replace(/^(query|params|body)\./, '');
    throw invalidField(field, describeProblem(field, { kind: 'controlChars' }));
  }
}

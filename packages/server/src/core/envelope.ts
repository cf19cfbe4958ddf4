import { Code, type CodeValue, type Envelope } from '@luntan/shared';
import type { FastifyRequest } from 'fastify';
import { codeMessage, requestLocale } from './i18n.js';

export function envelope<T>(request: FastifyRequest, code: CodeValue, message: string, data: T): Envelope<T> {
  return {
    Code: code,
    Message: message,
    Data: data,
    RequestId: request.id,
    RequestTime: new Date().toISOString(),
  };
}

/** The success answer of a handler. */
export function ok<T>(request: FastifyRequest, data: T): Envelope<T> {
  return envelope(request, Code.SUCCESS, codeMessage(Code.SUCCESS, requestLocale(request)), data);
}

import { Code, REQUEST_TIMEOUT_MS, type Envelope } from '@luntan/shared';
import { withQuery } from './query-string';
import { readAccessToken } from './token-store';
import type { ParameterSchema } from './validate';

/**
 * The one dispatcher every browser call goes through (spec sections 7 and 8):
 * credentials sent, JSON both ways, GET by default, indexed query arrays with encoded values, a 30000 ms time-out.
 * It never throws: a failed call becomes `{Code, Message, Data: {}}` (-500 for a time-out, -1 otherwise), and the
 * answer goes through the shared error handler, which may redirect (see error-handler.ts).
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  url: string;
  method?: HttpMethod;
  /** Query parameters (any method). */
  params?: Record<string, unknown>;
  /** JSON body (not for GET). */
  data?: unknown;
  /** Milliseconds; default REQUEST_TIMEOUT_MS (30000). */
  timeout?: number;
  headers?: Record<string, string>;
  /** Shared zod schema of the parameters (GET: params, otherwise data). Failures only warn... */
  validator?: ParameterSchema;
  /** ...unless switched on for this call: then the call is not sent and answers -4001. */
  isValidate?: boolean;
  /** Pass the answer to the shared error handler (default true). */
  handleError?: boolean;
  signal?: AbortSignal;
}

/** What a call answers when it did not get an envelope: Data is an empty object. */
export interface FailedCall {
  Code: number;
  Message: string;
  Data: Record<string, never>;
}

export type ApiResult<T> = Envelope<T> | FailedCall;

export function isSuccess<T>(result: ApiResult<T>): result is Envelope<T> {
  return result.Code === Code.SUCCESS;
}

export const NETWORK_ERROR_MESSAGE = 'Network Error';
export const ABORTED_MESSAGE = 'Request aborted';

export function timeoutMessage(ms: number): string {
  return `timeout of ${ms} ms exceeded`;
}

const TIMEOUT_PATTERN = /timeout of \d+ ?ms exceeded/;

/** The client wrapper's mapping (section 8): 'timeout of N ms exceeded' is -500, anything else -1. */
export function toFailedCall(error: unknown): FailedCall {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : 'Unknown error';
  return {
    Code: TIMEOUT_PATTERN.test(message) ? Code.TIMEOUT : Code.OTHER,
    Message: message,
    Data: {},
  };
}

export type ErrorListener = (result: ApiResult<unknown>, options: RequestOptions) => void;

let errorListener: ErrorListener | null = null;

/** Installs the shared error handler (done once by the browser entry). */
export function setErrorListener(listener: ErrorListener | null): void {
  errorListener = listener;
}

function isEnvelope(value: unknown): value is Envelope<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { Code?: unknown }).Code === 'number' &&
    typeof (value as { Message?: unknown }).Message === 'string' &&
    'Data' in value
  );
}

async function send<T>(options: RequestOptions): Promise<ApiResult<T>> {
  const method = options.method ?? 'GET';
  const timeout = options.timeout ?? REQUEST_TIMEOUT_MS;

  if (options.validator) {
    const input = method === 'GET' ? (options.params ?? {}) : options.data;
    // Loaded by the first call that carries a schema (a form's), not by every page: the checks and their messages
    // are code the first page does not need.
    const { checkParameters } = await import('./validate');
    const failure = checkParameters(options.validator, input);
    if (failure) {
      // Warn only, unless this call switched validation on.
      console.warn(failure);
      if (options.isValidate) {
        return { Code: Code.INVALID_PARAMETER, Message: failure.message, Data: {} };
      }
    }
  }

  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  const token = readAccessToken();
  if (token && !headers.Authorization) headers.Authorization = `Bearer ${token}`;
  let body: string | undefined;
  if (method !== 'GET' && options.data !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.data);
  }

  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeout);
  const onCallerAbort = (): void => controller.abort();
  options.signal?.addEventListener('abort', onCallerAbort);

  try {
    const response = await fetch(withQuery(options.url, options.params), {
      method,
      headers,
      body,
      credentials: 'include',
      signal: controller.signal,
    });
    let payload: unknown = undefined;
    const text = await response.text();
    if (text) {
      try {
        payload = JSON.parse(text) as unknown;
      } catch {
        payload = undefined;
      }
    }
    // A business answer that came with an HTTP error status still carries the server's message: keep it.
    if (isEnvelope(payload) && (response.ok || payload.Code !== Code.SUCCESS)) {
      return payload as Envelope<T>;
    }
    if (!response.ok) return toFailedCall(new Error(`Request failed with status code ${response.status}`));
    return toFailedCall(new Error('Invalid response: not an envelope'));
  } catch {
    if (timedOut) return toFailedCall(new Error(timeoutMessage(timeout)));
    if (controller.signal.aborted) return toFailedCall(new Error(ABORTED_MESSAGE));
    return toFailedCall(new Error(NETWORK_ERROR_MESSAGE));
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onCallerAbort);
  }
}

/** Sends one call; resolves to the envelope or to a FailedCall, never rejects. */
export async function request<T>(options: RequestOptions): Promise<ApiResult<T>> {
  const result = await send<T>(options);
  if (result.Code !== Code.SUCCESS && options.handleError !== false && errorListener) {
    try {
      errorListener(result, options);
    } catch (error) {
      console.error(error);
    }
  }
  return result;
}

import type { Envelope } from '@luntan/shared';
import { request, toFailedCall, type ApiResult } from './dispatcher';
import { withQuery } from './query-string';

/**
 * What loaders and pages call. In the browser it is the dispatcher; during server rendering it is the server's
 * in-process `api` (Fastify inject with the visitor's cookie), so one loader works in both places.
 */
/** Per-call options (the browser's dispatcher honours them; the server's renderer has no handler to skip). */
export interface CallOptions {
  /** Pass a failure to the shared error handler (its redirects); default true. */
  handleError?: boolean;
}

export interface ApiClient {
  get<T>(path: string, params?: Record<string, unknown>, options?: CallOptions): Promise<ApiResult<T>>;
  post<T>(path: string, body?: unknown): Promise<ApiResult<T>>;
}

export type ServerApi = <T>(method: 'GET' | 'POST', path: string, body?: unknown) => Promise<Envelope<T>>;

export const browserApi: ApiClient = {
  get: <T>(url: string, params?: Record<string, unknown>, options?: CallOptions) =>
    request<T>({ url, params, ...options }),
  post: <T>(url: string, data?: unknown) => request<T>({ url, method: 'POST', data }),
};

export function createServerApiClient(api: ServerApi): ApiClient {
  const call = async <T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<ApiResult<T>> => {
    try {
      return await api<T>(method, path, body);
    } catch (error) {
      return toFailedCall(error);
    }
  };
  return {
    get: <T>(path: string, params?: Record<string, unknown>) => call<T>('GET', withQuery(path, params)),
    post: <T>(path: string, body?: unknown) => call<T>('POST', path, body),
  };
}

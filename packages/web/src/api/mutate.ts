import { toast } from '../components/ui';
import { isSuccess, request, type ApiResult } from './dispatcher';

/**
 * A POST from a page: the dispatcher's shared handler reacts to redirect codes (a guest is sent to the login page);
 * any other failure shows the server's message in a toast. Answers the data, or null on failure.
 */
export async function post<T>(url: string, data: unknown): Promise<T | null> {
  const result: ApiResult<T> = await request<T>({ url, method: 'POST', data });
  if (isSuccess(result)) return result.Data;
  toast.error(result.Message);
  return null;
}

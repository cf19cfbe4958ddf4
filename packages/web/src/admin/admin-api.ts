import { useQuery, useQueryClient } from '@tanstack/react-query';
import { isSuccess, request, type ApiResult } from '../api/dispatcher';
import type { Endpoint } from '../api/admin-client';
import { useAppContext } from '../app-context';
import { toast } from '../components/ui';

/** A back-office read through TanStack Query: the data, or null while loading or after a failure (then `error`). */
export function useAdminQuery<T>(key: readonly unknown[], url: Endpoint<T> | string, params?: Record<string, unknown>) {
  const { api } = useAppContext();
  const query = useQuery({
    queryKey: ['admin', ...key],
    queryFn: (): Promise<ApiResult<T>> => api.get<T>(url, params),
  });
  const result = query.data;
  return {
    data: result && isSuccess(result) ? result.Data : null,
    error: result && !isSuccess(result) ? result.Message : null,
    loading: !result,
  };
}

/** Re-reads the back office's data (and the public site, whose settings may have changed). */
export function useAdminRefresh(): (...keys: string[]) => Promise<void> {
  const queryClient = useQueryClient();
  return async (...keys) => {
    await Promise.all([
      ...keys.map((key) => queryClient.invalidateQueries({ queryKey: ['admin', key] })),
      queryClient.invalidateQueries({ queryKey: ['forum'] }),
      queryClient.invalidateQueries({ queryKey: ['categories'] }),
    ]);
  };
}

/** A back-office write: the server's message in a toast on failure, a success toast otherwise. */
export async function adminCall<T>(
  method: 'POST' | 'DELETE',
  url: string,
  data: unknown,
  success?: string,
): Promise<T | null> {
  const result = await request<T>({ url, method, data });
  if (!isSuccess(result)) {
    toast.error(result.Message);
    return null;
  }
  if (success) toast.success(success);
  return result.Data;
}

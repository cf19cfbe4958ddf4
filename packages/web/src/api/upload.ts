import type { AttachmentItem } from '@luntan/shared';
import { toFailedCall, type ApiResult } from './dispatcher';
import { readAccessToken } from './token-store';

/** Sends a multipart form (file uploads), with the access token as the dispatcher would. */
export async function postForm<T>(url: string, form: FormData): Promise<ApiResult<T>> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = readAccessToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  try {
    const response = await fetch(url, { method: 'POST', body: form, headers, credentials: 'include' });
    return (await response.json()) as ApiResult<T>;
  } catch (error) {
    return toFailedCall(error);
  }
}

/** Uploads an image (multipart: file, type=image) for a post; the answer carries the URL to put in Markdown. */
export function uploadImage(file: File, categoryId?: number): Promise<ApiResult<AttachmentItem>> {
  const form = new FormData();
  form.append('type', 'image');
  if (categoryId) form.append('categoryId', String(categoryId));
  form.append('file', file, file.name || 'image');
  return postForm<AttachmentItem>('/api/v3/attachments', form);
}

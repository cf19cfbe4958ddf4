import { ACCESS_TOKEN_NAME, ACCESS_TOKEN_TTL_MS } from '@luntan/shared';

/**
 * The access token lives under `access_token` in local storage (30 days, the spec's 2592000000 ms; the store's
 * key prefix is empty) and in the HttpOnly `access_token` cookie the server sets at login. The cookie carries the
 * session on server-rendered requests; local storage feeds the `Authorization` header of browser calls.
 */
const EXPIRY_SUFFIX = '__expires';

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

export function saveAccessToken(token: string, now = Date.now()): void {
  const store = storage();
  if (!store) return;
  store.setItem(ACCESS_TOKEN_NAME, token);
  store.setItem(ACCESS_TOKEN_NAME + EXPIRY_SUFFIX, String(now + ACCESS_TOKEN_TTL_MS));
}

export function readAccessToken(now = Date.now()): string | null {
  const store = storage();
  if (!store) return null;
  const token = store.getItem(ACCESS_TOKEN_NAME);
  if (!token) return null;
  const expires = Number(store.getItem(ACCESS_TOKEN_NAME + EXPIRY_SUFFIX));
  if (!Number.isFinite(expires) || expires <= now) {
    clearAccessToken();
    return null;
  }
  return token;
}

export function clearAccessToken(): void {
  const store = storage();
  if (!store) return;
  store.removeItem(ACCESS_TOKEN_NAME);
  store.removeItem(ACCESS_TOKEN_NAME + EXPIRY_SUFFIX);
}

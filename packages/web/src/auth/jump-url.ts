import { JUMP_URL_KEY } from '@luntan/shared';

/**
 * The post-login return address (spec section 2): saved under the session key `__jump_url` before going to the
 * login page, restored and cleared after login; '/' when nothing valid was saved.
 */

/** The sign-in and registration pages: never a return address. */
export const EXCLUDED_RETURN_PREFIXES = [
  '/user/login',
  '/user/register',
  '/user/username-login',
  '/user/phone-login',
  '/user/wx-login',
  '/user/wx-auth',
  '/user/wx-authorization',
  '/user/wx-select',
] as const;

function pathOf(address: string): string {
  const end = address.search(/[?#]/);
  return end === -1 ? address : address.slice(0, end);
}

function matchesPrefix(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(prefix + '/');
}

/** A same-site path ('/...', not '//host') outside the excluded prefixes; anything under /my always passes. */
export function isAcceptableReturnAddress(address: unknown): address is string {
  if (typeof address !== 'string') return false;
  if (!address.startsWith('/') || address.startsWith('//') || address.includes('\\')) return false;
  const path = pathOf(address);
  if (path.startsWith('/my')) return true;
  return !EXCLUDED_RETURN_PREFIXES.some((prefix) => matchesPrefix(path, prefix));
}

function session(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    return null;
  }
}

/** Remembers an address to come back to after login. Returns false (and says why) when it is not acceptable. */
export function saveJumpUrl(address: unknown): boolean {
  if (!isAcceptableReturnAddress(address)) {
    if (typeof address !== 'string') console.error('[jump-url] the return address must be a string:', address);
    return false;
  }
  session()?.setItem(JUMP_URL_KEY, address);
  return true;
}

/** Reads and clears the saved address: the address to go to after login, '/' when none or invalid. */
export function takeJumpUrl(): string {
  const store = session();
  const saved = store?.getItem(JUMP_URL_KEY) ?? null;
  store?.removeItem(JUMP_URL_KEY);
  if (saved === null) return '/';
  if (!isAcceptableReturnAddress(saved)) {
    console.error('[jump-url] invalid return address ignored:', saved);
    return '/';
  }
  return saved;
}

/**
 * The server cannot write session storage, so a guard that fires during server rendering hands the address over
 * in this short-lived cookie; the browser entry moves it into session storage before hydrating.
 */
export const JUMP_URL_COOKIE = 'luntan_jump_url';

export function jumpUrlCookie(address: string): string {
  return `${JUMP_URL_COOKIE}=${encodeURIComponent(address)}; Path=/; Max-Age=300; SameSite=Lax`;
}

export function adoptJumpUrlCookie(): boolean {
  const match = document.cookie.split('; ').find((part) => part.startsWith(JUMP_URL_COOKIE + '='));
  if (!match) return false;
  document.cookie = `${JUMP_URL_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax`;
  let value: string;
  try {
    value = decodeURIComponent(match.slice(JUMP_URL_COOKIE.length + 1));
  } catch {
    return false;
  }
  return saveJumpUrl(value);
}

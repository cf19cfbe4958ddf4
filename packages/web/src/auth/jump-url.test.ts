import { JUMP_URL_KEY } from '@luntan/shared';
import { describe, expect, it, vi } from 'vitest';
import { adoptJumpUrlCookie, isAcceptableReturnAddress, saveJumpUrl, takeJumpUrl, JUMP_URL_COOKIE } from './jump-url';

describe('return address', () => {
  it('accepts site paths, always anything under /my, and refuses the sign-in and registration pages', () => {
    expect(isAcceptableReturnAddress('/wallet')).toBe(true);
    expect(isAcceptableReturnAddress('/search?keyword=a')).toBe(true);
    expect(isAcceptableReturnAddress('/my')).toBe(true);
    expect(isAcceptableReturnAddress('/my/edit?x=1')).toBe(true);
    expect(isAcceptableReturnAddress('/user/login')).toBe(false);
    expect(isAcceptableReturnAddress('/user/login?x=1')).toBe(false);
    expect(isAcceptableReturnAddress('/user/register')).toBe(false);
    expect(isAcceptableReturnAddress('/user/username-login')).toBe(false);
    expect(isAcceptableReturnAddress('/user/status')).toBe(true);
    expect(isAcceptableReturnAddress('https://evil.example/')).toBe(false);
    expect(isAcceptableReturnAddress('//evil.example/')).toBe(false);
    expect(isAcceptableReturnAddress(42)).toBe(false);
  });

  it('is saved under __jump_url, restored once, then cleared', () => {
    expect(saveJumpUrl('/wallet?x=1')).toBe(true);
    expect(sessionStorage.getItem(JUMP_URL_KEY)).toBe('/wallet?x=1');
    expect(takeJumpUrl()).toBe('/wallet?x=1');
    expect(sessionStorage.getItem(JUMP_URL_KEY)).toBeNull();
    expect(takeJumpUrl()).toBe('/');
  });

  it('refuses to save an excluded address and reports a non-string one', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(saveJumpUrl('/user/login')).toBe(false);
    expect(sessionStorage.getItem(JUMP_URL_KEY)).toBeNull();
    expect(saveJumpUrl({ path: '/my' })).toBe(false);
    expect(error).toHaveBeenCalledTimes(1);
  });

  it('sends the user to / when the saved address is invalid', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    sessionStorage.setItem(JUMP_URL_KEY, '/user/register');
    expect(takeJumpUrl()).toBe('/');
    expect(error).toHaveBeenCalled();
    expect(sessionStorage.getItem(JUMP_URL_KEY)).toBeNull();
  });

  it('adopts the address a server-side guard handed over in a cookie', () => {
    document.cookie = `${JUMP_URL_COOKIE}=${encodeURIComponent('/wallet/recharge')}; Path=/`;
    expect(adoptJumpUrlCookie()).toBe(true);
    expect(sessionStorage.getItem(JUMP_URL_KEY)).toBe('/wallet/recharge');
    expect(document.cookie).not.toContain(`${JUMP_URL_COOKIE}=%2F`);
    expect(adoptJumpUrlCookie()).toBe(false);
  });
});

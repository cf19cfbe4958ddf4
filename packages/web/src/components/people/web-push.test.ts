import { describe, expect, it } from 'vitest';
import { base64urlToBytes, describeError } from './web-push';

describe('web push', () => {
  it('decodes a base64url key, with or without padding', () => {
    expect([...base64urlToBytes('AQID_-8')]).toEqual([1, 2, 3, 255, 239]);
    expect([...base64urlToBytes('AQID_-8=')]).toEqual([1, 2, 3, 255, 239]);
    expect(base64urlToBytes('')).toHaveLength(0);
    // A VAPID public key: an uncompressed P-256 point, 65 bytes starting with 4.
    const key = base64urlToBytes(
      'BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U',
    );
    expect(key).toHaveLength(65);
    expect(key[0]).toBe(4);
  });

  it("says what the browser answered: the error's name and message", () => {
    expect(describeError(new DOMException('Registration failed - push service error', 'AbortError'))).toBe(
      'AbortError: Registration failed - push service error',
    );
    expect(describeError('odd')).toBe('odd');
  });
});

import { createCipheriv, createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { laravelDecrypt, laravelKey } from './laravel-crypt.js';

/** What Laravel's Crypt::encrypt writes (serialize = true). */
function laravelEncrypt(plain: string, key: Buffer): string {
  const iv = randomBytes(16);
  const serialized = `s:${Buffer.byteLength(plain)}:"${plain}";`;
  const cipher = createCipheriv('aes-256-cbc', key, iv);
  const value = Buffer.concat([cipher.update(serialized, 'utf8'), cipher.final()]).toString('base64');
  const ivText = iv.toString('base64');
  const mac = createHmac('sha256', key)
    .update(ivText + value)
    .digest('hex');
  return Buffer.from(JSON.stringify({ iv: ivText, value, mac })).toString('base64');
}

describe("Laravel's encrypter", () => {
  const appKey = `base64:${randomBytes(32).toString('base64')}`;
  const key = laravelKey(appKey);

  it('opens what Laravel encrypted, Chinese text included', () => {
    expect(laravelDecrypt(laravelEncrypt('AKIDsecret密钥', key), key)).toBe('AKIDsecret密钥');
  });

  it('refuses a wrong key, a changed payload and plain text', () => {
    const other = laravelKey(`base64:${randomBytes(32).toString('base64')}`);
    const sealed = laravelEncrypt('secret', key);
    expect(laravelDecrypt(sealed, other)).toBeNull();
    const parsed = JSON.parse(Buffer.from(sealed, 'base64').toString()) as { value: string };
    parsed.value = Buffer.from('tampered').toString('base64');
    expect(laravelDecrypt(Buffer.from(JSON.stringify(parsed)).toString('base64'), key)).toBeNull();
    expect(laravelDecrypt('plain', key)).toBeNull();
  });

  it('needs a 32-byte key', () => {
    expect(() => laravelKey('short')).toThrow(/32 bytes/);
  });
});

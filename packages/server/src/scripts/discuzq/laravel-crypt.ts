import { createDecipheriv, createHmac, timingSafeEqual } from 'node:crypto';

/*
 * Laravel's encrypter (Illuminate\Encryption\Encrypter, AES-256-CBC), which Discuz! Q uses for its secret settings:
 * the value is base64 of JSON {iv, value, mac}; mac = HMAC-SHA256(key, iv + value) in hex; value is base64 of the
 * ciphertext of a PHP-serialized string (`s:5:"hello";`). The key is config/config.php's `key`, `base64:…` or raw.
 */

export function laravelKey(appKey: string): Buffer {
  const key = appKey.startsWith('base64:') ? Buffer.from(appKey.slice(7), 'base64') : Buffer.from(appKey, 'utf8');
  if (key.length !== 32) throw new Error('The app key must be 32 bytes (AES-256-CBC), as config/config.php holds it.');
  return key;
}

/** The plain text of an encrypted value, or null when it is not one or the key does not open it. */
export function laravelDecrypt(payload: string, key: Buffer): string | null {
  let parsed: { iv?: unknown; value?: unknown; mac?: unknown };
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64').toString('utf8')) as typeof parsed;
  } catch {
    return null;
  }
  const { iv, value, mac } = parsed;
  if (typeof iv !== 'string' || typeof value !== 'string' || typeof mac !== 'string') return null;
  const expected = createHmac('sha256', key)
    .update(iv + value)
    .digest();
  const given = Buffer.from(mac, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const decipher = createDecipheriv('aes-256-cbc', key, Buffer.from(iv, 'base64'));
    const plain = Buffer.concat([decipher.update(Buffer.from(value, 'base64')), decipher.final()]).toString('utf8');
    return unserializeString(plain);
  } catch {
    return null;
  }
}

/** PHP's serialize() of a string (`s:<bytes>:"…";`) back to the string; other text is answered as it is. */
function unserializeString(text: string): string {
  const match = /^s:(\d+):"([\s\S]*)";$/.exec(text);
  return match ? match[2]! : text;
}

import type { CaptchaChallenge } from '@luntan/shared';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { TestServer } from './harness.js';

/** Asks the server for a challenge and solves it as the page does: the `captcha` value a guarded call takes. */
export async function solveCaptcha(t: TestServer): Promise<string> {
  const res = await t.get<CaptchaChallenge>('/api/v3/captcha/challenge');
  if (res.Code !== 0) throw new Error(`captcha challenge failed: ${res.Code}`);
  const solution = await solveChallenge({ challenge: res.Data, deriveKey });
  if (!solution) throw new Error('the captcha could not be solved');
  return Buffer.from(JSON.stringify({ challenge: res.Data, solution })).toString('base64');
}

/** Writes site settings as the administrator. */
export async function setSettings(
  t: TestServer,
  admin: string,
  entries: { key: string; value: string | number | boolean; tag?: string }[],
): Promise<void> {
  const res = await t.post(
    '/api/settings.v2',
    { data: entries.map((e) => ({ key: e.key, value: e.value, tag: e.tag ?? 'default' })) },
    admin,
  );
  if (res.Code !== 0) throw new Error(`setSettings failed: ${res.Code} ${res.Message}`);
}

import { randomBytes } from 'node:crypto';
import { INTERNAL_SETTING_TAG, type CaptchaChallenge } from '@luntan/shared';
import { createChallenge, randomInt, verifySolution, type Challenge, type Solution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { Kysely } from 'kysely';
import { invalidField } from '../../core/errors.js';
import type { DB } from '../../db/schema.js';
import { can, type ViewerContext } from '../../access/viewer.js';
import { readSetting, writeSettingIfAbsent } from '../settings/index.js';
import { markSolutionUsed } from './captcha.repository.js';
import { msg } from '../../i18n/index.js';

/*
 * A self-hosted proof-of-work captcha (ALTCHA v2, SHA-256): the server signs a challenge whose answer is a counter
 * below CAPTCHA_MAX_COUNTER; the page finds it by hashing (a second or so), and the call that needs it carries the
 * solution. The HMAC secret is made on first use and kept in the settings (tag internal, never listed or readable
 * through the settings calls), so every app process signs and checks alike. A solution works once.
 */

/** The largest counter a challenge may hide: about 25,000 hashes on average in the browser. */
export const CAPTCHA_MAX_COUNTER = 50_000;
/** How long a challenge (and so a solution) lasts. */
const CHALLENGE_TTL_MS = 10 * 60_000;
const SECRET_KEY = 'captchaSecret';

const secrets = new WeakMap<Kysely<DB>, Promise<string>>();

/** Makes the captcha's secret if the site has none: the seed calls it at every start, so no read has to write it. */
export async function ensureCaptchaSecret(db: Kysely<DB>): Promise<void> {
  await writeSettingIfAbsent(db, SECRET_KEY, INTERNAL_SETTING_TAG, randomBytes(32).toString('hex'));
}

async function loadSecret(db: Kysely<DB>): Promise<string> {
  const stored = await readSetting(db, SECRET_KEY, INTERNAL_SETTING_TAG);
  if (stored?.value) return stored.value;
  // Two processes may both make one: the first written wins, and both read it back.
  await writeSettingIfAbsent(db, SECRET_KEY, INTERNAL_SETTING_TAG, randomBytes(32).toString('hex'));
  const row = await readSetting(db, SECRET_KEY, INTERNAL_SETTING_TAG);
  if (!row?.value) throw new Error('the captcha secret could not be stored');
  return row.value;
}

function captchaSecret(db: Kysely<DB>): Promise<string> {
  let secret = secrets.get(db);
  if (!secret) {
    secret = loadSecret(db);
    secret.catch(() => secrets.delete(db));
    secrets.set(db, secret);
  }
  return secret;
}

/** GET /api/v3/captcha/challenge */
export async function newChallenge(db: Kysely<DB>): Promise<CaptchaChallenge> {
  const secret = await captchaSecret(db);
  const challenge = await createChallenge({
    algorithm: 'SHA-256',
    cost: 1,
    counter: randomInt(CAPTCHA_MAX_COUNTER),
    deriveKey,
    expiresAt: new Date(Date.now() + CHALLENGE_TTL_MS),
    hmacSignatureSecret: secret,
    hmacKeySignatureSecret: secret,
  });
  return { parameters: challenge.parameters, ...(challenge.signature ? { signature: challenge.signature } : {}) };
}

const captchaMissing = () => invalidField('captcha', msg('captcha.completeCaptchaFirst'));
const captchaWrong = () => invalidField('captcha', msg('captcha.captchaCheckFailedTry'));

interface Payload {
  challenge: Challenge;
  solution: Solution;
}

function decodePayload(text: string): Payload | null {
  try {
    const parsed = JSON.parse(Buffer.from(text, 'base64').toString('utf8')) as Partial<Payload>;
    const c = parsed.challenge;
    const s = parsed.solution;
    if (!c || typeof c !== 'object' || !c.parameters || typeof c.signature !== 'string') return null;
    if (!s || typeof s !== 'object' || typeof s.counter !== 'number' || typeof s.derivedKey !== 'string') return null;
    if (typeof c.parameters.expiresAt !== 'number') return null;
    return { challenge: c, solution: s };
  } catch {
    return null;
  }
}

/**
 * Throws -4001 (field captcha) unless `payload` solves a challenge of ours that has not expired and was not used
 * before; then marks it used.
 */
export async function assertCaptcha(db: Kysely<DB>, payload: string | undefined): Promise<void> {
  if (payload === undefined || payload === '') throw captchaMissing();
  const decoded = decodePayload(payload);
  if (!decoded) throw captchaWrong();
  const secret = await captchaSecret(db);
  let verified = false;
  try {
    const result = await verifySolution({
      challenge: decoded.challenge,
      solution: decoded.solution,
      deriveKey,
      hmacSignatureSecret: secret,
      hmacKeySignatureSecret: secret,
    });
    verified = result.verified;
  } catch {
    verified = false;
  }
  if (!verified) throw captchaWrong();
  const expiresAt = new Date((decoded.challenge.parameters.expiresAt ?? 0) * 1000).toISOString();
  if (!(await markSolutionUsed(db, decoded.challenge.signature!, expiresAt))) throw captchaWrong();
}

/** Whether the viewer's groups must solve a captcha to publish (createThreadWithCaptcha; never administrators). */
export function needsCaptchaToPublish(viewer: ViewerContext): boolean {
  return viewer.user !== null && !viewer.isAdmin && can(viewer, 'createThreadWithCaptcha');
}

/** thread.create and posts.create: the captcha, when the poster's group must solve one. */
export async function assertPublishCaptcha(
  db: Kysely<DB>,
  viewer: ViewerContext,
  payload: string | undefined,
): Promise<void> {
  if (needsCaptchaToPublish(viewer)) await assertCaptcha(db, payload);
}

import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import {
  Code,
  maskMobile,
  SMS_CODE_LENGTH,
  SMS_CODE_MAX_TRIES,
  SMS_CODE_TTL_SECONDS,
  SMS_VERIFY_PROOF_SECONDS,
  type SessionData,
  type SmsCodeBody,
  type SmsResetPasswordBody,
  type SmsSendBody,
  type SmsSendData,
  type SmsType,
  type SmsVerifyBody,
} from '@luntan/shared';
import type { AppContext } from '../../context.js';
import type { SmsCode, User } from '../../db/schema.js';
import { AppError, fieldError, invalidField } from '../../core/errors.js';
import { inMs, now } from '../../core/time.js';
import { isUniqueViolation } from '../../db/errors.js';
import { assertOpenWithoutInvitation, createMember, resetPassword, signIn, type ClientInfo } from '../auth/index.js';
import { hashPassword } from '../users/index.js';
import { isUsernameTaken } from '../users/index.js';
import { requireUser, type ViewerContext } from '../../access/viewer.js';
import { isAdministrator } from '../groups/index.js';
import { isSiteClosed, readTagSettings, siteClosedError } from '../settings/index.js';
import { registrationFields } from '../signin-fields/index.js';
import { chooseSmsProvider, type SmsProvider, type SmsSettings } from './sms-providers.js';
import {
  findLatestCode,
  findUserByMobile,
  giveBackTry,
  insertCode,
  setUserMobile,
  spendVerifyProof,
  takeTry,
  useCode,
} from './sms.repository.js';
import { msg } from '../../i18n/index.js';

/*
 * Phones and SMS codes (docs/sms.md). A code is 6 digits, lasts 5 minutes, serves once, and is void after 5 wrong
 * answers; only its salted hash is kept. A newer code of the same number and purpose voids the older one.
 */

type Ctx = Pick<AppContext, 'db' | 'config' | 'limits' | 'log'>;

export async function readSmsSettings(ctx: Pick<Ctx, 'db'>): Promise<SmsSettings> {
  const s = await readTagSettings(ctx.db, 'sms');
  const str = (key: keyof SmsSettings) => String(s[key] ?? '').trim();
  return {
    smsProvider: str('smsProvider'),
    smsSignName: str('smsSignName'),
    smsTemplateId: str('smsTemplateId'),
    tencentSecretId: str('tencentSecretId'),
    tencentSecretKey: str('tencentSecretKey'),
    tencentSmsSdkAppId: str('tencentSmsSdkAppId'),
    tencentSmsRegion: str('tencentSmsRegion'),
    aliyunAccessKeyId: str('aliyunAccessKeyId'),
    aliyunAccessKeySecret: str('aliyunAccessKeySecret'),
  };
}

export async function currentProvider(ctx: Ctx): Promise<SmsProvider | null> {
  return chooseSmsProvider(ctx.config.smsProvider, await readSmsSettings(ctx), ctx.log);
}

/** Whether codes can be sent (the pages show the phone sign-in only then). */
export async function isSmsEnabled(ctx: Ctx): Promise<boolean> {
  return (await currentProvider(ctx)) !== null;
}

const smsOff = () => new AppError(Code.SMS_OFF);
const numberTaken = () => fieldError(Code.RESOURCE_EXIST, 'mobile', msg('sms.numberAlreadyBoundAnother'));
const alreadyBound = () => fieldError(Code.RESOURCE_EXIST, 'mobile', msg('sms.youAlreadyBoundNumber'));
const noneBound = () => invalidField('mobile', msg('sms.youNoBoundNumber'));
const notYourNumber = () => invalidField('mobile', msg('sms.notNumberBoundAccount'));

/** The signed-in member's bound number (a `verify` call without one): -3001 for a guest, -4001 without a number. */
function ownNumber(viewer: ViewerContext): string {
  const user = requireUser(viewer);
  if (!user.mobile) throw noneBound();
  return user.mobile;
}

function hashCode(salt: string, mobile: string, type: string, code: string): string {
  return createHash('sha256').update(`${salt}:${mobile}:${type}:${code}`).digest('hex');
}

/**
 * Sends a code. Refusals come before any counting of the number: a number bound to someone else (bind, rebind), not
 * the viewer's own (verify), unknown while registration is closed or by invitation only (login). A password reset for an unknown number
 * answers as if sent, and sends nothing: nobody learns from it which numbers have accounts.
 */
export async function sendCode(ctx: Ctx, viewer: ViewerContext, body: SmsSendBody, ip: string): Promise<SmsSendData> {
  const { db, limits } = ctx;
  const provider = await currentProvider(ctx);
  if (!provider) throw smsOff();
  // Every request counts against the address, refused or not: guessing which numbers are bound costs the same.
  await limits.sms.address.consume(ip);
  const { type } = body;
  const mobile = body.mobile ?? ownNumber(viewer);
  // While the site is closed, only signing in is open (to administrators; sms.login checks again).
  if (type !== 'login' && !viewer.isAdmin && (await isSiteClosed(db))) throw await siteClosedError(db);
  const owner = await findUserByMobile(db, mobile);
  let silent = false;
  switch (type) {
    case 'login':
      if (await isSiteClosed(db)) {
        // While the site is closed only administrators sign in (sms.login checks again).
        if (!owner || !(await isAdministrator(db, owner.id))) throw await siteClosedError(db);
      }
      if (!owner) await assertMayRegister(ctx);
      break;
    case 'reset_pwd':
      silent = owner === undefined;
      break;
    case 'bind': {
      const user = requireUser(viewer);
      if (user.mobile) throw alreadyBound();
      if (owner) throw numberTaken();
      break;
    }
    case 'rebind': {
      const user = requireUser(viewer);
      if (!user.mobile) throw noneBound();
      if (user.mobile === mobile) {
        throw invalidField('mobile', msg('sms.newNumberCurrentOne'));
      }
      if (owner) throw numberTaken();
      break;
    }
    case 'verify':
    case 'reset_pay_pwd':
      if (requireUser(viewer).mobile !== mobile) throw notYourNumber();
      break;
  }
  await limits.sms.interval?.consume(mobile);
  await limits.sms.daily.consume(mobile);
  const interval = ctx.config.smsIntervalSeconds;
  if (silent) return { interval };

  const code = String(randomInt(0, 10 ** SMS_CODE_LENGTH)).padStart(SMS_CODE_LENGTH, '0');
  const salt = randomBytes(16).toString('hex');
  await insertCode(db, {
    mobile,
    type,
    codeHash: hashCode(salt, mobile, type, code),
    salt,
    ip,
    createdAt: now(),
    expiresAt: inMs(SMS_CODE_TTL_SECONDS * 1000),
  });
  try {
    await provider.sendCode(mobile, code, SMS_CODE_TTL_SECONDS / 60);
  } catch (err) {
    ctx.log.error({ err, provider: provider.name }, 'SMS could not be sent');
    throw new AppError(Code.EXTERNAL_API_ERROR, msg('sms.smsCouldNotSent'));
  }
  return { interval };
}

/**
 * The site's settings when it takes a new member by SMS, who brings no invitation: a sentence about the number when
 * it takes no new members; the registration's own refusal (-4001 inviteCode) when it takes invited ones only.
 */
async function assertMayRegister(ctx: Ctx) {
  try {
    return await assertOpenWithoutInvitation(ctx.db);
  } catch (err) {
    const reason = err instanceof AppError ? (err.options.data as { reason?: unknown } | undefined)?.reason : null;
    if (reason !== 'registerClosed') throw err;
    throw fieldError(Code.UNAUTHORIZED, 'mobile', msg('sms.noAccountNumberSite'));
  }
}

/**
 * The newest code of the number and purpose, if `code` is it: -9003 when there is none or it expired, was used or
 * is void; -9002 when it is wrong (the fifth wrong answer voids it). Does not use it up. The answer is compared only
 * once it holds one of the code's tries (taken in one statement, given back when it is right), so answers sent at the
 * same moment cannot all be compared before the count reaches the limit.
 */
async function checkCode(ctx: Ctx, mobile: string, type: SmsType, code: string): Promise<SmsCode> {
  const row = await findLatestCode(ctx.db, mobile, type);
  const expired = () => new AppError(Code.SMS_CODE_EXPIRED, msg('sms.codeExpiredNoLonger'));
  if (!row || row.usedAt !== null || row.tries >= SMS_CODE_MAX_TRIES || row.expiresAt <= now()) throw expired();
  const tries = await takeTry(ctx.db, row.id, SMS_CODE_MAX_TRIES, now());
  if (tries === null) throw expired();
  const expected = Buffer.from(row.codeHash, 'hex');
  const given = Buffer.from(hashCode(row.salt, mobile, type, code), 'hex');
  if (timingSafeEqual(expected, given)) {
    await giveBackTry(ctx.db, row.id);
    return row;
  }
  const left = Math.max(0, SMS_CODE_MAX_TRIES - tries);
  if (left === 0) {
    throw new AppError(Code.SMS_CODE_EXPIRED, msg('sms.tooManyWrongAnswers'));
  }
  throw new AppError(Code.SMS_CODE_WRONG, msg('sms.wrongCodeMoreTries', { left }), { data: { triesLeft: left } });
}

/** Checks the code and uses it up (by `userId`, for a proof). */
async function useUpCode(ctx: Ctx, mobile: string, type: SmsType, code: string, userId: number | null) {
  const row = await checkCode(ctx, mobile, type, code);
  if (!(await useCode(ctx.db, row.id, now(), userId))) {
    throw new AppError(Code.SMS_CODE_EXPIRED, msg('sms.codeAlreadyUsed'));
  }
}

/**
 * sms.verify. A `verify` code proves the member holds their current number: it is used up and serves sms.rebind for
 * 10 minutes (once). Codes of the other purposes are only checked (a wrong answer counts), so a page may check one
 * before asking for more; the call of their purpose uses them.
 */
export async function verifyCode(ctx: Ctx, viewer: ViewerContext, body: SmsVerifyBody): Promise<void> {
  const mobile = body.mobile ?? ownNumber(viewer);
  if (body.type === 'verify') {
    const user = requireUser(viewer);
    if (user.mobile !== mobile) throw notYourNumber();
    await useUpCode(ctx, mobile, 'verify', body.code, user.id);
    return;
  }
  await checkCode(ctx, mobile, body.type, body.code);
}

/** sms.login: signs in the number's member, or makes one (unless registration is closed or by invitation only). */
export async function loginBySms(ctx: Ctx & Pick<AppContext, 'stopWords'>, body: SmsCodeBody, client: ClientInfo) {
  await useUpCode(ctx, body.mobile, 'login', body.code, null);
  const owner = await findUserByMobile(ctx.db, body.mobile);
  if (owner) return signIn(ctx.db, owner, client);
  if (await isSiteClosed(ctx.db)) throw await siteClosedError(ctx.db);
  try {
    return await registerByMobile(ctx, body.mobile, client);
  } catch (err) {
    // The same number signing up twice at the same moment: the first made the account, the second signs in to it.
    if (!isUniqueViolation(err)) throw err;
    const made = await findUserByMobile(ctx.db, body.mobile);
    if (!made) throw err;
    return signIn(ctx.db, made, client);
  }
}

/**
 * A member made by a first SMS sign-in: a generated username (u_ and 8 letters or digits) they may replace once, the
 * masked number as nickname, a random password they may replace without knowing it (update.user, or sms.reset.pwd);
 * reviewed, owing sign-in fields or the joining fee as a registration would be.
 */
async function registerByMobile(ctx: Ctx, mobile: string, client: ClientInfo): Promise<SessionData> {
  const site = await assertMayRegister(ctx);
  const fields = await registrationFields(ctx.db, undefined);
  let username = '';
  for (let i = 0; i < 5 && username === ''; i++) {
    const candidate = `u_${randomBytes(8)
      .toString('base64url')
      .replace(/[^A-Za-z0-9]/g, '')
      .slice(0, 8)
      .toLowerCase()}`;
    if (candidate.length >= 6 && !(await isUsernameTaken(ctx.db, candidate))) username = candidate;
  }
  if (username === '') throw new Error('no free generated username');
  const passwordHash = await hashPassword(randomBytes(24).toString('base64url'));
  return createMember(
    ctx.db,
    site,
    fields,
    { username, nickname: maskMobile(mobile), passwordHash, mobile, madeUp: true },
    client,
  );
}

/** sms.bind: a first number for the signed-in member. */
export async function bindMobile(ctx: Ctx, viewer: ViewerContext, body: SmsCodeBody): Promise<void> {
  const user = requireUser(viewer);
  if (user.mobile) throw alreadyBound();
  if (await findUserByMobile(ctx.db, body.mobile)) throw numberTaken();
  await useUpCode(ctx, body.mobile, 'bind', body.code, user.id);
  await storeMobile(ctx, user, body.mobile);
}

/**
 * sms.rebind: the new number's code, after the member proved their current number (sms.verify type `verify` on it,
 * within the last 10 minutes; the proof serves once).
 */
export async function rebindMobile(ctx: Ctx, viewer: ViewerContext, body: SmsCodeBody): Promise<void> {
  const user = requireUser(viewer);
  if (!user.mobile) throw noneBound();
  if (await findUserByMobile(ctx.db, body.mobile)) throw numberTaken();
  const row = await checkCode(ctx, body.mobile, 'rebind', body.code);
  const since = new Date(Date.now() - SMS_VERIFY_PROOF_SECONDS * 1000).toISOString();
  if (!(await spendVerifyProof(ctx.db, user.id, user.mobile, since, now()))) {
    throw new AppError(Code.UNAUTHORIZED, msg('sms.verifyCurrentNumberFirst'));
  }
  if (!(await useCode(ctx.db, row.id, now(), user.id))) {
    throw new AppError(Code.SMS_CODE_EXPIRED, msg('sms.codeAlreadyUsed2'));
  }
  await storeMobile(ctx, user, body.mobile);
}

async function storeMobile(ctx: Ctx, user: User, mobile: string): Promise<void> {
  try {
    await setUserMobile(ctx.db, user.id, mobile, now());
  } catch (err) {
    if (isUniqueViolation(err)) throw numberTaken();
    throw err;
  }
}

/**
 * Uses up a code sent to the signed-in member's own bound number (reset_pay_pwd): -3001 for a guest, -4001 when the
 * number is not theirs, then as every code (-9002 wrong, -9003 expired or used).
 */
export async function useOwnNumberCode(
  ctx: Ctx,
  viewer: ViewerContext,
  type: 'reset_pay_pwd',
  mobile: string,
  code: string,
): Promise<void> {
  const user = requireUser(viewer);
  if (!user.mobile) throw noneBound();
  if (user.mobile !== mobile) throw notYourNumber();
  await useUpCode(ctx, mobile, type, code, user.id);
}

/** sms.reset.pwd: a new password for the number's member, who is then signed out of every session. */
export async function resetPasswordBySms(ctx: Ctx, body: SmsResetPasswordBody): Promise<void> {
  await useUpCode(ctx, body.mobile, 'reset_pwd', body.code, null);
  const owner = await findUserByMobile(ctx.db, body.mobile);
  // No code is ever sent to a number without an account, so there is always one here; but never say otherwise.
  if (!owner) throw new AppError(Code.SMS_CODE_EXPIRED);
  await resetPassword(ctx.db, owner.id, body.password);
}

import { randomBytes } from 'node:crypto';
import {
  Code,
  UserStatus,
  type CodeValue,
  type WechatQrCode,
  type WechatQrStatus,
  type WechatSignIn,
} from '@luntan/shared';
import type { Kysely } from 'kysely';
import { AppError, needLogin } from '../../core/errors.js';
import { inMs, now } from '../../core/time.js';
import type { DB } from '../../db/schema.js';
import { signIn, type ClientInfo } from '../auth/index.js';
import { accountForIdentity, linkIdentity, type OutsideIdentity } from '../oauth/index.js';
import { OauthFlowError, saveSignInState, takeSignInState } from '../oauth/index.js';
import { readTag } from '../settings/index.js';
import { decodeSetting } from '../settings/index.js';
import type { StopWordCache } from '../stop-words/index.js';
import { findUserById } from '../users/index.js';
import { authorizeUrl, WECHAT_API_BASE, wechatUserFromCode, type WechatConfig } from './wechat-api.js';
import { findQrSession, insertQrSession, moveQrSession } from './wechat.repository.js';
import { msg } from '../../i18n/index.js';

/**
 * Signing in with WeChat, in the family's calls: h5.oauth sends the phone to WeChat, which sends it back to the
 * page /user/wx-auth with a code; the page calls h5.login (sign in, or create the account), h5.bind or h5.rebind.
 * A desktop shows a QR code (pc/h5.genqrcode) that a phone opens to do the same for it, and polls pc/h5.login
 * until the phone is done.
 */

export const QR_TTL_MS = 5 * 60_000;

export async function readWechatConfig(db: Kysely<DB>): Promise<WechatConfig | null> {
  const rows = await readTag(db, 'wechat');
  const value = (key: string) => String(decodeSetting(key, 'wechat', rows.find((r) => r.key === key)?.value));
  const appId = value('wechatAppId').trim();
  const secret = value('wechatAppSecret').trim();
  if (!appId || !secret) return null;
  return { appId, secret, apiBase: value('wechatApiBase') || WECHAT_API_BASE };
}

export const isWechatConfigured = async (db: Kysely<DB>) => (await readWechatConfig(db)) !== null;

const wechatOff = () => new AppError(Code.UNAUTHORIZED, msg('wechat.wechatSignNotEnabled'));

async function requireConfig(db: Kysely<DB>): Promise<WechatConfig> {
  const config = await readWechatConfig(db);
  if (!config) throw wechatOff();
  return config;
}

const expired = () =>
  new AppError(Code.RESOURCE_EXPIRED, msg('wechat.wechatAuthorisationExpiredStart'), { data: { reason: 'state' } });

/** h5.oauth: the WeChat address the phone goes to, for one purpose, and the state that comes back with the code. */
export async function beginWechat(
  db: Kysely<DB>,
  input: { type: 'login' | 'bind' | 'rebind' | 'pc'; redirect: string; sessionToken?: string | undefined },
  context: { viewerId: number | null; siteBase: string },
): Promise<{ url: string; state: string }> {
  const config = await readWechatConfig(db);
  if (!config) throw new OauthFlowError('unknownProvider');
  let purpose: string = input.type;
  let userId: number | null = null;
  let qrToken: string | null = null;
  if (input.type === 'bind' || input.type === 'rebind') {
    if (context.viewerId === null) throw new OauthFlowError('needLogin');
    userId = context.viewerId;
  } else if (input.type === 'pc') {
    const qr = input.sessionToken ? await findQrSession(db, input.sessionToken) : undefined;
    if (!qr || qr.status !== 'pending' || qr.expiresAt < now()) throw new OauthFlowError('state');
    purpose = qr.purpose;
    userId = qr.userId;
    qrToken = qr.token;
  }
  const state = randomBytes(24).toString('base64url');
  await saveSignInState(db, { state, kind: 'wechat', purpose, redirect: input.redirect, userId, qrToken });
  return { url: authorizeUrl(config, `${context.siteBase}/user/wx-auth?type=${input.type}`, state), state };
}

/** Which call finishes which purpose: h5.login signs in (here or for a desktop), h5.bind and h5.rebind link. */
const PURPOSES_OF = {
  login: ['login', 'pc_login', 'pc_bind', 'pc_rebind'],
  bind: ['bind'],
  rebind: ['rebind'],
} as const;

/** A QR session the phone could not finish: the desktop's next poll answers the same error. */
async function failQr(db: Kysely<DB>, token: string, err: unknown): Promise<void> {
  const code: CodeValue = err instanceof AppError ? err.code : Code.EXTERNAL_API_ERROR;
  const text = err instanceof AppError && err.text !== undefined ? JSON.stringify(err.text) : '';
  await moveQrSession(db, token, 'pending', {
    status: 'failed',
    errorCode: code,
    errorMessage: text.length <= 255 ? text : '',
  });
}

/**
 * h5.login, h5.bind, h5.rebind: WeChat sent the phone back with a code. Checks the state (its row, the browser's
 * cookie, the call that may finish it), reads the WeChat user, then signs in (creating the account on a first
 * sign-in), binds or rebinds. A session is answered only to a phone signing itself in.
 */
export async function finishWechat(
  deps: { db: Kysely<DB>; stopWords: StopWordCache },
  call: 'login' | 'bind' | 'rebind',
  input: { code: string; state: string; cookieState: string | undefined },
  context: { viewerId: number | null; client: ClientInfo },
): Promise<WechatSignIn> {
  const { db } = deps;
  if (input.state !== input.cookieState) throw expired();
  const row = await takeSignInState(db, input.state, 'wechat');
  if (!row || !(PURPOSES_OF[call] as readonly string[]).includes(row.purpose)) throw expired();
  if (call !== 'login') {
    if (context.viewerId === null) throw needLogin();
    if (context.viewerId !== row.userId) throw expired();
  }
  const config = await requireConfig(db);
  const qrToken = row.qrToken;
  try {
    const wx = await wechatUserFromCode(config, input.code);
    const identity: OutsideIdentity = {
      kind: 'wechat',
      providerId: 0,
      subject: wx.unionid || wx.openid,
      email: '',
      displayName: wx.nickname,
      usernameHints: [wx.nickname, 'wx'],
    };
    if (row.purpose === 'login') {
      const { user, created } = await accountForIdentity(db, deps.stopWords, identity, context.client);
      const session = await signIn(db, user, context.client);
      const redirect = user.status === UserStatus.NEEDS_SIGNIN_FIELDS ? '/user/supplementary' : row.redirect;
      return { ...session, redirect, created };
    }
    if (row.purpose === 'pc_login') {
      const { user, created } = await accountForIdentity(db, deps.stopWords, identity, context.client);
      await moveQrSession(db, qrToken!, 'pending', { status: 'done', userId: user.id });
      return { userId: user.id, userStatus: user.status, redirect: '/', created };
    }
    const userId = row.userId!;
    await linkIdentity(db, userId, identity, { replace: row.purpose === 'rebind' || row.purpose === 'pc_rebind' });
    if (qrToken) await moveQrSession(db, qrToken, 'pending', { status: 'done' });
    const user = await findUserById(db, userId);
    return {
      userId,
      userStatus: user?.status ?? 0,
      redirect: row.redirect === '/' ? '/my?tab=settings' : row.redirect,
      created: false,
    };
  } catch (err) {
    if (qrToken) await failQr(db, qrToken, err);
    throw err;
  }
}

/** The desktop's QR sessions: sign in, bind WeChat to the signed-in account, or replace its WeChat (rebind). */
export type QrPurpose = 'pc_login' | 'pc_bind' | 'pc_rebind';

/**
 * pc/h5.genqrcode and pc/wechat.rebind.genqrcode: a new QR session for the desktop (pc_bind and pc_rebind: for the
 * signed-in viewer's account).
 */
export async function createQrSession(
  db: Kysely<DB>,
  type: QrPurpose,
  context: { viewerId: number | null; siteBase: string },
): Promise<WechatQrCode> {
  await requireConfig(db);
  const forAccount = type !== 'pc_login';
  if (forAccount && context.viewerId === null) throw needLogin();
  const token = randomBytes(24).toString('base64url');
  await insertQrSession(
    db,
    { token, purpose: type, userId: forAccount ? context.viewerId : null, expiresAt: inMs(QR_TTL_MS) },
    now(),
  );
  const query = new URLSearchParams({ type: 'pc', sessionToken: token });
  return {
    sessionToken: token,
    url: `${context.siteBase}/api/v3/users/wechat/h5.oauth?${query.toString()}`,
    expiresIn: QR_TTL_MS / 1000,
  };
}

const qrExpired = () => new AppError(Code.RESOURCE_EXPIRED, msg('wechat.qrCodeExpiredRefresh'));

/**
 * pc/h5.login (pc_login and pc_bind sessions), pc/wechat/h5.bind (pc_bind) and pc/wechat.rebind.poll (pc_rebind):
 * the desktop asks whether the phone is done. Pending until then; once done, a pc_login session is started for the
 * desktop (once: the session is handed over a single time), a pc_bind or pc_rebind answers the account. A session
 * polled at a call not made for its purpose is answered as expired.
 */
export async function pollQrSession(
  db: Kysely<DB>,
  token: string,
  context: { viewerId: number | null; client: ClientInfo; purposes: readonly QrPurpose[] },
): Promise<WechatQrStatus> {
  const qr = await findQrSession(db, token);
  if (!qr || qr.expiresAt < now()) throw qrExpired();
  if (!(context.purposes as readonly string[]).includes(qr.purpose)) throw qrExpired();
  // A bind's or rebind's session is its member's: nobody else learns even that it is pending.
  const forAccount = qr.purpose !== 'pc_login';
  if (forAccount && qr.userId !== context.viewerId) throw qrExpired();
  if (qr.status === 'pending') return { status: 'pending' };
  if (qr.status === 'failed') {
    const text = qr.errorMessage ? (JSON.parse(qr.errorMessage) as { zh: string; en: string } | string) : undefined;
    throw new AppError((qr.errorCode ?? Code.EXTERNAL_API_ERROR) as CodeValue, text);
  }
  if (!(await moveQrSession(db, token, 'done', { status: 'taken' }))) throw qrExpired();
  const user = qr.userId === null ? undefined : await findUserById(db, qr.userId);
  if (!user) throw qrExpired();
  if (forAccount) return { status: 'done', userId: user.id, userStatus: user.status };
  const session = await signIn(db, user, context.client);
  return { status: 'done', ...session };
}

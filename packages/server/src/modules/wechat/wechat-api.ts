import { Code } from '@luntan/shared';
import { AppError } from '../../core/errors.js';
import { msg } from '../../i18n/index.js';

/**
 * WeChat's official-account web sign-in (网页授权), reached with fetch at a configurable base address so that tests
 * speak to a local stand-in: the authorize page on open.weixin.qq.com, then sns/oauth2/access_token and
 * sns/userinfo on the API.
 */

export const WECHAT_API_BASE = 'https://api.weixin.qq.com';
export const WECHAT_AUTHORIZE_URL = 'https://open.weixin.qq.com/connect/oauth2/authorize';

export interface WechatConfig {
  appId: string;
  secret: string;
  apiBase: string;
}

/** The page the phone opens: WeChat asks the user, then sends the browser to `redirectUri` with code and state. */
export function authorizeUrl(config: WechatConfig, redirectUri: string, state: string): string {
  const query = new URLSearchParams({
    appid: config.appId,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'snsapi_userinfo',
    state,
  });
  return `${WECHAT_AUTHORIZE_URL}?${query.toString()}#wechat_redirect`;
}

const wechatFailed = (detail: string) =>
  new AppError(Code.EXTERNAL_API_ERROR, msg('wechat.wechatAnsweredError', { detail }));

async function call(
  config: WechatConfig,
  path: string,
  query: Record<string, string>,
): Promise<Record<string, unknown>> {
  const url = `${config.apiBase.replace(/\/+$/, '')}${path}?${new URLSearchParams(query).toString()}`;
  let body: Record<string, unknown>;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    if (!res.ok) throw wechatFailed(`HTTP ${res.status}`);
    body = (await res.json()) as Record<string, unknown>;
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw wechatFailed(err instanceof Error ? err.message : 'unreachable');
  }
  if (typeof body.errcode === 'number' && body.errcode !== 0) {
    throw wechatFailed(`${body.errcode} ${typeof body.errmsg === 'string' ? body.errmsg : ''}`.trim());
  }
  return body;
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');

export interface WechatUser {
  openid: string;
  /** Present when the official account is tied to an open platform account: the same person across the apps. */
  unionid: string;
  nickname: string;
  avatarUrl: string;
}

/** Exchanges the code for an access token and the user's ids, then reads their profile. */
export async function wechatUserFromCode(config: WechatConfig, code: string): Promise<WechatUser> {
  const token = await call(config, '/sns/oauth2/access_token', {
    appid: config.appId,
    secret: config.secret,
    code,
    grant_type: 'authorization_code',
  });
  const accessToken = str(token.access_token);
  const openid = str(token.openid);
  if (!accessToken || !openid) throw wechatFailed('no access_token');
  const info = await call(config, '/sns/userinfo', { access_token: accessToken, openid, lang: 'zh_CN' });
  return {
    openid,
    unionid: str(info.unionid) || str(token.unionid),
    nickname: str(info.nickname),
    avatarUrl: str(info.headimgurl),
  };
}

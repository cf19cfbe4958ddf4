import {
  Code,
  type Forum,
  type LinkedAccounts,
  type WechatQrCode,
  type WechatQrStatus,
  type WechatSignIn,
} from '@luntan/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, buildUser, startTestServer, type TestServer } from '../../test/harness.js';
import { CookieJar, FORUM_ORIGIN } from '../../test/oidc-fixtures.js';
import { startStandIn, type StandIn } from '../../test/stand-in-server.js';

let t: TestServer;
let admin: string;
let wechat: StandIn;

/**
 * WeChat's API played locally: code `c-<openid>` (or `c-<openid>-u-<unionid>`) gives that user; `bad` is refused.
 */
function wechatStandIn(url: string): { status: number; body: string } {
  const u = new URL(url, 'http://x');
  const json = (body: object) => ({ status: 200, body: JSON.stringify(body) });
  if (u.pathname === '/sns/oauth2/access_token') {
    const m = /^c-([\w-]+?)(?:-u-(\w+))?$/.exec(u.searchParams.get('code') ?? '');
    if (u.searchParams.get('appid') !== 'wx-app' || u.searchParams.get('secret') !== 'wx-secret' || !m) {
      return json({ errcode: 40029, errmsg: 'invalid code' });
    }
    return json({ access_token: `at.${m[1]}.${m[2] ?? ''}`, expires_in: 7200, openid: m[1], scope: 'snsapi_userinfo' });
  }
  if (u.pathname === '/sns/userinfo') {
    const [, openid, unionid] = (u.searchParams.get('access_token') ?? '').split('.');
    if (openid !== u.searchParams.get('openid')) return json({ errcode: 40001, errmsg: 'invalid credential' });
    return json({ openid, nickname: `微信${openid}`, headimgurl: '', ...(unionid ? { unionid } : {}) });
  }
  return { status: 404, body: 'no' };
}

const configure = (appId: string) =>
  t.post(
    '/api/settings.v2',
    {
      data: [
        { key: 'wechatAppId', tag: 'wechat', value: appId },
        { key: 'wechatAppSecret', tag: 'wechat', value: 'wx-secret' },
        { key: 'wechatApiBase', tag: 'wechat', value: wechat.origin },
      ],
    },
    admin,
  );

/** A phone's browser: h5.oauth, then (WeChat having sent it back with a code) the call the page makes. */
async function phone(
  query: string,
  options: { token?: string; jar?: CookieJar } = {},
): Promise<{ location: string; state: string; jar: CookieJar }> {
  const jar = options.jar ?? new CookieJar();
  if (options.token) jar.cookies.set('access_token', options.token);
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/v3/users/wechat/h5.oauth?${query}`,
    headers: { cookie: jar.header() },
  });
  expect(res.statusCode).toBe(302);
  const set = res.headers['set-cookie'];
  jar.take(Array.isArray(set) ? set : set ? [set] : []);
  const location = String(res.headers.location);
  const state = location.startsWith('https://') ? new URL(location).searchParams.get('state')! : '';
  return { location, state, jar };
}

async function finish<T = WechatSignIn>(call: string, code: string, state: string, jar: CookieJar) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/v3/users/wechat/${call}?code=${code}&state=${encodeURIComponent(state)}`,
    headers: { cookie: jar.header() },
  });
  const set = res.headers['set-cookie'];
  const cookies = new CookieJar();
  cookies.take(Array.isArray(set) ? set : set ? [set] : []);
  return { body: res.json<{ Code: number; Data: T }>(), accessToken: cookies.cookies.get('access_token') };
}

/** Signs in on a phone with WeChat user `openid` from start to end. */
async function wechatLogin(code: string, query = 'type=login') {
  const { state, jar } = await phone(query);
  return finish('h5.login', code, state, jar);
}

const forumAs = async (token: string) => (await t.get<Forum>('/api/v3/forum', token)).Data;
const wechatOf = async (token: string) =>
  (await t.get<LinkedAccounts>('/api/v3/oauth/identities', token)).Data.accounts.find((a) => a.kind === 'wechat');

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login(ADMIN.username, ADMIN.password);
  wechat = await startStandIn((r) => wechatStandIn(r.url));
  await t.post('/api/settings.v2', { data: [{ key: 'siteUrl', tag: 'default', value: FORUM_ORIGIN }] }, admin);
});
afterAll(async () => {
  await t.close();
  await wechat.close();
});

describe('WeChat sign-in on the phone', () => {
  it('is off until an app id and secret are set', async () => {
    expect((await t.get<{ wechat: boolean }>('/api/v3/oauth/providers')).Data.wechat).toBe(false);
    expect((await phone('type=login')).location).toBe('/user/login?oauthError=unknownProvider');
    expect((await t.get('/api/v3/users/pc/wechat/h5.genqrcode')).Code).toBe(Code.UNAUTHORIZED);
    expect((await configure('wx-app')).Code).toBe(0);
    expect((await t.get<{ wechat: boolean }>('/api/v3/oauth/providers')).Data.wechat).toBe(true);
  });

  it('h5.oauth sends the phone to WeChat’s authorize page', async () => {
    const { location, state, jar } = await phone('redirect=/thread/2');
    const url = new URL(location);
    expect(`${url.origin}${url.pathname}`).toBe('https://open.weixin.qq.com/connect/oauth2/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      appid: 'wx-app',
      redirect_uri: `${FORUM_ORIGIN}/user/wx-auth?type=login`,
      response_type: 'code',
      scope: 'snsapi_userinfo',
      state,
    });
    expect(url.hash).toBe('#wechat_redirect');
    expect(jar.cookies.get('luntan_wx_state')).toBe(state);
  });

  it('h5.login creates the account, then signs the same WeChat user in to it', async () => {
    const { state, jar } = await phone('redirect=/thread/2');
    const first = await finish('h5.login', 'c-openA-u-unionA', state, jar);
    expect(first.body.Code).toBe(0);
    expect(first.body.Data).toMatchObject({ redirect: '/thread/2', created: true, userStatus: 0 });
    expect(first.accessToken).toBe(first.body.Data.accessToken);
    const viewer = (await forumAs(first.accessToken!)).user!;
    expect(viewer.nickname).toBe('微信openA');
    expect(viewer.userId).toBe(first.body.Data.userId);

    // The unionid identifies the person: another openid of the same union signs in to the same account.
    const again = await wechatLogin('c-openA2-u-unionA');
    expect(again.body.Data).toMatchObject({ userId: viewer.userId, created: false, redirect: '/' });

    // The state is used once and belongs to the browser that started.
    expect((await finish('h5.login', 'c-openA', state, jar)).body.Code).toBe(Code.RESOURCE_EXPIRED);
    const other = await phone('type=login');
    expect((await finish('h5.login', 'c-openA', other.state, new CookieJar())).body.Code).toBe(Code.RESOURCE_EXPIRED);
    // WeChat refuses the code: a written error, not a 500.
    const bad = await wechatLogin('bad');
    expect(bad.body.Code).toBe(Code.EXTERNAL_API_ERROR);
  });

  it('binds WeChat to a signed-in account, refuses one bound elsewhere, and rebinds', async () => {
    const bob = await buildUser(t);
    expect(await wechatOf(bob.token)).toMatchObject({ linked: false, enabled: true });
    // Binding needs a login.
    expect((await phone('type=bind')).location).toBe('/user/login?oauthError=needLogin');

    const bind = await phone('type=bind', { token: bob.token });
    expect(new URL(bind.location).searchParams.get('redirect_uri')).toBe(`${FORUM_ORIGIN}/user/wx-auth?type=bind`);
    // The state of a bind is finished by h5.bind only.
    const wrongCall = await finish('h5.login', 'c-openB', bind.state, bind.jar);
    expect(wrongCall.body.Code).toBe(Code.RESOURCE_EXPIRED);
    const bind2 = await phone('type=bind', { token: bob.token });
    const bound = await finish('h5.bind', 'c-openB', bind2.state, bind2.jar);
    expect(bound.body.Code).toBe(0);
    expect(bound.body.Data).toMatchObject({ userId: bob.id, redirect: '/my?tab=settings' });
    expect(bound.accessToken).toBeUndefined();
    expect(await wechatOf(bob.token)).toMatchObject({ linked: true, displayName: '微信openB' });
    expect((await wechatLogin('c-openB')).body.Data.userId).toBe(bob.id);

    // A second WeChat for bob: bind refuses (rebind is the call), and carol may not take bob's.
    const again = await phone('type=bind', { token: bob.token });
    expect((await finish('h5.bind', 'c-openB2', again.state, again.jar)).body.Code).toBe(Code.RESOURCE_EXIST);
    const carol = await buildUser(t);
    const steal = await phone('type=bind', { token: carol.token });
    expect((await finish('h5.bind', 'c-openB', steal.state, steal.jar)).body.Code).toBe(Code.RESOURCE_EXIST);

    const rebind = await phone('type=rebind', { token: bob.token });
    expect((await finish('h5.rebind', 'c-openB3', rebind.state, rebind.jar)).body.Code).toBe(0);
    expect((await wechatLogin('c-openB3')).body.Data.userId).toBe(bob.id);
    // The old WeChat is free again: it signs in to a new account.
    expect((await wechatLogin('c-openB')).body.Data).toMatchObject({ created: true });

    // Unbinding: bob has a password, so he may.
    expect((await t.post('/api/v3/oauth/unlink', { kind: 'wechat' }, bob.token)).Code).toBe(0);
    expect(await wechatOf(bob.token)).toMatchObject({ linked: false });
  });

  it('honours registerClose for a new WeChat user', async () => {
    await t.post('/api/settings.v2', { data: [{ key: 'registerClose', tag: 'default', value: true }] }, admin);
    try {
      const refused = await wechatLogin('c-openClosed');
      expect(refused.body.Code).toBe(Code.UNAUTHORIZED);
      expect(refused.accessToken).toBeUndefined();
    } finally {
      await t.post('/api/settings.v2', { data: [{ key: 'registerClose', tag: 'default', value: false }] }, admin);
    }
  });
});

describe('WeChat sign-in on the desktop with a QR code', () => {
  const poll = async (
    sessionToken: string,
    token?: string,
    call = 'pc/wechat/h5.login',
    headers: Record<string, string> = {},
  ) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v3/users/${call}?sessionToken=${sessionToken}`,
      headers: { ...(token ? { cookie: `access_token=${token}` } : {}), ...headers },
    });
    const set = res.headers['set-cookie'];
    const jar = new CookieJar();
    jar.take(Array.isArray(set) ? set : set ? [set] : []);
    return { body: res.json<{ Code: number; Data: WechatQrStatus }>(), accessToken: jar.cookies.get('access_token') };
  };
  const qrPath = (qr: WechatQrCode) => qr.url.slice(`${FORUM_ORIGIN}/api/v3/users/wechat/h5.oauth?`.length);

  it('signs the desktop in once the phone is done', async () => {
    const qr = (await t.get<WechatQrCode>('/api/v3/users/pc/wechat/h5.genqrcode')).Data;
    expect(qr.url).toBe(`${FORUM_ORIGIN}/api/v3/users/wechat/h5.oauth?type=pc&sessionToken=${qr.sessionToken}`);
    expect(qr.expiresIn).toBe(300);
    expect((await poll(qr.sessionToken)).body.Data).toEqual({ status: 'pending' });

    // The phone scans the code and goes through WeChat; it gets no session of its own.
    const scanned = await phone(qrPath(qr));
    expect(new URL(scanned.location).searchParams.get('redirect_uri')).toBe(`${FORUM_ORIGIN}/user/wx-auth?type=pc`);
    const onPhone = await finish('h5.login', 'c-openPC', scanned.state, scanned.jar);
    expect(onPhone.body.Data).toMatchObject({ created: true });
    expect(onPhone.accessToken).toBeUndefined();

    // Another site's link or image asking for the session (login CSRF: the attacker's QR code, the victim's
    // browser) gets nothing, and the session stays for the desktop that made the code.
    for (const site of ['cross-site', 'same-site']) {
      const stolen = await poll(qr.sessionToken, undefined, 'pc/wechat/h5.login', { 'sec-fetch-site': site });
      expect(stolen.body.Code).toBe(Code.UNAUTHORIZED);
      expect(stolen.accessToken).toBeUndefined();
    }
    const done = await poll(qr.sessionToken, undefined, 'pc/wechat/h5.login', { 'sec-fetch-site': 'same-origin' });
    expect(done.body.Data).toMatchObject({ status: 'done', userId: onPhone.body.Data.userId });
    expect(done.accessToken).toBe(done.body.Data.accessToken);
    expect((await forumAs(done.accessToken!)).user!.userId).toBe(onPhone.body.Data.userId);
    // The session is handed over once; an unknown token is expired too.
    expect((await poll(qr.sessionToken)).body.Code).toBe(Code.RESOURCE_EXPIRED);
    expect((await poll('nope')).body.Code).toBe(Code.RESOURCE_EXPIRED);
    // The used QR code cannot be scanned again.
    expect((await phone(qrPath(qr))).location).toBe('/user/login?oauthError=state');
  });

  it('binds WeChat to the desktop’s account, and tells the desktop when the phone was refused', async () => {
    expect((await t.get('/api/v3/users/pc/wechat/h5.genqrcode?type=pc_bind')).Code).toBe(Code.JUMP_TO_LOGIN);
    const dora = await buildUser(t);
    const qr = (await t.get<WechatQrCode>('/api/v3/users/pc/wechat/h5.genqrcode?type=pc_bind', dora.token)).Data;
    const scanned = await phone(qrPath(qr));
    expect((await finish('h5.login', 'c-openDora', scanned.state, scanned.jar)).body.Code).toBe(0);
    const done = await poll(qr.sessionToken, dora.token);
    expect(done.body.Data).toMatchObject({ status: 'done', userId: dora.id });
    expect(done.accessToken).toBeUndefined();
    expect(await wechatOf(dora.token)).toMatchObject({ linked: true });

    await t.post('/api/settings.v2', { data: [{ key: 'registerClose', tag: 'default', value: true }] }, admin);
    try {
      const login = (await t.get<WechatQrCode>('/api/v3/users/pc/wechat/h5.genqrcode')).Data;
      const phoneSide = await phone(qrPath(login));
      expect((await finish('h5.login', 'c-openRefused', phoneSide.state, phoneSide.jar)).body.Code).toBe(
        Code.UNAUTHORIZED,
      );
      const desk = await poll(login.sessionToken);
      expect(desk.body.Code).toBe(Code.UNAUTHORIZED);
      expect(desk.accessToken).toBeUndefined();
    } finally {
      await t.post('/api/settings.v2', { data: [{ key: 'registerClose', tag: 'default', value: false }] }, admin);
    }
  });

  it('binds (pc/wechat/h5.bind) and rebinds (wechat.rebind.genqrcode, .poll) the desktop’s account', async () => {
    for (const call of [
      'pc/wechat.rebind.genqrcode',
      'pc/wechat.rebind.poll?sessionToken=x',
      'pc/wechat/h5.bind?sessionToken=x',
    ]) {
      expect((await t.get(`/api/v3/users/${call}`)).Code, call).toBe(Code.JUMP_TO_LOGIN);
    }
    const erin = await buildUser(t);
    const bindQr = (await t.get<WechatQrCode>('/api/v3/users/pc/wechat/h5.genqrcode?type=pc_bind', erin.token)).Data;
    expect((await poll(bindQr.sessionToken, erin.token, 'pc/wechat/h5.bind')).body.Data).toEqual({ status: 'pending' });
    const bindScan = await phone(qrPath(bindQr));
    expect((await finish('h5.login', 'c-openErin1', bindScan.state, bindScan.jar)).body.Code).toBe(0);
    const bound = await poll(bindQr.sessionToken, erin.token, 'pc/wechat/h5.bind');
    expect(bound.body.Data).toEqual({ status: 'done', userId: erin.id, userStatus: 0 });
    expect(bound.accessToken).toBeUndefined();

    const rebindQr = (
      await t.get<WechatQrCode>('/apiv3/users/pc/wechat.rebind.genqrcode?redirectUri=%2Fmy', erin.token)
    ).Data;
    expect(rebindQr.url).toBe(
      `${FORUM_ORIGIN}/api/v3/users/wechat/h5.oauth?type=pc&sessionToken=${rebindQr.sessionToken}`,
    );
    // A rebind's session is polled at its own call only: not where a desktop signs in, nor another member's.
    expect((await poll(rebindQr.sessionToken, erin.token, 'pc/wechat/h5.bind')).body.Code).toBe(Code.RESOURCE_EXPIRED);
    expect((await poll(rebindQr.sessionToken, undefined)).body.Code).toBe(Code.RESOURCE_EXPIRED);
    const other = await buildUser(t);
    expect((await poll(rebindQr.sessionToken, other.token, 'pc/wechat.rebind.poll')).body.Code).toBe(
      Code.RESOURCE_EXPIRED,
    );
    expect((await poll(rebindQr.sessionToken, erin.token, 'pc/wechat.rebind.poll')).body.Data).toEqual({
      status: 'pending',
    });
    const scan = await phone(qrPath(rebindQr));
    expect((await finish('h5.login', 'c-openErin2', scan.state, scan.jar)).body.Code).toBe(0);
    const rebound = await poll(rebindQr.sessionToken, erin.token, 'pc/wechat.rebind.poll');
    expect(rebound.body.Data).toEqual({ status: 'done', userId: erin.id, userStatus: 0 });
    expect((await wechatLogin('c-openErin2')).body.Data).toMatchObject({ userId: erin.id, created: false });
    // The old WeChat is free again: it signs in to a new account.
    expect((await wechatLogin('c-openErin1')).body.Data).toMatchObject({ created: true });

    // A WeChat bound to another account is refused on the phone, and the desktop's poll says so.
    const taken = (await t.get<WechatQrCode>('/api/v3/users/pc/wechat.rebind.genqrcode', erin.token)).Data;
    const takenScan = await phone(qrPath(taken));
    expect((await finish('h5.login', 'c-openErin1', takenScan.state, takenScan.jar)).body.Code).toBe(
      Code.RESOURCE_EXIST,
    );
    expect((await poll(taken.sessionToken, erin.token, 'pc/wechat.rebind.poll')).body.Code).toBe(Code.RESOURCE_EXIST);
    expect((await wechatLogin('c-openErin2')).body.Data.userId).toBe(erin.id);
  });
});

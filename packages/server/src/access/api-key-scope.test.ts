import {
  Code,
  type ApiKeyCreated,
  type Forum,
  type LinkedAccounts,
  type OauthProviderAdminItem,
  type WechatQrCode,
  type WechatQrStatus,
  type WechatSignIn,
} from '@luntan/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../test/fixture.js';
import { CLIENT, CookieJar, FORUM_ORIGIN, signInWithIdp, startTestIdp, type TestIdp } from '../test/oidc-fixtures.js';
import { startStandIn, type StandIn } from '../test/stand-in-server.js';

/*
 * An API key lets a program act in the forum as its member; it must never let its holder become that member. Were a
 * key (even a read one) able to start a WeChat or provider binding, its holder would bind their own account to the
 * member and then sign in as them with every right.
 */

const t = useTestServer();
const SLUG = 'key-idp';
const NO_IDENTITY = 'API 密钥不能登录、注册、绑定或解绑账号，也不能修改密码、支付密码、手机号或邮箱';
let wechat: StandIn;
let idp: TestIdp;

/** WeChat's API played locally: code `c-<openid>` is WeChat user <openid>. */
function wechatStandIn(url: string): { status: number; body: string } {
  const u = new URL(url, 'http://x');
  const json = (body: object) => ({ status: 200, body: JSON.stringify(body) });
  const openid = /^c-(\w+)$/.exec(u.searchParams.get('code') ?? '')?.[1];
  if (u.pathname === '/sns/oauth2/access_token' && openid) {
    return json({ access_token: `at.${openid}`, expires_in: 7200, openid, scope: 'snsapi_userinfo' });
  }
  if (u.pathname === '/sns/userinfo') {
    const id = u.searchParams.get('openid');
    return json({ openid: id, nickname: `微信${id}`, headimgurl: '' });
  }
  return json({ errcode: 40029, errmsg: 'invalid code' });
}

beforeAll(async () => {
  wechat = await startStandIn((r) => wechatStandIn(r.url));
  idp = await startTestIdp([`${FORUM_ORIGIN}/api/v3/oauth/${SLUG}/callback`]);
  const settings = await t.post(
    '/api/settings.v2',
    {
      data: [
        { key: 'siteUrl', tag: 'default', value: FORUM_ORIGIN },
        { key: 'wechatAppId', tag: 'wechat', value: 'wx-app' },
        { key: 'wechatAppSecret', tag: 'wechat', value: 'wx-secret' },
        { key: 'wechatApiBase', tag: 'wechat', value: wechat.origin },
      ],
    },
    t.admin,
  );
  expect(settings.Code, settings.Message).toBe(0);
  const provider = await t.post<OauthProviderAdminItem>(
    '/api/backAdmin/oauth/providers.save',
    {
      slug: SLUG,
      issuer: idp.issuer,
      clientId: CLIENT.id,
      clientSecret: CLIENT.secret,
      labelZh: '身份',
      labelEn: 'IdP',
    },
    t.admin,
  );
  expect(provider.Code, provider.Message).toBe(0);
});
afterAll(async () => {
  await wechat.close();
  await idp.close();
});

/** A member, with a read key and a write key an administrator made for them. */
async function memberWithKeys() {
  const member = await t.buildMember();
  const make = async (scope: 'read' | 'write') => {
    const made = await t.post<ApiKeyCreated>(
      '/api/backAdmin/apikeys',
      { name: scope, scope, userId: member.id },
      t.admin,
    );
    expect(made.Code, made.Message).toBe(0);
    return made.Data.key;
  };
  return { member, read: await make('read'), write: await make('write') };
}

/** A phone's browser finishing a desktop's QR session with WeChat user `code`. */
async function scanWithPhone(qr: WechatQrCode, code: string) {
  const jar = new CookieJar();
  const start = await t.app.inject({ method: 'GET', url: qr.url.slice(FORUM_ORIGIN.length) });
  const set = start.headers['set-cookie'];
  jar.take(Array.isArray(set) ? set : set ? [set] : []);
  const state = new URL(String(start.headers.location)).searchParams.get('state')!;
  const finish = await t.app.inject({
    method: 'GET',
    url: `/api/v3/users/wechat/h5.login?code=${code}&state=${encodeURIComponent(state)}`,
    headers: { cookie: jar.header() },
  });
  return finish.json<{ Code: number; Data: WechatSignIn }>();
}

/** A WeChat sign-in on a phone, start to end: the account the WeChat user gets. */
async function wechatSignIn(code: string) {
  const jar = new CookieJar();
  const start = await t.app.inject({ method: 'GET', url: '/api/v3/users/wechat/h5.oauth?type=login' });
  const set = start.headers['set-cookie'];
  jar.take(Array.isArray(set) ? set : set ? [set] : []);
  const state = new URL(String(start.headers.location)).searchParams.get('state')!;
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/v3/users/wechat/h5.login?code=${code}&state=${encodeURIComponent(state)}`,
    headers: { cookie: jar.header() },
  });
  return res.json<{ Code: number; Data: WechatSignIn }>().Data;
}

describe('an API key and the ways of signing in', () => {
  it('may not start a WeChat binding (the read-key takeover), while the member’s session may', async () => {
    const { member, read, write } = await memberWithKeys();
    for (const key of [read, write]) {
      const qr = await t.get('/api/v3/users/pc/wechat/h5.genqrcode?type=pc_bind', key);
      expect(qr.Code).toBe(Code.UNAUTHORIZED);
      expect(qr.Message).toBe(NO_IDENTITY);
      for (const call of [
        'pc/wechat.rebind.genqrcode',
        'wechat/h5.bind?code=c-x&state=s',
        'wechat/h5.rebind?code=c-x&state=s',
        'pc/wechat/h5.bind?sessionToken=x',
        'pc/wechat.rebind.poll?sessionToken=x',
      ]) {
        expect((await t.get(`/api/v3/users/${call}`, key)).Code, call).toBe(Code.UNAUTHORIZED);
      }
      // h5.oauth with a binding type answers the refusal itself, never a redirect to WeChat.
      for (const type of ['bind', 'rebind']) {
        const start = await t.call('GET', `/api/v3/users/wechat/h5.oauth?type=${type}`, { token: key });
        expect(start.status, type).toBe(200);
        expect(start.body.Code, type).toBe(Code.UNAUTHORIZED);
        expect(start.headers.location, type).toBeUndefined();
      }
    }
    // The attacker's WeChat is bound to nobody: signing in with it makes a new account, never the member's.
    const attacker = await wechatSignIn('c-attacker');
    expect(attacker.created).toBe(true);
    expect(attacker.userId).not.toBe(member.id);

    // The member, signed in, binds their own WeChat as before.
    const qr = await t.get<WechatQrCode>('/api/v3/users/pc/wechat/h5.genqrcode?type=pc_bind', member.token);
    expect(qr.Code, qr.Message).toBe(0);
    expect((await scanWithPhone(qr.Data, 'c-owner')).Code).toBe(0);
    const done = await t.get<WechatQrStatus>(
      `/api/v3/users/pc/wechat/h5.bind?sessionToken=${qr.Data.sessionToken}`,
      member.token,
    );
    expect(done.Data).toMatchObject({ status: 'done', userId: member.id });
    expect((await wechatSignIn('c-owner')).userId).toBe(member.id);
  });

  it('may not link a provider’s account (oauth start with link=1) nor unlink one, while the session may', async () => {
    const { member, read, write } = await memberWithKeys();
    for (const key of [read, write]) {
      const start = await t.call('GET', `/api/v3/oauth/${SLUG}/start?link=1`, { token: key });
      expect(start.status).toBe(200);
      expect(start.body.Code).toBe(Code.UNAUTHORIZED);
      expect(start.body.Message).toBe(NO_IDENTITY);
      expect(start.headers['set-cookie']).toBeUndefined();
      expect((await t.call('GET', `/api/v3/oauth/${SLUG}/start`, { token: key })).body.Code).toBe(Code.UNAUTHORIZED);
    }
    expect((await t.post('/api/v3/oauth/unlink', { kind: 'wechat' }, write)).Code).toBe(Code.UNAUTHORIZED);

    const login = 'sub-key-owner';
    idp.accounts.set(login, { sub: login, preferred_username: 'owner', name: 'owner', email: 'owner@example.com' });
    const linked = await signInWithIdp(t.current, SLUG, login, { token: member.token, link: true });
    expect(linked.location).toBe('/my?tab=settings');
    const accounts = (await t.get<LinkedAccounts>('/api/v3/oauth/identities', member.token)).Data.accounts;
    expect(accounts.find((a) => a.kind === 'oidc')).toMatchObject({ linked: true });
  });

  it('may not sign in, nor change a password, pay password, mobile number or e-mail address', async () => {
    const { member, write } = await memberWithKeys();
    const refused: [string, object][] = [
      ['/api/v3/users/update.user', { password: member.password, newPassword: 'taken-over-1' }],
      ['/api/v3/users/update.user', { username: 'keyrenamed' }],
      ['/api/v3/users/pay-password/reset', { password: member.password, payPassword: '123456' }],
      ['/api/v3/users/sms.reset.pay.pwd', { mobile: '13800000000', code: '123456', payPassword: '123456' }],
      ['/api/v3/users/sms.send', { mobile: '13800000000', type: 'bind' }],
      ['/api/v3/users/sms.bind', { mobile: '13800000000', code: '123456' }],
      ['/api/v3/users/sms.rebind', { mobile: '13800000000', code: '123456' }],
      ['/api/v3/users/email.bind', { email: 'key@example.com' }],
      ['/api/v3/users/password.reset', { token: 'x', password: 'taken-over-1' }],
      ['/api/v3/users/username.login', { username: member.username, password: member.password }],
    ];
    for (const [url, body] of refused) {
      const res = await t.post(url, body, write);
      expect(res.Code, url).toBe(Code.UNAUTHORIZED);
      expect(res.Message, url).toBe(NO_IDENTITY);
    }
    // The rest of the profile is the key's to change; the password is the session's.
    expect((await t.post('/api/v3/users/update.user', { nickname: '改名了' }, write)).Code).toBe(0);
    const changed = await t.post(
      '/api/v3/users/update.user',
      { password: member.password, newPassword: 'new-pass-1' },
      member.token,
    );
    expect(changed.Code, changed.Message).toBe(0);
  });

  it('with the read scope still reads, but may not make a GET that changes state', async () => {
    const { member, read, write } = await memberWithKeys();
    expect((await t.get<Forum>('/api/v3/forum', read)).Data.user?.userId).toBe(member.id);
    expect((await t.get('/api/v3/thread.list', read)).Code).toBe(0);
    expect((await t.get('/api/v3/oauth/identities', read)).Code).toBe(0);
    // Listing the notices marks them read: a write.
    const notices = await t.get('/api/v3/notification', read);
    expect(notices.Code).toBe(Code.UNAUTHORIZED);
    expect(notices.Message).toBe('这个 API 密钥只能读取，不能写入');
    expect((await t.get('/api/v3/notification', write)).Code).toBe(0);
  });
});

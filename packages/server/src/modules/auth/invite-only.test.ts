import { Code, type Envelope, type Forum, type OauthProviderAdminItem, type SessionData } from '@luntan/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startTestServer, type TestServer } from '../../test/harness.js';
import {
  CLIENT,
  CookieJar,
  FORUM_ORIGIN,
  signInWithIdp,
  startTestIdp,
  type TestIdp,
} from '../../test/oidc-fixtures.js';
import { randomMobile, SMS_TEST_ENV, SmsLog } from '../../test/sms-log.js';
import { startStandIn, type StandIn } from '../../test/stand-in-server.js';

/**
 * registerInviteOnly holds for every way of joining: a first sign-in by SMS, with WeChat or with an OpenID Connect
 * provider carries no invitation, so it is refused as username.register without a code is; members who already
 * have an account still sign in those ways.
 */
let t: TestServer;
let log: SmsLog;
let admin: string;
let wechat: StandIn;
let idp: TestIdp;
const SLUG = 'invite-idp';

const setSettings = async (data: { key: string; value: string | boolean; tag?: string }[]) => {
  const res = await t.post('/api/settings.v2', { data: data.map((d) => ({ tag: 'default', ...d })) }, admin);
  expect(res.Code).toBe(0);
};

/** Runs `body` while only invited newcomers may register. */
async function inviteOnly(body: () => Promise<void>): Promise<void> {
  await setSettings([{ key: 'registerInviteOnly', value: true }]);
  try {
    await body();
  } finally {
    await setSettings([{ key: 'registerInviteOnly', value: false }]);
  }
}

const inLocale = async (locale: 'zh' | 'en', url: string, body: unknown) =>
  (await t.call('POST', url, { body, headers: { cookie: `locale=${locale}` } })).body;

/** What username.register answers without an invitation code, in both languages. */
async function registerRefusal(): Promise<Record<'zh' | 'en', Envelope<unknown>>> {
  const body = { username: `inv_${Date.now() % 1_000_000}`, password: 'password-123' };
  const answers = {
    zh: await inLocale('zh', '/api/v3/users/username.register', body),
    en: await inLocale('en', '/api/v3/users/username.register', body),
  };
  expect(answers.zh).toMatchObject({ Code: Code.INVALID_PARAMETER, Data: { field: 'inviteCode' } });
  expect(answers.zh.Message).toContain('受邀');
  expect(answers.en.Message).toContain('invitation');
  return answers;
}

/** The same refusal: code, sentence and field. */
const sameRefusal = (answer: Envelope<unknown>, reference: Envelope<unknown>) =>
  expect({ Code: answer.Code, Message: answer.Message, Data: answer.Data }).toEqual({
    Code: reference.Code,
    Message: reference.Message,
    Data: reference.Data,
  });

const userCount = async () =>
  Number(
    (
      await t.app.ctx.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** WeChat's API played locally: code `c-<openid>` gives that user. */
function wechatStandIn(url: string): { status: number; body: string } {
  const u = new URL(url, 'http://x');
  const json = (body: object) => ({ status: 200, body: JSON.stringify(body) });
  if (u.pathname === '/sns/oauth2/access_token') {
    const openid = /^c-([\w-]+)$/.exec(u.searchParams.get('code') ?? '')?.[1];
    if (!openid) return json({ errcode: 40029, errmsg: 'invalid code' });
    return json({ access_token: `at.${openid}`, expires_in: 7200, openid, scope: 'snsapi_userinfo' });
  }
  if (u.pathname === '/sns/userinfo') {
    const openid = (u.searchParams.get('access_token') ?? '').slice('at.'.length);
    return json({ openid, nickname: `微信${openid}`, headimgurl: '' });
  }
  return { status: 404, body: 'no' };
}

/** A phone signing in with WeChat user `openid`, from h5.oauth to h5.login. */
async function wechatLogin(openid: string, locale: 'zh' | 'en' = 'zh') {
  const jar = new CookieJar();
  jar.cookies.set('locale', locale);
  const start = await t.app.inject({ method: 'GET', url: '/api/v3/users/wechat/h5.oauth?type=login' });
  const set = start.headers['set-cookie'];
  jar.take(Array.isArray(set) ? set : set ? [set] : []);
  const state = new URL(String(start.headers.location)).searchParams.get('state')!;
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/v3/users/wechat/h5.login?code=c-${openid}&state=${encodeURIComponent(state)}`,
    headers: { cookie: jar.header() },
  });
  return res.json<Envelope<{ userId: number; created: boolean }>>();
}

beforeAll(async () => {
  log = new SmsLog();
  t = await startTestServer({ env: SMS_TEST_ENV, logStream: log });
  admin = await t.login(ADMIN.username, ADMIN.password);
  wechat = await startStandIn((r) => wechatStandIn(r.url));
  idp = await startTestIdp([`${FORUM_ORIGIN}/api/v3/oauth/${SLUG}/callback`]);
  await setSettings([
    { key: 'siteUrl', value: FORUM_ORIGIN },
    { key: 'wechatAppId', tag: 'wechat', value: 'wx-app' },
    { key: 'wechatAppSecret', tag: 'wechat', value: 'wx-secret' },
    { key: 'wechatApiBase', tag: 'wechat', value: wechat.origin },
  ]);
  const saved = await t.post<OauthProviderAdminItem>(
    '/api/backAdmin/oauth/providers.save',
    {
      slug: SLUG,
      issuer: idp.issuer,
      clientId: CLIENT.id,
      clientSecret: CLIENT.secret,
      labelZh: '测试',
      labelEn: 'Test',
    },
    admin,
  );
  expect(saved.Code).toBe(0);
});
afterAll(async () => {
  await t.close();
  await wechat.close();
  await idp.close();
});

describe('registration by invitation only', () => {
  it('refuses a first SMS sign-in at sms.send (no code sent) and at sms.login; a member’s number still signs in', async () => {
    const send = (mobile: string, locale: 'zh' | 'en' = 'zh') =>
      inLocale(locale, '/api/v3/users/sms.send', { mobile, type: 'login' });
    const smsLogin = (mobile: string, code: string, locale: 'zh' | 'en' = 'zh') =>
      inLocale(locale, '/api/v3/users/sms.login', { mobile, code });
    const member = randomMobile('137');
    expect((await send(member)).Code).toBe(0);
    const joined = (await smsLogin(member, log.codeFor(member))) as Envelope<SessionData>;
    expect(joined.Code).toBe(0);
    // A code asked for while anyone could join, answered after the site went invitation-only.
    const early = randomMobile('137');
    expect((await send(early)).Code).toBe(0);
    const earlyCode = log.codeFor(early);

    await inviteOnly(async () => {
      const reference = await registerRefusal();
      const before = await userCount();
      const stranger = randomMobile('137');
      sameRefusal(await send(stranger), reference.zh);
      sameRefusal(await send(stranger, 'en'), reference.en);
      expect(log.messagesTo(stranger)).toHaveLength(0);
      sameRefusal(await smsLogin(early, earlyCode), reference.zh);
      expect(await userCount()).toBe(before);

      expect((await send(member)).Code).toBe(0);
      const again = (await smsLogin(member, log.codeFor(member))) as Envelope<SessionData>;
      expect(again).toMatchObject({ Code: 0, Data: { userId: joined.Data.userId } });
    });
  });

  it('refuses a first WeChat sign-in with the registration’s sentence; a linked WeChat still signs in', async () => {
    const linked = await wechatLogin('openLinked');
    expect(linked).toMatchObject({ Code: 0, Data: { created: true } });

    await inviteOnly(async () => {
      const reference = await registerRefusal();
      const before = await userCount();
      const refused = await wechatLogin('openNew');
      expect(refused.Code).toBe(reference.zh.Code);
      expect(refused.Message).toBe(reference.zh.Message);
      expect(refused.Data).toMatchObject({ field: 'inviteCode', reason: 'inviteOnly' });
      expect((await wechatLogin('openNew2', 'en')).Message).toBe(reference.en.Message);
      expect(await userCount()).toBe(before);

      expect(await wechatLogin('openLinked')).toMatchObject({
        Code: 0,
        Data: { userId: linked.Data.userId, created: false },
      });
    });
  });

  it('sends a first OpenID Connect sign-in back to the login page with inviteOnly; a linked subject still signs in', async () => {
    const known = 'known-subject';
    idp.accounts.set(known, { sub: known, preferred_username: 'known' });
    idp.accounts.set('new-subject', { sub: 'new-subject', preferred_username: 'newcomer' });
    const first = await signInWithIdp(t, SLUG, known);
    const knownId = (await t.get<Forum>('/api/v3/forum', first.accessToken)).Data.user!.userId;

    await inviteOnly(async () => {
      const before = await userCount();
      const refused = await signInWithIdp(t, SLUG, 'new-subject');
      expect(refused).toEqual({ location: '/user/login?oauthError=inviteOnly', accessToken: undefined });
      expect(await userCount()).toBe(before);

      const again = await signInWithIdp(t, SLUG, known);
      expect((await t.get<Forum>('/api/v3/forum', again.accessToken)).Data.user!.userId).toBe(knownId);
    });
  });
});

import { Code, GroupId, UserStatus, type Forum, type SessionData } from '@luntan/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, buildUser, startTestServer, type TestServer } from '../../test/harness.js';
import { buildThread, memberPermissions, setGroupPermissions } from '../../test/forum-fixtures.js';
import { randomMobile, SMS_TEST_ENV, SmsLog } from '../../test/sms-log.js';

const newMobile = () => randomMobile();
const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

let t: TestServer;
let log: SmsLog;
let admin: string;

beforeAll(async () => {
  log = new SmsLog();
  t = await startTestServer({ env: SMS_TEST_ENV, logStream: log });
  admin = await t.login(ADMIN.username, ADMIN.password);
});
afterAll(async () => {
  await t.close();
});

const send = (mobile: string, type: string, token?: string) =>
  t.post<{ interval: number }>('/api/v3/users/sms.send', { mobile, type }, token);
const smsLogin = (mobile: string, code: string) => t.post<SessionData>('/api/v3/users/sms.login', { mobile, code });
const forum = async (token: string) => (await t.get<Forum>('/api/v3/forum', token)).Data;

/** A member who signed up by SMS: their number and token. */
async function phoneMember(): Promise<{ mobile: string; token: string; userId: number }> {
  const mobile = newMobile();
  expect((await send(mobile, 'login')).Code).toBe(0);
  const res = await smsLogin(mobile, log.codeFor(mobile));
  expect(res.Code).toBe(0);
  return { mobile, token: res.Data.accessToken, userId: res.Data.userId };
}

describe('sms.send', () => {
  it('writes one log line with the number and a 6-digit code; answers the countdown', async () => {
    const mobile = newMobile();
    const res = await send(mobile, 'login');
    expect(res).toMatchObject({ Code: 0, Data: { interval: 0 } });
    const messages = log.messagesTo(mobile);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/验证码是 \d{6}，5 分钟内有效/);
  });

  it('refuses numbers outside the mainland pattern with a written sentence, and unknown types', async () => {
    for (const mobile of ['12800138000', '1380013800', '+8613800138000', '2380013800a']) {
      const res = await t.call('POST', '/api/v3/users/sms.send', {
        body: { mobile, type: 'login' },
        headers: { cookie: 'locale=en' },
      });
      expect(res.body).toMatchObject({ Code: Code.INVALID_PARAMETER, Data: { field: 'mobile' } });
      expect(res.body.Message).toBe('Enter an 11-digit mainland China mobile number');
    }
    expect((await send(newMobile(), 'hello')).Code).toBe(Code.INVALID_PARAMETER);
  });

  it('bind, rebind and verify need a signed-in member', async () => {
    for (const type of ['bind', 'rebind', 'verify']) {
      expect((await send(newMobile(), type)).Code).toBe(Code.JUMP_TO_LOGIN);
    }
  });

  it('reset_pwd for a number without an account answers success and sends nothing', async () => {
    const mobile = newMobile();
    expect((await send(mobile, 'reset_pwd')).Code).toBe(0);
    expect(log.messagesTo(mobile)).toHaveLength(0);
  });

  it('login for an unknown number is refused while registration is closed; a known number still gets its code', async () => {
    const known = await phoneMember();
    await t.post('/api/settings.v2', { data: [{ key: 'registerClose', value: true, tag: 'default' }] }, admin);
    try {
      const res = await send(newMobile(), 'login');
      expect(res).toMatchObject({ Code: Code.UNAUTHORIZED, Data: { field: 'mobile' } });
      expect((await send(known.mobile, 'login')).Code).toBe(0);
    } finally {
      await t.post('/api/settings.v2', { data: [{ key: 'registerClose', value: false, tag: 'default' }] }, admin);
    }
  });

  it('answers -9001 when no provider is configured, and the site says SMS is off', async () => {
    const off = await startTestServer();
    try {
      const res = await off.post('/api/v3/users/sms.send', { mobile: newMobile(), type: 'login' });
      expect(res.Code).toBe(Code.SMS_OFF);
      expect((await off.get<Forum>('/api/v3/forum')).Data.setSite.smsEnabled).toBe(false);
      // Keys half filled in are still off; the settings are never public.
      const offAdmin = await off.login(ADMIN.username, ADMIN.password);
      const saved = await off.post(
        '/api/settings.v2',
        { data: [{ key: 'smsProvider', value: 'tencent', tag: 'sms' }] },
        offAdmin,
      );
      expect(saved.Code).toBe(0);
      expect((await off.post('/api/v3/users/sms.login', { mobile: newMobile(), code: '123456' })).Code).toBe(
        Code.SMS_CODE_EXPIRED,
      );
      expect((await off.post('/api/v3/users/sms.send', { mobile: newMobile(), type: 'login' })).Code).toBe(
        Code.SMS_OFF,
      );
      const wrong = await off.post(
        '/api/settings.v2',
        { data: [{ key: 'smsProvider', value: 'carrier-pigeon', tag: 'sms' }] },
        offAdmin,
      );
      expect(wrong.Code).toBe(Code.INVALID_PARAMETER);
      expect(JSON.stringify((await off.get('/api/siteinfo.v2')).Data)).not.toContain('tencent');
    } finally {
      await off.close();
    }
    expect((await t.get<Forum>('/api/v3/forum')).Data.setSite.smsEnabled).toBe(true);
  });
});

describe('sms.login', () => {
  it('registers on a first sign-in: generated username, masked number as nickname; then signs in the same member', async () => {
    const mobile = newMobile();
    await send(mobile, 'login');
    const first = await t.call<SessionData>('POST', '/api/v3/users/sms.login', {
      body: { mobile, code: log.codeFor(mobile) },
    });
    expect(first.body.Code).toBe(0);
    // The same answer as username.login: the session and its cookie.
    expect(Object.keys(first.body.Data).sort()).toEqual(['accessToken', 'expiresIn', 'userId', 'userStatus']);
    expect(String(first.headers['set-cookie'])).toContain('access_token=');
    const me = (await forum(first.body.Data.accessToken)).user!;
    expect(me.nickname).toBe(`${mobile.slice(0, 3)}****${mobile.slice(7)}`);
    expect(me.mobile).toBe(me.nickname);
    expect(me.username).toMatch(/^u_[a-z0-9]{4,8}$/);
    expect(me.groups[0]?.id).toBe(GroupId.MEMBER);

    await send(mobile, 'login');
    const again = await smsLogin(mobile, log.codeFor(mobile));
    expect(again.Data.userId).toBe(first.body.Data.userId);
  });

  it('answers what username.login answers for an account under review (-3003), and registers under review', async () => {
    await t.post('/api/settings.v2', { data: [{ key: 'registerValidate', value: true, tag: 'default' }] }, admin);
    try {
      const mobile = newMobile();
      await send(mobile, 'login');
      const made = await smsLogin(mobile, log.codeFor(mobile));
      expect(made).toMatchObject({ Code: 0, Data: { userStatus: UserStatus.UNDER_REVIEW } });
      await send(mobile, 'login');
      expect((await smsLogin(mobile, log.codeFor(mobile))).Code).toBe(Code.JUMP_TO_AUDIT);
    } finally {
      await t.post('/api/settings.v2', { data: [{ key: 'registerValidate', value: false, tag: 'default' }] }, admin);
    }
  });

  it('a wrong code is -9002 with the tries left; the fifth wrong answer voids the code (-9003), right or not', async () => {
    const mobile = newMobile();
    await send(mobile, 'login');
    const code = log.codeFor(mobile);
    for (let left = 4; left >= 1; left--) {
      expect(await smsLogin(mobile, wrongCode(code))).toMatchObject({
        Code: Code.SMS_CODE_WRONG,
        Data: { triesLeft: left },
      });
    }
    expect((await smsLogin(mobile, wrongCode(code))).Code).toBe(Code.SMS_CODE_EXPIRED);
    expect((await smsLogin(mobile, code)).Code).toBe(Code.SMS_CODE_EXPIRED);
    // A new code works again.
    await send(mobile, 'login');
    expect((await smsLogin(mobile, log.codeFor(mobile))).Code).toBe(0);
  });

  it('compares at most five answers to a code, however many arrive at once', async () => {
    const mobile = newMobile();
    await send(mobile, 'login');
    const code = log.codeFor(mobile);
    const guesses = Array.from({ length: 30 }, (_, i) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'));
    // Thirty wrong guesses and, behind them, the right code, all at once.
    const answers = await Promise.all([...guesses, code].map((guess) => smsLogin(mobile, guess)));
    const codes = answers.map((a) => a.Code);
    expect(codes.filter((c) => c === Code.SMS_CODE_WRONG).length).toBeLessThanOrEqual(4);
    expect(codes.filter((c) => c !== Code.SMS_CODE_WRONG && c !== Code.SMS_CODE_EXPIRED)).toEqual([]);
    // The five tries were spent by the first guesses: the right code came too late, and stays void.
    expect(answers.at(-1)!.Code).toBe(Code.SMS_CODE_EXPIRED);
    expect((await smsLogin(mobile, code)).Code).toBe(Code.SMS_CODE_EXPIRED);
  });

  it('a code serves once; an expired code is -9003; a newer code voids the older one', async () => {
    const mobile = newMobile();
    await send(mobile, 'login');
    const code = log.codeFor(mobile);
    expect((await smsLogin(mobile, code)).Code).toBe(0);
    expect((await smsLogin(mobile, code)).Code).toBe(Code.SMS_CODE_EXPIRED);

    await send(mobile, 'login');
    const old = log.codeFor(mobile);
    await send(mobile, 'login');
    expect((await smsLogin(mobile, old)).Code).not.toBe(0);

    await send(mobile, 'login');
    const late = log.codeFor(mobile);
    await t.server.database.db
      .updateTable('smsCodes')
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where('mobile', '=', mobile)
      .execute();
    expect((await smsLogin(mobile, late)).Code).toBe(Code.SMS_CODE_EXPIRED);
  });

  it('keeps only a hash of the code', async () => {
    const mobile = newMobile();
    await send(mobile, 'login');
    const code = log.codeFor(mobile);
    const rows = await t.server.database.db.selectFrom('smsCodes').selectAll().where('mobile', '=', mobile).execute();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(code);
    expect(rows[0]!.codeHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('a code of another purpose does not sign in', async () => {
    const { mobile } = await phoneMember();
    await send(mobile, 'reset_pwd');
    expect((await smsLogin(mobile, log.codeFor(mobile))).Code).toBe(Code.SMS_CODE_EXPIRED);
  });
});

describe('binding a number', () => {
  it('binds a first number; the number then signs in to that account; the viewer shows it masked', async () => {
    const member = await buildUser(t);
    expect((await forum(member.token)).user!.mobile).toBe('');
    const mobile = newMobile();
    expect((await send(mobile, 'bind', member.token)).Code).toBe(0);
    const bind = await t.post('/api/v3/users/sms.bind', { mobile, code: log.codeFor(mobile) }, member.token);
    expect(bind.Code).toBe(0);
    expect((await forum(member.token)).user!.mobile).toBe(`${mobile.slice(0, 3)}****${mobile.slice(7)}`);
    await send(mobile, 'login');
    expect((await smsLogin(mobile, log.codeFor(mobile))).Data.userId).toBe(member.id);
    // A second bind is refused: changing needs rebind.
    expect((await send(newMobile(), 'bind', member.token)).Code).toBe(Code.RESOURCE_EXIST);
  });

  it('refuses a number bound to someone else, at sending and at binding', async () => {
    const taken = await phoneMember();
    const member = await buildUser(t);
    expect(await send(taken.mobile, 'bind', member.token)).toMatchObject({
      Code: Code.RESOURCE_EXIST,
      Data: { field: 'mobile' },
    });
    // Someone takes the number between the code and the bind.
    const mobile = newMobile();
    const other = await buildUser(t);
    await send(mobile, 'bind', member.token);
    const memberCode = log.codeFor(mobile);
    await send(mobile, 'bind', other.token);
    expect((await t.post('/api/v3/users/sms.bind', { mobile, code: log.codeFor(mobile) }, other.token)).Code).toBe(0);
    expect((await t.post('/api/v3/users/sms.bind', { mobile, code: memberCode }, member.token)).Code).toBe(
      Code.RESOURCE_EXIST,
    );
  });

  it('sms.bind needs a signed-in member and a right code', async () => {
    expect((await t.post('/api/v3/users/sms.bind', { mobile: newMobile(), code: '123456' })).Code).toBe(
      Code.JUMP_TO_LOGIN,
    );
    const member = await buildUser(t);
    const mobile = newMobile();
    await send(mobile, 'bind', member.token);
    const res = await t.post('/api/v3/users/sms.bind', { mobile, code: wrongCode(log.codeFor(mobile)) }, member.token);
    expect(res.Code).toBe(Code.SMS_CODE_WRONG);
  });
});

describe('changing the number (sms.verify, then sms.rebind)', () => {
  it('needs a verify of the current number first; the proof serves once', async () => {
    const member = await phoneMember();
    const next = newMobile();
    // verify only for one's own number.
    expect((await send(newMobile(), 'verify', member.token)).Code).toBe(Code.INVALID_PARAMETER);

    await send(next, 'rebind', member.token);
    const rebind = (code: string) => t.post('/api/v3/users/sms.rebind', { mobile: next, code }, member.token);
    expect((await rebind(log.codeFor(next))).Code).toBe(Code.UNAUTHORIZED);

    // The page knows the number only masked: verify may leave it out (the member's own then).
    expect((await t.post('/api/v3/users/sms.send', { type: 'verify' })).Code).toBe(Code.JUMP_TO_LOGIN);
    expect((await t.post('/api/v3/users/sms.send', { type: 'login' })).Code).toBe(Code.INVALID_PARAMETER);
    expect((await t.post('/api/v3/users/sms.send', { type: 'verify' }, member.token)).Code).toBe(0);
    const verify = await t.post(
      '/api/v3/users/sms.verify',
      { code: log.codeFor(member.mobile), type: 'verify' },
      member.token,
    );
    expect(verify.Code).toBe(0);
    // The refused rebind did not use the new number's code up.
    expect((await rebind(log.codeFor(next))).Code).toBe(0);
    expect((await forum(member.token)).user!.mobile).toBe(`${next.slice(0, 3)}****${next.slice(7)}`);

    // The old number is free again; the proof is spent.
    const third = newMobile();
    await send(third, 'rebind', member.token);
    expect(
      (await t.post('/api/v3/users/sms.rebind', { mobile: third, code: log.codeFor(third) }, member.token)).Code,
    ).toBe(Code.UNAUTHORIZED);
    await send(member.mobile, 'login');
    const fresh = await smsLogin(member.mobile, log.codeFor(member.mobile));
    expect(fresh.Data.userId).not.toBe(member.userId);
  });

  it('a proof older than 10 minutes does not count', async () => {
    const member = await phoneMember();
    await send(member.mobile, 'verify', member.token);
    await t.post(
      '/api/v3/users/sms.verify',
      { mobile: member.mobile, code: log.codeFor(member.mobile), type: 'verify' },
      member.token,
    );
    await t.server.database.db
      .updateTable('smsCodes')
      .set({ usedAt: new Date(Date.now() - 11 * 60_000).toISOString() })
      .where('mobile', '=', member.mobile)
      .where('type', '=', 'verify')
      .execute();
    const next = newMobile();
    await send(next, 'rebind', member.token);
    expect(
      (await t.post('/api/v3/users/sms.rebind', { mobile: next, code: log.codeFor(next) }, member.token)).Code,
    ).toBe(Code.UNAUTHORIZED);
  });

  it('rebind refuses a taken number and the current one', async () => {
    const member = await phoneMember();
    const other = await phoneMember();
    expect((await send(other.mobile, 'rebind', member.token)).Code).toBe(Code.RESOURCE_EXIST);
    expect((await send(member.mobile, 'rebind', member.token)).Code).toBe(Code.INVALID_PARAMETER);
    const unbound = await buildUser(t);
    expect((await send(newMobile(), 'rebind', unbound.token)).Code).toBe(Code.INVALID_PARAMETER);
  });

  it('sms.verify of other purposes checks without using the code up', async () => {
    const mobile = newMobile();
    await send(mobile, 'login');
    const code = log.codeFor(mobile);
    expect((await t.post('/api/v3/users/sms.verify', { mobile, code, type: 'login' })).Code).toBe(0);
    expect((await t.post('/api/v3/users/sms.verify', { mobile, code: wrongCode(code), type: 'login' })).Code).toBe(
      Code.SMS_CODE_WRONG,
    );
    expect((await smsLogin(mobile, code)).Code).toBe(0);
  });
});

describe('sms.reset.pwd', () => {
  it('sets a new password and signs out every session', async () => {
    const member = await buildUser(t);
    const mobile = newMobile();
    await send(mobile, 'bind', member.token);
    await t.post('/api/v3/users/sms.bind', { mobile, code: log.codeFor(mobile) }, member.token);
    const other = await t.login(member.username, member.password);

    await send(mobile, 'reset_pwd');
    const code = log.codeFor(mobile);
    const short = await t.post('/api/v3/users/sms.reset.pwd', { mobile, code, password: '1' });
    expect(short).toMatchObject({ Code: Code.INVALID_PARAMETER, Data: { field: 'password' } });
    const reset = await t.post('/api/v3/users/sms.reset.pwd', { mobile, code, password: 'brand-new-pass' });
    expect(reset.Code).toBe(0);
    for (const token of [member.token, other]) {
      expect((await t.get('/api/v3/notification', token)).Code).toBe(Code.JUMP_TO_LOGIN);
    }
    expect(
      (await t.post('/api/v3/users/username.login', { username: member.username, password: member.password })).Code,
    ).toBe(Code.LOGIN_FAILED);
    await t.login(member.username, 'brand-new-pass');
    // The code served once.
    expect((await t.post('/api/v3/users/sms.reset.pwd', { mobile, code, password: 'another-pass' })).Code).toBe(
      Code.SMS_CODE_EXPIRED,
    );
  });

  it('a number without an account gets -9003, like a wrong guess', async () => {
    const res = await t.post('/api/v3/users/sms.reset.pwd', {
      mobile: newMobile(),
      code: '123456',
      password: 'abcdefg',
    });
    expect(res.Code).toBe(Code.SMS_CODE_EXPIRED);
  });
});

describe('publishNeedBindPhone', () => {
  it('-8001 on thread.create and posts.create without a number; fine after binding; administrators are never stopped', async () => {
    const held = await memberPermissions(t, admin);
    const thread = await buildThread(t, admin);
    await setGroupPermissions(t, admin, GroupId.MEMBER, [...held, 'publishNeedBindPhone']);
    try {
      const member = await buildUser(t);
      const create = () =>
        t.post(
          '/api/v3/thread.create',
          { categoryId: 1, title: 'Phone first', content: { text: 'body' } },
          member.token,
        );
      const reply = () => t.post('/api/v3/posts.create', { id: thread.threadId, content: 'a reply' }, member.token);
      expect((await create()).Code).toBe(Code.NEED_BIND_PHONE);
      expect((await reply()).Code).toBe(Code.NEED_BIND_PHONE);
      expect((await buildThread(t, admin)).threadId).toBeGreaterThan(0);

      const mobile = newMobile();
      await send(mobile, 'bind', member.token);
      expect((await t.post('/api/v3/users/sms.bind', { mobile, code: log.codeFor(mobile) }, member.token)).Code).toBe(
        0,
      );
      expect((await create()).Code).toBe(0);
      expect((await reply()).Code).toBe(0);
    } finally {
      await setGroupPermissions(t, admin, GroupId.MEMBER, held);
    }
  });
});

describe('sending limits', () => {
  it('one code per number per interval, and an address budget per hour (-4029 with Retry-After)', async () => {
    const lines = new SmsLog();
    const limited = await startTestServer({
      env: { SMS_PROVIDER: 'log', RATE_LIMIT_SMS_ADDRESS: '3' },
      logStream: lines,
    });
    try {
      const sendFrom = (mobile: string, remoteAddress: string) =>
        limited.call('POST', '/api/v3/users/sms.send', { body: { mobile, type: 'login' }, remoteAddress });
      const mobile = newMobile();
      expect((await sendFrom(mobile, '10.0.0.1')).body).toMatchObject({ Code: 0, Data: { interval: 60 } });
      const again = await sendFrom(mobile, '10.0.0.2');
      expect(again.status).toBe(429);
      expect(again.body.Code).toBe(Code.TOO_MANY_REQUESTS);
      expect(Number(again.headers['retry-after'])).toBeGreaterThan(50);
      expect(lines.messagesTo(mobile)).toHaveLength(1);

      // The address: three requests an hour, whatever the number.
      expect((await sendFrom(newMobile(), '10.0.0.1')).body.Code).toBe(0);
      expect((await sendFrom(newMobile(), '10.0.0.1')).body.Code).toBe(0);
      expect((await sendFrom(newMobile(), '10.0.0.1')).body.Code).toBe(Code.TOO_MANY_REQUESTS);
      expect((await sendFrom(newMobile(), '10.0.0.3')).body.Code).toBe(0);
    } finally {
      await limited.close();
    }
  });

  it('a number gets at most SMS_DAILY_LIMIT codes a day', async () => {
    const lines = new SmsLog();
    const limited = await startTestServer({
      env: { SMS_PROVIDER: 'log', SMS_INTERVAL_SECONDS: '0', SMS_DAILY_LIMIT: '3' },
      logStream: lines,
    });
    try {
      const mobile = newMobile();
      for (let i = 0; i < 3; i++) {
        expect((await limited.post('/api/v3/users/sms.send', { mobile, type: 'login' })).Code).toBe(0);
      }
      expect((await limited.post('/api/v3/users/sms.send', { mobile, type: 'login' })).Code).toBe(
        Code.TOO_MANY_REQUESTS,
      );
      expect(lines.messagesTo(mobile)).toHaveLength(3);
    } finally {
      await limited.close();
    }
  });
});

import { Code, type Forum } from '@luntan/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setSettings, solveCaptcha } from '../../test/captcha-fixtures.js';
import { buildGroup, buildThread, memberPermissions } from '../../test/forum-fixtures.js';
import { ADMIN, buildUser, startTestServer, type TestServer } from '../../test/harness.js';

let t: TestServer;
let admin: string;

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login(ADMIN.username, ADMIN.password);
});
afterAll(async () => {
  await t.close();
});

const tampered = (payload: string) => {
  const decoded = JSON.parse(Buffer.from(payload, 'base64').toString('utf8')) as {
    solution: { counter: number; derivedKey: string };
  };
  decoded.solution.derivedKey = decoded.solution.derivedKey.replace(/^./, (c) => (c === '0' ? '1' : '0'));
  return Buffer.from(JSON.stringify(decoded)).toString('base64');
};

/** Missing, malformed, wrong: each -4001 with field captcha. */
async function expectRefusals(call: (captcha: string | undefined) => Promise<{ Code: number; Data: unknown }>) {
  for (const captcha of [undefined, 'not-a-payload', tampered(await solveCaptcha(t))]) {
    expect(await call(captcha)).toMatchObject({ Code: Code.INVALID_PARAMETER, Data: { field: 'captcha' } });
  }
}

describe('the challenge', () => {
  it('answers a signed ALTCHA challenge that is never cached', async () => {
    const res = await t.call('GET', '/api/v3/captcha/challenge');
    expect(res.body).toMatchObject({ Code: 0, Data: { parameters: { algorithm: 'SHA-256' } } });
    expect(res.headers['cache-control']).toBe('no-store');
    const data = res.body.Data as { signature: string; parameters: { expiresAt: number } };
    expect(data.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(data.parameters.expiresAt * 1000).toBeGreaterThan(Date.now());
    // The secret never leaves through the settings calls.
    const all = await t.get<{ tag: string }[]>('/api/backAdmin/settings', admin);
    expect(all.Data.some((s) => s.tag === 'internal')).toBe(false);
    expect((await t.get('/api/settings.v2?key=captchaSecret&tag=internal', admin)).Code).toBe(Code.INVALID_PARAMETER);
    const write = await t.post(
      '/api/settings.v2',
      { data: [{ key: 'captchaSecret', tag: 'internal', value: 'x' }] },
      admin,
    );
    expect(write.Code).toBe(Code.INVALID_PARAMETER);
  });
});

describe('publishing with createThreadWithCaptcha', () => {
  it('needs a fresh solution for thread.create and posts.create; others and administrators need none', async () => {
    const poster = await buildUser(t);
    await buildGroup(t, admin, [...(await memberPermissions(t, admin)), 'createThreadWithCaptcha'], [poster.id]);
    const forum = await t.get<Forum>('/api/v3/forum', poster.token);
    expect(forum.Data.other.createThreadWithCaptcha).toBe(true);
    const create = (captcha: string | undefined) =>
      t.post<{ threadId: number }>(
        '/api/v3/thread.create',
        { categoryId: 1, title: '要验证的主题', content: { text: '正文' }, ...(captcha ? { captcha } : {}) },
        poster.token,
      );
    await expectRefusals(create);
    const captcha = await solveCaptcha(t);
    const made = await create(captcha);
    expect(made.Code).toBe(0);
    // A solution works once.
    expect(await create(captcha)).toMatchObject({ Code: Code.INVALID_PARAMETER, Data: { field: 'captcha' } });

    const reply = (c: string | undefined) =>
      t.post(
        '/api/v3/posts.create',
        { id: made.Data.threadId, content: '回复', ...(c ? { captcha: c } : {}) },
        poster.token,
      );
    await expectRefusals(reply);
    expect((await reply(await solveCaptcha(t))).Code).toBe(0);

    // Members of the plain member group and administrators publish without one.
    const member = await buildUser(t);
    expect((await t.get<Forum>('/api/v3/forum', member.token)).Data.other.createThreadWithCaptcha).toBe(false);
    expect((await t.get<Forum>('/api/v3/forum', admin)).Data.other.createThreadWithCaptcha).toBe(false);
    await buildThread(t, member.token);
    await buildThread(t, admin);
  });
});

describe('registration with registerCaptcha', () => {
  it('needs a solution while the setting is on', async () => {
    await setSettings(t, admin, [{ key: 'registerCaptcha', value: true }]);
    try {
      const register = (name: string, captcha: string | undefined) =>
        t.post('/api/v3/users/username.register', {
          username: name,
          password: 'password-123',
          ...(captcha ? { captcha } : {}),
        });
      let n = 0;
      await expectRefusals((c) => register(`cap_a${n++}`, c));
      const captcha = await solveCaptcha(t);
      expect((await register('cap_ok', captcha)).Code).toBe(0);
      expect((await register('cap_again', captcha)).Code).toBe(Code.INVALID_PARAMETER);
      expect((await t.get<Forum>('/api/v3/forum')).Data.setSite.registerCaptcha).toBe(true);
    } finally {
      await setSettings(t, admin, [{ key: 'registerCaptcha', value: false }]);
    }
    await buildUser(t);
  });
});

describe('login with loginCaptcha', () => {
  it('needs a solution after three failures in a row for the account or the address', async () => {
    const user = await buildUser(t);
    await setSettings(t, admin, [{ key: 'loginCaptcha', value: true }]);
    try {
      const login = (password: string, captcha?: string, remoteAddress = '10.0.0.1', username = user.username) =>
        t.call('POST', '/api/v3/users/username.login', {
          body: { username, password, ...(captcha ? { captcha } : {}) },
          remoteAddress,
        });
      for (let i = 0; i < 3; i += 1) expect((await login('wrong-password')).body.Code).toBe(Code.LOGIN_FAILED);
      // The account has failed three times: from any address it needs a captcha now.
      await expectRefusals(async (c) => (await login(user.password, c, '10.0.0.2')).body);
      const captcha = await solveCaptcha(t);
      expect((await login(user.password, captcha, '10.0.0.2')).body.Code).toBe(0);
      expect((await login(user.password, captcha, '10.0.0.2')).body.Code).toBe(0);
      // An address that failed three times on different accounts needs one too; a success from it clears it.
      for (const name of ['nobody_1', 'nobody_2', 'nobody_3']) {
        expect((await login('x-password', undefined, '10.0.0.3', name)).body.Code).toBe(Code.LOGIN_FAILED);
      }
      expect((await login(user.password, undefined, '10.0.0.3')).body).toMatchObject({ Data: { field: 'captcha' } });
      expect((await login(user.password, await solveCaptcha(t), '10.0.0.3')).body.Code).toBe(0);
      expect((await login(user.password, undefined, '10.0.0.3')).body.Code).toBe(0);
    } finally {
      await setSettings(t, admin, [{ key: 'loginCaptcha', value: false }]);
    }
  });

  it('asks nothing while the setting is off', async () => {
    const user = await buildUser(t);
    const login = (password: string) =>
      t.call('POST', '/api/v3/users/username.login', {
        body: { username: user.username, password },
        remoteAddress: '10.0.1.1',
      });
    for (let i = 0; i < 4; i += 1) expect((await login('wrong-password')).body.Code).toBe(Code.LOGIN_FAILED);
    expect((await login(user.password)).body.Code).toBe(0);
  });
});

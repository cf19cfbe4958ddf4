import { Code, type EmailBindResult, type SiteInfo, type UserProfile } from '@luntan/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_FREE_FAILURES } from '../../core/rate-limit.js';
import { ADMIN, buildUser, startTestServer, type TestServer } from '../../test/harness.js';
import { linkToken, startMailbox, type TestMailbox } from '../../test/mailbox.js';

let t: TestServer;
let mailbox: TestMailbox;
let n = 0;

beforeAll(async () => {
  mailbox = await startMailbox();
  t = await startTestServer({ env: { SMTP_URL: mailbox.url, MAIL_FROM: 'Luntan <noreply@luntan.test>' } });
});
afterAll(async () => {
  await t?.close();
  await mailbox?.close();
});

/** A fresh address for each use (the sending budgets count per address). */
const address = (name = 'm') => `${name}${++n}.${process.pid}@example.com`;

async function register(email: string, extra: Record<string, unknown> = {}) {
  const username = `ml${process.pid % 1000}x${++n}`;
  const password = 'password-123';
  const res = await t.post<{ userId: number; accessToken: string }>('/api/v3/users/username.register', {
    username,
    password,
    email,
    ...extra,
  });
  return { res, username, password, id: res.Data?.userId, token: res.Data?.accessToken };
}

const own = async (id: number, token: string) => (await t.get<UserProfile>(`/api/v3/user?userId=${id}`, token)).Data;
const verify = (token: string) => t.post<{ userId: number; email: string }>('/api/v3/users/email.verify', { token });
const bind = (email: string, token: string) => t.post<EmailBindResult>('/api/v3/users/email.bind', { email }, token);
const forgot = (account: string) => t.post<{ sent: boolean }>('/api/v3/users/password.forgot', { account });
const reset = (token: string, password: string) =>
  t.post<{ userId: number }>('/api/v3/users/password.reset', { token, password });
/** Makes every link of a member expire (as if 30 minutes had passed). */
const expireLinks = (userId: number) =>
  t.server.database.db
    .updateTable('emailTokens')
    .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
    .where('userId', '=', userId)
    .execute();

/** A member whose address is verified. */
async function verifiedMember() {
  const email = address('v');
  const member = await register(email);
  expect(member.res.Code).toBe(0);
  expect((await verify(linkToken(await mailbox.waitFor(email), '/user/verify-email'))).Code).toBe(0);
  return { ...member, id: member.id!, token: member.token!, email };
}

describe('an address at registration', () => {
  it('is stored unverified, mailed a link in the site language, and verified once by the link', async () => {
    const email = address('Reg');
    const { res, id, token } = await register(email);
    expect(res.Code).toBe(0);
    expect(await own(id!, token!)).toMatchObject({ email, emailVerified: false, emailPending: email });

    const mail = await mailbox.waitFor(email);
    expect(mail.mail.from?.text).toContain('noreply@luntan.test');
    expect(mail.mail.subject).toContain('请验证你的邮箱');
    expect(mail.mail.html).toContain('/user/verify-email?token=');
    const link = linkToken(mail, '/user/verify-email');
    expect(link).toMatch(/^[\w-]{43}$/);
    // Only a hash of the token is kept.
    const stored = await t.server.database.db.selectFrom('emailTokens').select('tokenHash').execute();
    expect(stored.some((r) => r.tokenHash.includes(link))).toBe(false);

    const done = await verify(link);
    expect(done).toMatchObject({ Code: 0, Data: { userId: id, email } });
    expect(await own(id!, token!)).toMatchObject({ email, emailVerified: true, emailPending: null });
    // Used twice: refused, with a written message.
    const again = await verify(link);
    expect(again.Code).toBe(Code.RESOURCE_EXPIRED);
    expect(again.Message).toMatch(/链接/);
    expect((await verify('not-a-real-token')).Code).toBe(Code.RESOURCE_EXPIRED);
  });

  it('is never shown to others', async () => {
    const a = await verifiedMember();
    const admin = await t.login(ADMIN.username, ADMIN.password);
    const card = (await t.get<UserProfile>(`/api/v3/user?userId=${a.id}`, admin)).Data;
    expect(card.id).toBe(a.id);
    expect(card).not.toHaveProperty('email');
    expect(card).not.toHaveProperty('emailVerified');
    expect(JSON.stringify(card)).not.toContain(a.email);
  });

  it('refuses an address another account holds (any case) with -4003, and a malformed one with -4001', async () => {
    const email = address('Taken');
    expect((await register(email)).res.Code).toBe(0);
    const taken = (await register(email.toUpperCase())).res;
    expect(taken.Code).toBe(Code.RESOURCE_EXIST);
    expect(taken.Data).toMatchObject({ field: 'email' });
    expect(taken.Message).toBe('该邮箱已被其他账号使用');
    const bad = (await register('not-an-address')).res;
    expect(bad.Code).toBe(Code.INVALID_PARAMETER);
    expect(bad.Message).toMatch(/邮箱/);
    // Without an address, registration is as before.
    const plain = await buildUser(t);
    expect(await own(plain.id, plain.token)).toMatchObject({ email: null, emailVerified: false });
  });
});

describe('binding an address in the personal centre', () => {
  it('needs a login, and the address becomes the member’s only when the link is opened', async () => {
    expect((await bind(address(), '')).Code).toBe(Code.JUMP_TO_LOGIN);
    const member = await verifiedMember();
    const next = address('Next');
    const sent = await bind(next, member.token);
    expect(sent.Code).toBe(0);
    expect(sent.Data.email).toBe(next);
    expect(Date.parse(sent.Data.expiresAt) - Date.now()).toBeGreaterThan(29 * 60_000);
    // Still the old address until the link is used.
    expect(await own(member.id, member.token)).toMatchObject({
      email: member.email,
      emailVerified: true,
      emailPending: next,
    });
    const link = linkToken(await mailbox.waitFor(next), '/user/verify-email');
    expect((await verify(link)).Code).toBe(0);
    expect(await own(member.id, member.token)).toMatchObject({ email: next, emailVerified: true, emailPending: null });
    expect((await verify(link)).Code).toBe(Code.RESOURCE_EXPIRED);
    // The verified address again: nothing to do.
    expect((await bind(next.toUpperCase(), member.token)).Code).toBe(Code.INVALID_PARAMETER);
  });

  it('refuses an expired link, and a newer link replaces the older one', async () => {
    const member = await verifiedMember();
    const next = address('Exp');
    expect((await bind(next, member.token)).Code).toBe(0);
    const first = linkToken(await mailbox.waitFor(next, 1), '/user/verify-email');
    expect((await bind(next, member.token)).Code).toBe(0);
    const second = linkToken(await mailbox.waitFor(next, 2), '/user/verify-email');
    expect((await verify(first)).Code).toBe(Code.RESOURCE_EXPIRED);
    await expireLinks(member.id);
    const expired = await verify(second);
    expect(expired.Code).toBe(Code.RESOURCE_EXPIRED);
    expect(expired.Message).toBe('链接已失效或已被使用，请重新获取');
    expect((await own(member.id, member.token)).email).toBe(member.email);
  });

  it('refuses an address another member verified; one only typed goes to whoever proves it', async () => {
    const holder = await verifiedMember();
    const other = await verifiedMember();
    const taken = await bind(holder.email.toUpperCase(), other.token);
    expect(taken.Code).toBe(Code.RESOURCE_EXIST);
    expect(taken.Data).toMatchObject({ field: 'email' });

    // Someone registers with an address that is not theirs; its owner binds it and opens the link.
    const squatted = address('Sq');
    const squatter = await register(squatted);
    await mailbox.waitFor(squatted, 1);
    expect((await bind(squatted, other.token)).Code).toBe(0);
    expect((await verify(linkToken(await mailbox.waitFor(squatted, 2), '/user/verify-email'))).Code).toBe(0);
    expect(await own(other.id, other.token)).toMatchObject({ email: squatted, emailVerified: true });
    expect((await own(squatter.id!, squatter.token!)).email).toBeNull();
  });

  it('sends at most 5 links an hour to one address (-4029 after)', async () => {
    const member = await verifiedMember();
    const target = address('Lim');
    for (let i = 0; i < 4; i += 1) expect((await bind(target, member.token)).Code).toBe(0);
    // The account's budget counts the registration's link too: 1 + 4 = 5.
    const over = await t.call('POST', '/api/v3/users/email.bind', { token: member.token, body: { email: target } });
    expect(over.body.Code).toBe(Code.TOO_MANY_REQUESTS);
    expect(over.status).toBe(429);
    // Another member, same address: the address's budget holds too.
    const second = await verifiedMember();
    expect((await bind(target, second.token)).Code).toBe(0);
    const third = await verifiedMember();
    expect((await bind(target, third.token)).Code).toBe(Code.TOO_MANY_REQUESTS);
  });
});

describe('forgot password', () => {
  it('answers the same for every account, and mails a link only to verified addresses', async () => {
    const member = await verifiedMember();
    const unverifiedEmail = address('Unv');
    const unverified = await register(unverifiedEmail);
    await mailbox.waitFor(unverifiedEmail, 1);
    const noEmail = await buildUser(t);

    const answers = await Promise.all([
      forgot('nobody-here'),
      forgot('nobody@example.com'),
      forgot(unverified.username),
      forgot(unverifiedEmail),
      forgot(noEmail.username),
    ]);
    for (const a of answers) expect(a).toMatchObject({ Code: 0, Data: { sent: true } });

    // By username: the mail goes to the verified address, in English for a member who chose English.
    await t.post('/api/v3/users/update.user', { locale: 'en' }, member.token);
    expect(await forgot(member.username.toUpperCase())).toMatchObject({ Code: 0, Data: { sent: true } });
    const mail = await mailbox.waitFor(member.email, 2);
    expect(mail.mail.subject).toContain('Reset your password');
    expect(mail.mail.text).toContain('/user/reset-password?token=');
    // By address, any case.
    expect((await forgot(member.email.toUpperCase())).Code).toBe(0);
    await mailbox.waitFor(member.email, 3);
    // Nothing went to the unverified address beyond its registration link.
    expect(mailbox.to(unverifiedEmail)).toHaveLength(1);
    expect((await forgot('')).Code).toBe(Code.INVALID_PARAMETER);
  });

  it('resets the password once and signs out every session', async () => {
    const member = await verifiedMember();
    const second = await t.login(member.username, member.password);
    expect((await forgot(member.username)).Code).toBe(0);
    const link = linkToken(await mailbox.waitFor(member.email, 2), '/user/reset-password');

    const short = await reset(link, '123');
    expect(short.Code).toBe(Code.INVALID_PARAMETER);
    expect(short.Message).toMatch(/新密码/);
    expect((await reset(link, 'brand-new-pass')).Code).toBe(0);
    for (const old of [member.token, second]) {
      expect((await t.get('/api/v3/unreadnotification', old)).Code).toBe(Code.JUMP_TO_LOGIN);
    }
    const wrong = await t.post('/api/v3/users/username.login', {
      username: member.username,
      password: member.password,
    });
    expect(wrong.Code).toBe(Code.LOGIN_FAILED);
    await t.login(member.username, 'brand-new-pass');
    // Used: refused.
    const reused = await reset(link, 'another-pass-1');
    expect(reused.Code).toBe(Code.RESOURCE_EXPIRED);
    expect(reused.Message).toBe('链接已失效或已被使用，请重新获取');
  });

  it('ends the wait that failed sign-ins put on the account', async () => {
    const member = await verifiedMember();
    expect((await forgot(member.username)).Code).toBe(0);
    const link = linkToken(await mailbox.waitFor(member.email, 2), '/user/reset-password');
    const login = (password: string) =>
      t.post('/api/v3/users/username.login', { username: member.username.toUpperCase(), password });
    for (let i = 0; i <= LOGIN_FREE_FAILURES; i += 1) expect((await login(`wrong-${i}`)).Code).toBe(Code.LOGIN_FAILED);
    expect((await login(member.password)).Code).toBe(Code.TOO_MANY_REQUESTS);
    expect((await reset(link, 'brand-new-pass')).Code).toBe(0);
    expect((await login('brand-new-pass')).Code).toBe(0);
  });

  it('refuses an expired link and one replaced by a newer one', async () => {
    const member = await verifiedMember();
    await forgot(member.email);
    const first = linkToken(await mailbox.waitFor(member.email, 2), '/user/reset-password');
    await forgot(member.email);
    const second = linkToken(await mailbox.waitFor(member.email, 3), '/user/reset-password');
    expect((await reset(first, 'brand-new-pass')).Code).toBe(Code.RESOURCE_EXPIRED);
    await expireLinks(member.id);
    expect((await reset(second, 'brand-new-pass')).Code).toBe(Code.RESOURCE_EXPIRED);
    await t.login(member.username, member.password);
  });

  it('mails at most 5 links an hour per account, answering the same beyond', async () => {
    const member = await verifiedMember();
    // The registration's link counted once: four more, then nothing.
    for (let i = 0; i < 6; i += 1) expect(await forgot(member.username)).toMatchObject({ Code: 0 });
    await mailbox.waitFor(member.email, 5);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(mailbox.to(member.email)).toHaveLength(5);
  });
});

describe('without SMTP', () => {
  let off: TestServer;
  let admin: string;
  beforeAll(async () => {
    off = await startTestServer();
    admin = await off.login(ADMIN.username, ADMIN.password);
  });
  afterAll(async () => {
    await off?.close();
  });

  it('the forum works, the site says mail is off, and the mail calls answer a written error', async () => {
    expect((await off.get<SiteInfo>('/api/siteinfo.v2')).Data.mailEnabled).toBe(false);
    const email = address('Off');
    const res = await off.post<{ userId: number; accessToken: string }>('/api/v3/users/username.register', {
      username: `off${++n}x${process.pid % 1000}`,
      password: 'password-123',
      email,
    });
    expect(res.Code).toBe(0);
    const bound = await off.post('/api/v3/users/email.bind', { email: address() }, res.Data.accessToken);
    expect(bound).toMatchObject({ Code: Code.INVALID_PARAMETER, Data: { mailEnabled: false } });
    expect(bound.Message).toBe('本站未开启邮件服务，无法发送邮件');
    const forgotten = await off.post('/api/v3/users/password.forgot', { account: 'anyone' });
    expect(forgotten).toMatchObject({ Code: Code.INVALID_PARAMETER, Data: { mailEnabled: false } });
    expect(mailbox.to(email)).toHaveLength(0);
  });

  it('the back office can turn mail on (smtpUrl, tag mail; never public)', async () => {
    const write = (key: string, value: string) =>
      off.post('/api/settings.v2', { data: [{ key, tag: 'mail', value }] }, admin);
    const bad = await write('smtpUrl', 'http://example.com');
    expect(bad.Code).toBe(Code.INVALID_PARAMETER);
    expect(bad.Message).toMatch(/smtp:\/\//);
    expect((await write('smtpUrl', mailbox.url)).Code).toBe(0);
    expect((await write('mailFrom', 'Office <office@luntan.test>')).Code).toBe(0);
    const site = await off.get<SiteInfo>('/api/siteinfo.v2');
    expect(site.Data.mailEnabled).toBe(true);
    expect(JSON.stringify(site)).not.toContain(mailbox.url);
    const member = await buildUser(off);
    const email = address('Office');
    expect((await off.post('/api/v3/users/email.bind', { email }, member.token)).Code).toBe(0);
    expect((await mailbox.waitFor(email)).mail.from?.text).toContain('office@luntan.test');
  });
});

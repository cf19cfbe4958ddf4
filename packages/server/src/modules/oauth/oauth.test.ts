import {
  Code,
  UserStatus,
  type Forum,
  type LinkedAccounts,
  type OauthProviderAdminItem,
  type UserProfile,
} from '@luntan/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, buildUser, startTestServer, type TestServer } from '../../test/harness.js';
import { CLIENT, FORUM_ORIGIN, signInWithIdp, startTestIdp, type TestIdp } from '../../test/oidc-fixtures.js';

let t: TestServer;
let admin: string;
let idp: TestIdp;
let providerId: number;
const SLUG = 'test-idp';

const setSettings = (data: { key: string; value: string | boolean; tag?: string }[]) =>
  t.post('/api/settings.v2', { data: data.map((d) => ({ tag: 'default', ...d })) }, admin);

const forumAs = async (token: string) => (await t.get<Forum>('/api/v3/forum', token)).Data;
const identities = async (token: string) => (await t.get<LinkedAccounts>('/api/v3/oauth/identities', token)).Data;

let subjects = 0;
/** A new person at the provider. */
function person(name = 'alice'): string {
  subjects += 1;
  const login = `sub-${subjects}-${name}`;
  idp.accounts.set(login, { sub: login, preferred_username: name, name: `${name} 名`, email: `${name}@example.com` });
  return login;
}

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login(ADMIN.username, ADMIN.password);
  idp = await startTestIdp([`${FORUM_ORIGIN}/api/v3/oauth/${SLUG}/callback`]);
  expect((await setSettings([{ key: 'siteUrl', value: FORUM_ORIGIN }])).Code).toBe(0);
  const saved = await t.post<OauthProviderAdminItem>(
    '/api/backAdmin/oauth/providers.save',
    {
      slug: SLUG,
      issuer: idp.issuer,
      clientId: CLIENT.id,
      clientSecret: CLIENT.secret,
      labelZh: '测试身份',
      labelEn: 'Test IdP',
    },
    admin,
  );
  expect(saved.Code).toBe(0);
  providerId = saved.Data.id;
});
afterAll(async () => {
  await t.close();
  await idp.close();
});

describe('signing in with an OpenID Connect provider', () => {
  it('lets an account made by a sign-in set its first password without a current one, then needs it', async () => {
    const token = (await signInWithIdp(t, SLUG, person('carol'))).accessToken!;
    const { userId, username } = (await forumAs(token)).user!;
    const profile = async (as: string) => (await t.get<UserProfile>(`/api/v3/user?userId=${userId}`, as)).Data;
    const update = (body: object) => t.post<UserProfile>('/api/v3/users/update.user', body, token);
    // A username the site made up from the provider's names: its member may choose their own, once.
    expect(await profile(token)).toMatchObject({ hasPassword: false, usernameChangeable: true });
    // Another member's view of the card never says.
    expect((await profile((await buildUser(t)).token)).hasPassword).toBeUndefined();

    const first = await update({ newPassword: 'carol-first-pass' });
    expect(first.Code).toBe(0);
    expect(first.Data.hasPassword).toBe(true);
    expect((await identities(token)).hasPassword).toBe(true);
    expect(await t.login(username, 'carol-first-pass')).toBeTruthy();

    // From now on the password is one its owner knows: changing it needs it.
    expect((await update({ newPassword: 'carol-second-pass' })).Code).toBe(Code.INVALID_PARAMETER);
    expect((await update({ password: 'wrong-one', newPassword: 'carol-second-pass' })).Code).toBe(Code.LOGIN_FAILED);
    expect((await update({ password: 'carol-first-pass', newPassword: 'carol-second-pass' })).Code).toBe(0);
    expect(await t.login(username, 'carol-second-pass')).toBeTruthy();
  });

  it('still needs the current password of an account made with one', async () => {
    const u = await buildUser(t);
    expect((await t.get<UserProfile>(`/api/v3/user?userId=${u.id}`, u.token)).Data.hasPassword).toBe(true);
    const update = (body: object) => t.post<UserProfile>('/api/v3/users/update.user', body, u.token);
    expect((await update({ newPassword: 'brand-new-pass' })).Code).toBe(Code.INVALID_PARAMETER);
    expect((await update({ password: 'wrong-one', newPassword: 'brand-new-pass' })).Code).toBe(Code.LOGIN_FAILED);
    await expect(t.login(u.username, 'brand-new-pass')).rejects.toThrow();
    expect(await t.login(u.username, u.password)).toBeTruthy();
  });

  it('creates the account on the first sign-in, and signs the same subject in to it again', async () => {
    const login = person('alice');
    const first = await signInWithIdp(t, SLUG, login, { redirect: '/thread/1' });
    expect(first.location).toBe('/thread/1');
    expect(first.accessToken).toBeTruthy();
    const viewer = (await forumAs(first.accessToken!)).user!;
    expect(viewer).toMatchObject({ username: 'alice', nickname: 'alice 名', status: UserStatus.NORMAL });

    const again = await signInWithIdp(t, SLUG, login);
    expect(again.location).toBe('/');
    expect((await forumAs(again.accessToken!)).user!.userId).toBe(viewer.userId);

    // Another person with the same preferred name gets a username of their own.
    const other = await signInWithIdp(t, SLUG, person('alice'));
    const otherViewer = (await forumAs(other.accessToken!)).user!;
    expect(otherViewer.userId).not.toBe(viewer.userId);
    expect(otherViewer.username).toMatch(/^alice_\d+$/);

    // The account has no password its owner knows: its only way in may not be unlinked.
    const mine = await identities(first.accessToken!);
    expect(mine.hasPassword).toBe(false);
    expect(mine.accounts).toEqual([
      expect.objectContaining({ kind: 'oidc', providerId, slug: SLUG, linked: true, email: 'alice@example.com' }),
    ]);
    const unlink = await t.post('/api/v3/oauth/unlink', { providerId }, first.accessToken!);
    expect(unlink.Code).toBe(Code.UNAUTHORIZED);
  });

  it('links the provider to a signed-in account from /my, and refuses one linked to someone else', async () => {
    const bob = await buildUser(t);
    const login = person('bob');
    const linked = await signInWithIdp(t, SLUG, login, { token: bob.token, link: true });
    expect(linked.location).toBe('/my?tab=settings');
    expect(linked.accessToken).toBeUndefined();
    const mine = await identities(bob.token);
    expect(mine.hasPassword).toBe(true);
    expect(mine.accounts[0]).toMatchObject({ providerId, linked: true });

    // The linked identity now signs in to bob's account.
    const signedIn = await signInWithIdp(t, SLUG, login);
    expect((await forumAs(signedIn.accessToken!)).user!.userId).toBe(bob.id);

    // Someone else may not link it; bob may not link a second identity of the same provider.
    const carol = await buildUser(t);
    expect((await signInWithIdp(t, SLUG, login, { token: carol.token, link: true })).location).toBe(
      '/my?tab=settings&oauthError=linkedElsewhere',
    );
    expect((await signInWithIdp(t, SLUG, person('bob2'), { token: bob.token, link: true })).location).toBe(
      '/my?tab=settings&oauthError=alreadyLinked',
    );
    // A guest cannot link.
    expect((await signInWithIdp(t, SLUG, login, { link: true })).location).toBe('/user/login?oauthError=needLogin');

    // Bob has a password: unlinking is allowed; then the identity's next sign-in makes a new account.
    expect((await t.post('/api/v3/oauth/unlink', { providerId }, bob.token)).Code).toBe(0);
    expect((await identities(bob.token)).accounts[0]).toMatchObject({ linked: false });
    expect((await t.post('/api/v3/oauth/unlink', { providerId }, bob.token)).Code).toBe(Code.RESOURCE_NOT_FOUND);
    const fresh = await signInWithIdp(t, SLUG, login);
    expect((await forumAs(fresh.accessToken!)).user!.userId).not.toBe(bob.id);
  });

  it('refuses a callback whose state is not the browser’s, or used already', async () => {
    const login = person('eve');
    const wrongCookie = await signInWithIdp(t, SLUG, login, {
      tamper: (c) => ({ ...c, cookie: 'luntan_oauth_state=someone-elses' }),
    });
    expect(wrongCookie).toEqual({ location: '/user/login?oauthError=state', accessToken: undefined });
    const noCookie = await signInWithIdp(t, SLUG, login, { tamper: (c) => ({ ...c, cookie: '' }) });
    expect(noCookie.location).toBe('/user/login?oauthError=state');

    // A callback replayed: its state was taken by the first use.
    let replay: { url: string; cookie: string } | undefined;
    const ok1 = await signInWithIdp(t, SLUG, login, { tamper: (c) => (replay = c) });
    expect(ok1.accessToken).toBeTruthy();
    const again = await t.app.inject({ method: 'GET', url: replay!.url, headers: { cookie: replay!.cookie } });
    expect(again.statusCode).toBe(302);
    expect(again.headers.location).toBe('/user/login?oauthError=state');

    // A forged code with a good state: the provider refuses it, the page says so.
    const forged = await signInWithIdp(t, SLUG, person('eve'), {
      tamper: (c) => ({ ...c, url: c.url.replace(/code=[^&]+/, 'code=forged') }),
    });
    expect(forged.location).toBe('/user/login?oauthError=provider');
  });

  it('lands on the login page when the user denies, the provider is down or unknown', async () => {
    expect((await signInWithIdp(t, SLUG, person('dan'), { deny: true })).location).toBe(
      '/user/login?oauthError=denied',
    );
    expect((await signInWithIdp(t, 'nobody', 'x')).location).toBe('/user/login?oauthError=unknownProvider');
    const down = await t.post<OauthProviderAdminItem>(
      '/api/backAdmin/oauth/providers.save',
      {
        slug: 'down',
        issuer: 'http://127.0.0.1:9',
        clientId: 'x',
        clientSecret: 'y',
        labelZh: '坏的',
        labelEn: 'Down',
      },
      admin,
    );
    expect((await signInWithIdp(t, 'down', 'x')).location).toBe('/user/login?oauthError=provider');
    expect((await t.post('/api/backAdmin/oauth/providers.delete', { id: down.Data.id }, admin)).Code).toBe(0);
  });

  it('honours registerClose and registerValidate for new accounts, and sign-in fields (status 10)', async () => {
    const known = person('frank');
    const frank = (await signInWithIdp(t, SLUG, known)).accessToken!;
    const frankId = (await forumAs(frank)).user!.userId;
    await setSettings([{ key: 'registerClose', value: true }]);
    try {
      expect((await signInWithIdp(t, SLUG, person('gina'))).location).toBe('/user/login?oauthError=registerClosed');
      // An account that exists still signs in.
      expect((await forumAs((await signInWithIdp(t, SLUG, known)).accessToken!)).user!.userId).toBe(frankId);
    } finally {
      await setSettings([{ key: 'registerClose', value: false }]);
    }

    await setSettings([{ key: 'registerValidate', value: true }]);
    try {
      expect((await signInWithIdp(t, SLUG, person('hank'))).location).toBe('/user/login?oauthError=review');
    } finally {
      await setSettings([{ key: 'registerValidate', value: false }]);
    }

    const field = await t.post<{ id: number }>(
      '/api/admin/signinfields.create.v2',
      { name: '职业', type: 0, sort: 1, required: 1 },
      admin,
    );
    expect(field.Code).toBe(0);
    try {
      const owes = await signInWithIdp(t, SLUG, person('ivy'), { redirect: '/thread/9' });
      expect(owes.location).toBe('/user/supplementary');
      expect((await forumAs(owes.accessToken!)).user!.status).toBe(UserStatus.NEEDS_SIGNIN_FIELDS);
    } finally {
      await t.post('/api/admin/signinfields.update.v2', { id: field.Data.id, status: -1 }, admin);
    }
  });

  it('keeps the redirect on this site', async () => {
    for (const bad of ['https://evil.example/', '//evil.example/x', '/\\evil.example']) {
      const res = await signInWithIdp(t, SLUG, person('jo'), { redirect: bad });
      expect(res.location).toBe('/');
    }
  });
});

describe('the providers in the back office', () => {
  it('lists providers without their secrets; the login page sees the enabled ones', async () => {
    const list = await t.get<OauthProviderAdminItem[]>('/api/backAdmin/oauth/providers', admin);
    expect(list.Code).toBe(0);
    const mine = list.Data.find((p) => p.id === providerId)!;
    expect(mine).toMatchObject({
      slug: SLUG,
      hasSecret: true,
      enabled: true,
      scopes: 'openid profile email',
      callbackUrl: `${FORUM_ORIGIN}/api/v3/oauth/${SLUG}/callback`,
    });
    expect(mine.identityCount).toBeGreaterThan(0);
    expect(JSON.stringify(list)).not.toContain(CLIENT.secret);

    const extra = await t.post<OauthProviderAdminItem>(
      '/api/backAdmin/oauth/providers.save',
      { slug: 'off', issuer: 'https://id.example', clientId: 'c', clientSecret: 's', labelZh: '关', labelEn: 'Off' },
      admin,
    );
    expect(extra.Code).toBe(0);
    const publicList = async () =>
      (await t.get<{ providers: { slug: string }[]; wechat: boolean }>('/api/v3/oauth/providers')).Data;
    expect((await publicList()).providers.map((p) => p.slug)).toEqual([SLUG, 'off']);
    expect(JSON.stringify(await publicList())).not.toContain('secret');

    // Editing without a secret keeps it; switching off hides it from the login page.
    const edit = await t.post<OauthProviderAdminItem>(
      '/api/backAdmin/oauth/providers.save',
      {
        id: extra.Data.id,
        slug: 'off',
        issuer: 'https://id.example',
        clientId: 'c',
        labelZh: '关',
        labelEn: 'Off',
        enabled: false,
      },
      admin,
    );
    expect(edit.Data).toMatchObject({ hasSecret: true, enabled: false });
    expect((await publicList()).providers.map((p) => p.slug)).toEqual([SLUG]);
    expect((await signInWithIdp(t, 'off', 'x')).location).toBe('/user/login?oauthError=unknownProvider');
    expect((await t.post('/api/backAdmin/oauth/providers.delete', { id: extra.Data.id }, admin)).Code).toBe(0);
  });

  it('checks what is saved, and refuses deleting a provider accounts are linked to', async () => {
    const save = (body: object) => t.post('/api/backAdmin/oauth/providers.save', body, admin);
    const base = { slug: 'new-one', issuer: 'https://id.example', clientId: 'c', labelZh: '新', labelEn: 'New' };
    const noSecret = await save(base);
    expect(noSecret.Code).toBe(Code.INVALID_PARAMETER);
    expect(noSecret.Data).toEqual({ field: 'clientSecret' });
    expect((await save({ ...base, clientSecret: 's', slug: 'Bad Slug' })).Code).toBe(Code.INVALID_PARAMETER);
    expect((await save({ ...base, clientSecret: 's', issuer: 'javascript:alert(1)' })).Code).toBe(
      Code.INVALID_PARAMETER,
    );
    expect((await save({ ...base, clientSecret: 's', slug: SLUG })).Code).toBe(Code.RESOURCE_EXIST);
    expect((await save({ ...base, id: 999999, clientSecret: 's' })).Code).toBe(Code.RESOURCE_NOT_FOUND);
    expect((await t.post('/api/backAdmin/oauth/providers.delete', { id: providerId }, admin)).Code).toBe(
      Code.RESOURCE_IN_USE,
    );

    const member = await buildUser(t);
    expect((await t.call('GET', '/api/backAdmin/oauth/providers', { token: member.token })).body.Code).toBe(
      Code.UNAUTHORIZED,
    );
    expect(
      (await t.post('/api/backAdmin/oauth/providers.save', { ...base, clientSecret: 's' }, member.token)).Code,
    ).toBe(Code.UNAUTHORIZED);
    expect((await t.get('/api/v3/oauth/identities')).Code).toBe(Code.JUMP_TO_LOGIN);
  });
});

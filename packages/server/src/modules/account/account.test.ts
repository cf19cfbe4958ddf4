import fs from 'node:fs';
import path from 'node:path';
import { Code, type UserProfile } from '@luntan/shared';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

const update = (token: string | undefined, body: unknown) =>
  t.post<UserProfile>('/api/v3/users/update.user', body, token);

function multipartImage(field: string, data: Buffer, name = 'me.png') {
  const boundary = `----avatar${Date.now()}`;
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${name}"\r\n`),
    Buffer.from('Content-Type: image/png\r\n\r\n'),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const png = (width: number, height: number, background = '#cc3366') =>
  sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();

describe('update.user', () => {
  it('changes nickname, signature, likes privacy and language; only the fields given', async () => {
    const u = await buildUser(t);
    const res = await update(u.token, {
      nickname: '新的名字',
      signature: '  写点什么  ',
      likesPublic: false,
      locale: 'en',
    });
    expect(res.Code).toBe(0);
    expect(res.Data).toMatchObject({
      nickname: '新的名字',
      signature: '写点什么',
      likesVisible: true,
      likesPublic: false,
      isMe: true,
    });
    const seen = await t.get<UserProfile>(`/api/v3/user?userId=${u.id}`, (await buildUser(t)).token);
    expect(seen.Data).toMatchObject({ nickname: '新的名字', signature: '写点什么', likesVisible: false });
    expect((await update(u.token, { signature: '' })).Data).toMatchObject({ nickname: '新的名字', signature: '' });
  });

  it('refuses bad input with -4001 and changes nothing', async () => {
    const u = await buildUser(t, { nickname: '原来的' });
    for (const body of [
      { signature: 'x'.repeat(141) },
      { nickname: '' },
      { nickname: 'n'.repeat(16) },
      { locale: 'fr' },
      { newPassword: 'short' },
      { newPassword: 'long-enough-1' },
      { signature: 5 },
    ]) {
      expect((await update(u.token, body)).Code, JSON.stringify(body)).toBe(Code.INVALID_PARAMETER);
    }
    const me = await t.get<UserProfile>(`/api/v3/user?userId=${u.id}`, u.token);
    expect(me.Data).toMatchObject({ nickname: '原来的', signature: '' });
    expect((await update(undefined, { signature: 'x' })).Code).toBe(Code.JUMP_TO_LOGIN);
  });

  it('screens nickname and signature with their stop words', async () => {
    const u = await buildUser(t);
    const words = { data: { type: 'stop-words', words: ['坏签名=||**||', '坏昵称={BANNED}'], overwrite: true } };
    expect((await t.post('/api/stop-words/batch.v2', words, admin)).Code).toBe(0);
    expect((await update(u.token, { signature: '一个坏签名而已' })).Data.signature).toBe('一个**而已');
    expect((await update(u.token, { nickname: '坏昵称' })).Code).toBe(Code.CONTENT_BANNED);
  });

  it('changes the password with the current one and signs out the other sessions', async () => {
    const u = await buildUser(t);
    const other = await t.login(u.username, u.password);
    expect((await update(u.token, { password: 'wrong-one', newPassword: 'brand-new-pass' })).Code).toBe(
      Code.LOGIN_FAILED,
    );
    expect((await t.get('/api/v3/users/deny.list', other)).Code).toBe(0);
    expect((await update(u.token, { password: u.password, newPassword: 'brand-new-pass' })).Code).toBe(0);
    expect((await t.get('/api/v3/users/deny.list', other)).Code).toBe(Code.JUMP_TO_LOGIN);
    expect((await t.get('/api/v3/users/deny.list', u.token)).Code).toBe(0);
    await expect(t.login(u.username, u.password)).rejects.toThrow();
    expect(await t.login(u.username, 'brand-new-pass')).toBeTruthy();
  });
});

describe('nickname.set', () => {
  const setNickname = (token: string | undefined, body: unknown) =>
    t.post<Record<string, never>>('/api/v3/users/nickname.set', body, token);

  it('changes the nickname alone and answers an empty object', async () => {
    const u = await buildUser(t, { nickname: '旧名字' });
    const res = await setNickname(u.token, { nickname: '  新名字  ' });
    expect([res.Code, res.Data]).toEqual([0, {}]);
    const me = await t.get<UserProfile>(`/api/v3/user?userId=${u.id}`, u.token);
    expect(me.Data).toMatchObject({ nickname: '新名字', username: u.username });
  });

  it('refuses what update.user refuses, and guests', async () => {
    const u = await buildUser(t, { nickname: '不变的' });
    for (const body of [{}, { nickname: '' }, { nickname: 'n'.repeat(16) }, { nickname: 5 }]) {
      const res = await setNickname(u.token, body);
      expect(res.Code, JSON.stringify(body)).toBe(Code.INVALID_PARAMETER);
      expect(res.Message, JSON.stringify(body)).not.toBe('');
    }
    const words = { data: { type: 'stop-words', words: ['禁用名={BANNED}'], overwrite: true } };
    expect((await t.post('/api/stop-words/batch.v2', words, admin)).Code).toBe(0);
    expect((await setNickname(u.token, { nickname: '禁用名' })).Code).toBe(Code.CONTENT_BANNED);
    expect((await setNickname(undefined, { nickname: '访客' })).Code).toBe(Code.JUMP_TO_LOGIN);
    const me = await t.get<UserProfile>(`/api/v3/user?userId=${u.id}`, u.token);
    expect(me.Data).toMatchObject({ nickname: '不变的' });
  });
});

describe('avatar and background', () => {
  it('resizes the avatar to 240x240, replaces the old file, and the card shows it', async () => {
    const u = await buildUser(t);
    const first = multipartImage('avatar', await png(800, 600));
    const res = await t.call<UserProfile>('POST', '/api/v3/users/avatar', { token: u.token, ...first });
    expect(res.body.Code).toBe(0);
    const url = res.body.Data.avatarUrl;
    expect(url).toMatch(/^\/uploads\/avatars\/\d+-[0-9a-f]{16}\.webp$/);
    const served = await t.app.inject({ method: 'GET', url });
    expect(served.statusCode).toBe(200);
    expect(await sharp(served.rawPayload).metadata()).toMatchObject({ width: 240, height: 240, format: 'webp' });
    const second = multipartImage('avatar', await png(300, 300, '#00aa00'));
    const next = await t.call<UserProfile>('POST', '/api/v3/users/avatar', { token: u.token, ...second });
    expect(next.body.Data.avatarUrl).not.toBe(url);
    expect(fs.existsSync(path.join(t.storage.dataDir, 'uploads', url.replace('/uploads/', '')))).toBe(false);
    const card = await t.get<UserProfile>(`/api/v3/user?userId=${u.id}`, u.token);
    expect(card.Data.avatarUrl).toBe(next.body.Data.avatarUrl);
  });

  it('keeps a background within 1600 px and refuses what is not an image', async () => {
    const u = await buildUser(t);
    const res = await t.call<UserProfile>('POST', '/api/v3/users/background', {
      token: u.token,
      ...multipartImage('background', await png(2400, 800)),
    });
    expect(res.body.Code).toBe(0);
    const served = await t.app.inject({ method: 'GET', url: res.body.Data.backgroundUrl });
    expect(await sharp(served.rawPayload).metadata()).toMatchObject({ width: 1600, height: 533 });
    const fake = multipartImage('avatar', Buffer.from('<svg onload="alert(1)"></svg>'), 'x.png');
    const refused = await t.call('POST', '/api/v3/users/avatar', { token: u.token, ...fake });
    expect(refused.body.Code).toBe(Code.INVALID_PARAMETER);
    const guest = await t.call('POST', '/api/v3/users/avatar', { ...multipartImage('avatar', await png(10, 10)) });
    expect(guest.body.Code).toBe(Code.JUMP_TO_LOGIN);
    expect((await t.get<UserProfile>(`/api/v3/user?userId=${u.id}`, u.token)).Data.avatarUrl).toBe('');
  });
});

describe('the chosen language', () => {
  it('follows the member to a new browser: signing in sets the locale cookie', async () => {
    const u = await buildUser(t);
    const plain = await t.call('POST', '/api/v3/users/username.login', {
      body: { username: u.username, password: u.password },
    });
    expect(String(plain.headers['set-cookie'])).not.toContain('locale=');
    expect((await update(u.token, { locale: 'en' })).Code).toBe(0);
    const res = await t.call('POST', '/api/v3/users/username.login', {
      body: { username: u.username, password: u.password },
    });
    expect(res.body.Code).toBe(0);
    expect(String(res.headers['set-cookie'])).toMatch(/(^|,)\s*locale=en;/);
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { Code, type SiteInfo } from '@luntan/shared';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, buildUser, startTestServer, type TestServer } from '../../test/harness.js';

let t: TestServer;
let admin: string;
let member: string;
let png: Buffer;
/** The server's errors, to tell what an unexpected internal error was. */
const errors: string[] = [];
const logStream = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString().split('\n')) if (/"level":(50|60)/.test(line)) errors.push(line.slice(0, 2000));
    done();
  },
});

beforeAll(async () => {
  t = await startTestServer({ logStream });
  admin = await t.login(ADMIN.username, ADMIN.password);
  member = (await buildUser(t)).token;
  png = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#3366ff' } })
    .png()
    .toBuffer();
});
afterAll(async () => {
  await t.close();
});

const set = (data: unknown, token?: string) => t.post('/api/settings.v2', { data }, token);
const siteName = async () => (await t.get<SiteInfo>('/api/siteinfo.v2')).Data.siteName;

describe('site information', () => {
  it('is public and holds only public fields', async () => {
    const res = await t.get<SiteInfo>('/api/siteinfo.v2');
    expect(res.Code).toBe(0);
    expect(Object.keys(res.Data).sort()).toEqual(
      [
        'siteName',
        'siteKeywords',
        'siteIntroduction',
        'siteFavicon',
        'siteStat',
        'siteLogo',
        'siteHeaderLogo',
        'siteBackgroundImage',
        'siteUrl',
        'version',
        'siteRecord',
        'siteRecordCode',
        'siteClose',
        'siteCloseMsg',
        'siteLocale',
        'registerClose',
        'registerCaptcha',
        'loginCaptcha',
        'registerInviteOnly',
        'registerAgreementOpen',
        'siteMode',
        'sitePrice',
        'siteExpire',
        'mailEnabled',
        'smsEnabled',
      ].sort(),
    );
    expect(res.Data.version).toBe('v3.0.220113');
  });

  it('never shows a secret stored under another tag', async () => {
    // Secrets (payment keys) are stored by their own modules, not through the settings call.
    await t.server.database.db
      .insertInto('settings')
      .values({ key: 'secretKey', tag: 'wxpay', value: 'top-secret-value' })
      .execute();
    const site = JSON.stringify(await t.get('/api/siteinfo.v2'));
    const forum = JSON.stringify(await t.get('/api/v3/forum', member));
    expect(site).not.toContain('top-secret-value');
    expect(forum).not.toContain('top-secret-value');
  });
});

describe('settings.v2', () => {
  it('writes strings, numbers and booleans, and reads them back typed', async () => {
    const res = await set(
      [
        { key: 'siteName', value: '我的论坛', tag: 'default' },
        { key: 'siteKeywords', value: '论坛,社区', tag: 'default' },
        { key: 'siteStat', value: '<script>var stat=1</script>', tag: 'default' },
        { key: 'attachmentSizeLimit', value: 2048, tag: 'default' },
        { key: 'siteClose', value: false, tag: 'default' },
        { key: 'siteLogo', value: '/uploads/site/logo-abc.png', tag: 'default' },
        { key: 'siteFavicon', value: 'https://cdn.example.com/favicon.ico', tag: 'default' },
        { key: 'siteUrl', value: 'https://forum.example.com', tag: 'default' },
      ],
      admin,
    );
    expect(res).toMatchObject({ Code: 0, Data: { updated: 8 } });
    expect(await siteName()).toBe('我的论坛');
    const one = await t.get('/api/settings.v2?key=attachmentSizeLimit&tag=default', admin);
    expect(one).toMatchObject({ Code: 0, Data: { key: 'attachmentSizeLimit', tag: 'default', value: 2048 } });
    const site = await t.get<SiteInfo>('/api/siteinfo.v2');
    expect(site.Data).toMatchObject({
      siteKeywords: '论坛,社区',
      siteStat: '<script>var stat=1</script>',
      siteClose: false,
      siteLogo: '/uploads/site/logo-abc.png',
      siteFavicon: 'https://cdn.example.com/favicon.ico',
      siteUrl: 'https://forum.example.com',
    });
  });

  it.each([
    ['no data', {}],
    ['data not an array', { data: 'x' }],
    ['empty data', { data: [] }],
    ['an item without key', { data: [{ value: 'x', tag: 'default' }] }],
    ['an item without tag', { data: [{ key: 'siteName', value: 'x' }] }],
    ['an object as value', { data: [{ key: 'siteName', value: { a: 1 }, tag: 'default' }] }],
    ['an oversized value', { data: [{ key: 'siteName', value: 'x'.repeat(100_001), tag: 'default' }] }],
    ['a text for a boolean setting', { data: [{ key: 'siteClose', value: 'maybe', tag: 'default' }] }],
    ['an unknown locale', { data: [{ key: 'siteLocale', value: 'fr', tag: 'default' }] }],
    ['an unknown key', { data: [{ key: '../../../../etc/passwd', value: 'x', tag: 'default' }] }],
    ['a known key under another tag', { data: [{ key: 'siteName', value: 'x', tag: 'plugin_demo' }] }],
    ['a javascript: logo', { data: [{ key: 'siteLogo', value: 'javascript:alert(1)', tag: 'default' }] }],
    ['a javascript: site URL', { data: [{ key: 'siteUrl', value: 'JavaScript:alert(1)', tag: 'default' }] }],
    ['a data: favicon', { data: [{ key: 'siteFavicon', value: 'data:image/svg+xml,<svg/>', tag: 'default' }] }],
    ['a protocol-relative logo', { data: [{ key: 'siteLogo', value: '//evil.example/x.png', tag: 'default' }] }],
    ['a relative site URL', { data: [{ key: 'siteUrl', value: '/forum', tag: 'default' }] }],
    ['a number as a logo', { data: [{ key: 'siteHeaderLogo', value: 5, tag: 'default' }] }],
  ])('refuses %s with -4001 and changes nothing', async (_name, body) => {
    const before = await siteName();
    const stored = JSON.stringify((await t.get('/api/backAdmin/settings', admin)).Data);
    const res = await t.post('/api/settings.v2', body, admin);
    expect(res.Code).toBe(Code.INVALID_PARAMETER);
    expect((res.Data as { field?: string }).field).toMatch(/^data/);
    expect(await siteName()).toBe(before);
    expect(JSON.stringify((await t.get('/api/backAdmin/settings', admin)).Data)).toBe(stored);
  });

  it.each([
    // 1,000,000,000 days made paying the joining fee fail (-5002), 3,000,000 gave a six-digit year, -1 for ever.
    ['siteExpire', 1_000_000_000],
    ['siteExpire', 3_000_000],
    ['siteExpire', 36_501],
    ['siteExpire', -1],
    ['siteExpire', 1.5],
    ['siteExpire', '1e9'],
    ['siteExpire', ''],
    ['siteExpire', true],
    ['attachmentSizeLimit', 0],
    ['attachmentSizeLimit', 20 * 1024 + 1],
    ['attachmentSizeLimit', 0.5],
    ['supportMaxSize', 0],
    ['supportMaxSize', 21],
    ['supportMaxSize', 1.5],
    ['supportMaxUploadAttachmentNum', 0],
    ['supportMaxUploadAttachmentNum', 101],
    ['supportMaxUploadAttachmentNum', -1],
    ['cashSumLimit', -1],
    ['cashSumLimit', 2.5],
    ['siteAuthorScale', 11],
    ['siteMasterScale', -1],
  ])('refuses %s = %j with -4001 naming it, and stores nothing', async (key, value) => {
    const stored = JSON.stringify((await t.get('/api/backAdmin/settings', admin)).Data);
    // An acceptable change in the same call is not stored either.
    const res = await set(
      [
        { key: 'siteName', value: `not stored ${key}`, tag: 'default' },
        { key, value, tag: 'default' },
      ],
      admin,
    );
    expect(res.Code).toBe(Code.INVALID_PARAMETER);
    expect((res.Data as { field?: string }).field).toBe('data.1.value');
    expect(res.Message).toContain(key);
    expect(JSON.stringify((await t.get('/api/backAdmin/settings', admin)).Data)).toBe(stored);
  });

  it('stores number settings at both ends of their ranges', async () => {
    const read = async (key: string) =>
      (await t.get<{ value: unknown }>(`/api/settings.v2?key=${key}&tag=default`, admin)).Data.value;
    const ranges: [string, number, number][] = [
      ['siteExpire', 0, 36_500],
      ['attachmentSizeLimit', 1, 20 * 1024],
      ['supportMaxSize', 1, 20],
      ['supportMaxUploadAttachmentNum', 1, 100],
      ['cashSumLimit', 0, 1_000_000],
      ['siteAuthorScale', 0, 10],
      ['siteMasterScale', 0, 10],
    ];
    const before = await Promise.all(ranges.map(([key]) => read(key)));
    for (const end of [1, 2] as const) {
      const res = await set(
        ranges.map((r) => ({ key: r[0], value: r[end], tag: 'default' })),
        admin,
      );
      expect(res, JSON.stringify(res)).toMatchObject({ Code: 0, Data: { updated: ranges.length } });
      expect(await Promise.all(ranges.map(([key]) => read(key)))).toEqual(ranges.map((r) => r[end]));
    }
    // A number written as text is a number too.
    expect((await set([{ key: 'siteExpire', value: '365', tag: 'default' }], admin)).Code).toBe(0);
    expect(await read('siteExpire')).toBe(365);
    await set(
      ranges.map(([key], i) => ({ key, value: before[i] as number, tag: 'default' })),
      admin,
    );
  });

  it('never hands out a URL setting stored before URLs were checked', async () => {
    await t.server.database.db
      .insertInto('settings')
      .values({ key: 'siteBackgroundImage', tag: 'default', value: 'javascript:alert(1)' })
      .onConflict((oc) => oc.columns(['key', 'tag']).doUpdateSet({ value: 'javascript:alert(1)' }))
      .execute();
    const site = await t.get<SiteInfo>('/api/siteinfo.v2');
    expect(site.Data.siteBackgroundImage).toBe('');
  });

  it('writes all entries or none', async () => {
    const before = await siteName();
    const res = await set(
      [
        { key: 'siteName', value: 'half written', tag: 'default' },
        { key: 'siteClose', value: 'nope', tag: 'default' },
      ],
      admin,
    );
    expect(res.Code).toBe(Code.INVALID_PARAMETER);
    expect(await siteName()).toBe(before);
  });

  it('needs key and tag to read', async () => {
    expect((await t.get('/api/settings.v2?key=siteName', admin)).Code).toBe(Code.INVALID_PARAMETER);
    expect((await t.get('/api/settings.v2?tag=default', admin)).Code).toBe(Code.INVALID_PARAMETER);
  });

  it('lists every stored setting for the back office', async () => {
    const res = await t.get<{ key: string; tag: string }[]>('/api/backAdmin/settings', admin);
    expect(res.Code).toBe(0);
    expect(res.Data.some((s) => s.key === 'siteName' && s.tag === 'default')).toBe(true);
  });
});

describe('site images', () => {
  const dataUrl = () => `data:image/png;base64,${png.toString('base64')}`;

  it('stores a logo from a data URL, serves it back, and deletes it', async () => {
    const res = await t.post<{ url: string }>('/api/settings/logo.v2', { type: 'logo', logo: dataUrl() }, admin);
    expect(res.Code).toBe(0);
    expect(res.Data.url).toMatch(/^\/uploads\/site\/logo-[0-9a-f]{16}\.png$/);
    expect((await t.get<SiteInfo>('/api/siteinfo.v2')).Data.siteLogo).toBe(res.Data.url);
    const served = await t.app.inject({ method: 'GET', url: res.Data.url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(png)).toBe(true);

    const file = path.join(t.storage.dataDir, res.Data.url);
    expect(fs.existsSync(file)).toBe(true);
    expect((await t.post('/api/settings/delete.logo.v2', { type: 'logo' }, admin)).Code).toBe(0);
    expect((await t.get<SiteInfo>('/api/siteinfo.v2')).Data.siteLogo).toBe('');
    expect(fs.existsSync(file)).toBe(false);
  });

  it('accepts a multipart upload', async () => {
    const boundary = '----luntan' + Date.now();
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\nfavicon\r\n`),
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="logo"; filename="f.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      png,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/settings/logo.v2',
      headers: { authorization: `Bearer ${admin}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: body,
    });
    expect(res.json()).toMatchObject({ Code: 0, Data: { type: 'favicon' } });
    expect((await t.get<SiteInfo>('/api/siteinfo.v2')).Data.siteFavicon).toMatch(/^\/uploads\/site\/favicon-/);
  });

  it.each([
    [
      'text posing as a PNG',
      { type: 'logo', logo: `data:image/png;base64,${Buffer.from('hello').toString('base64')}` },
    ],
    [
      'an SVG',
      {
        type: 'logo',
        logo: `data:image/svg+xml;base64,${Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>').toString('base64')}`,
      },
    ],
    ['an unknown type', { type: 'banner', logo: 'data:image/png;base64,AAAA' }],
    ['no logo', { type: 'logo' }],
    ['not a data URL', { type: 'logo', logo: 'http://example.com/x.png' }],
  ])('refuses %s with -4001', async (_name, body) => {
    const res = await t.post('/api/settings/logo.v2', body, admin);
    expect(res.Code).toBe(Code.INVALID_PARAMETER);
  });

  it('refuses an image over 5 MB', async () => {
    const big = Buffer.alloc(5 * 1024 * 1024 + 10, 1);
    png.copy(big);
    const res = await t.call('POST', '/api/settings/logo.v2', {
      token: admin,
      body: { type: 'logo', logo: `data:image/png;base64,${big.toString('base64')}` },
    });
    expect(res.body.Code, errors.join('\n')).toBe(Code.INVALID_PARAMETER);
  });
});

describe('administrator calls refuse guests and members, and change nothing', () => {
  const calls: [string, string, unknown][] = [
    ['GET', '/api/settings.v2?key=siteName&tag=default', undefined],
    ['POST', '/api/settings.v2', { data: [{ key: 'siteName', value: 'hijacked', tag: 'default' }] }],
    ['GET', '/api/backAdmin/settings', undefined],
    ['POST', '/api/settings/logo.v2', { type: 'logo', logo: 'data:image/png;base64,AAAA' }],
    ['POST', '/api/settings/delete.logo.v2', { type: 'logo' }],
    ['GET', '/api/groups.list.v2', undefined],
    ['GET', '/api/group.resource.v2?id=10&include=permission', undefined],
    ['POST', '/api/permission.v2', { groupId: 10, permissions: [] }],
  ];

  it.each(calls)('%s %s', async (method, url, body) => {
    const logo = await t.post<{ url: string }>(
      '/api/settings/logo.v2',
      { type: 'logo', logo: `data:image/png;base64,${png.toString('base64')}` },
      admin,
    );
    const before = {
      site: (await t.get<SiteInfo>('/api/siteinfo.v2')).Data,
      perms: (await t.get<{ permissions: string[] }>('/api/group.resource.v2?id=10&include=permission', admin)).Data
        .permissions,
    };
    const asGuest = await t.call(method as 'GET', url, { body });
    expect(asGuest.body.Code).toBe(Code.JUMP_TO_LOGIN);
    const asMember = await t.call(method as 'GET', url, { body, token: member });
    expect(asMember.body.Code).toBe(Code.UNAUTHORIZED);
    // Invalid input from a guest is still a guest's refusal: authorisation comes first.
    const badBody = await t.call(method as 'GET', url, {
      body: method === 'POST' ? '{not json' : undefined,
      headers: { 'content-type': 'application/json' },
    });
    expect(badBody.body.Code).toBe(Code.JUMP_TO_LOGIN);
    const after = {
      site: (await t.get<SiteInfo>('/api/siteinfo.v2')).Data,
      perms: (await t.get<{ permissions: string[] }>('/api/group.resource.v2?id=10&include=permission', admin)).Data
        .permissions,
    };
    expect(after).toEqual(before);
    expect(after.site.siteLogo).toBe(logo.Data.url);
  });
});

import { randomBytes } from 'node:crypto';
import { Code, type PluginAdminItem, type PluginListItem } from '@luntan/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bumpCacheVersion } from '../../core/cache-versions.js';
import { ADMIN, buildUser, startTestServer, type TestServer } from '../../test/harness.js';
import { PLUGINS_CACHE } from './plugins.service.js';
import { CLIENT_JS, manifest, operate, pluginFiles, tgz, uploadPlugin, zip } from '../../test/plugin-fixtures.js';

let t: TestServer;
let admin: string;
let member: Awaited<ReturnType<typeof buildUser>>;

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login(ADMIN.username, ADMIN.password);
  member = await buildUser(t);
});
afterAll(async () => {
  await t.close();
});

const counts = async () => {
  const db = t.app.ctx.db;
  const [p, f] = await Promise.all([
    db
      .selectFrom('plugins')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('pluginFiles')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { plugins: Number(p.n), files: Number(f.n) };
};
const publicList = async (platform = 'pc') =>
  (await t.get<PluginListItem[]>(`/api/v3/plugin/list?platform=${platform}`)).Data;
const adminList = async () => (await t.get<PluginAdminItem[]>('/api/backAdmin/plugin/list', admin)).Data;

/** The server part used below: routes reading the viewer, settings and the store. */
const SERVER_JS = (version: string) => `
export default function register(router, ctx) {
  router.get('hello', async (req) => ({
    hello: req.viewer ? req.viewer.username : 'guest',
    isAdmin: req.viewer ? req.viewer.isAdmin : false,
    greeting: (await ctx.settings()).greeting,
    version: '${version}',
  }));
  router.post('count', async () => ({ n: await ctx.store.increment('n') }));
  router.post('vote/:poll', async (req) => ({
    poll: req.params.poll,
    added: req.viewer ? await ctx.store.add('vote:' + req.params.poll + ':' + req.viewer.id, req.body) : false,
  }));
  router.get('refuse', () => {
    throw { code: -4001, message: 'the poll is closed' };
  });
  router.get('crash', () => {
    throw new Error('a bug');
  });
}
`;

const withServer = (version = '1.0.0', extra: Record<string, unknown> = {}) =>
  pluginFiles(
    manifest({
      appid: 'greeter',
      pluginName: 'Greeter',
      version,
      server: 'server.js',
      settings: [
        { key: 'greeting', type: 'string', label: { zh: '问候语', en: 'Greeting' }, default: '你好' },
        { key: 'apiKey', type: 'string', label: { zh: '密钥', en: 'API key' }, visibility: 'secret' },
        { key: 'show', type: 'boolean', label: { zh: '显示', en: 'Show' }, default: true },
      ],
      ...extra,
    }),
    { 'server.js': SERVER_JS(version) },
  );

describe('who may manage plugins', () => {
  it('refuses guests and members on every administrator call', async () => {
    const bytes = await tgz(pluginFiles());
    expect((await uploadPlugin(t, undefined, bytes)).Code).toBe(Code.JUMP_TO_LOGIN);
    expect((await uploadPlugin(t, member.token, bytes)).Code).toBe(Code.UNAUTHORIZED);
    expect((await t.get('/api/backAdmin/plugin/list', member.token)).Code).toBe(Code.UNAUTHORIZED);
    expect((await operate(t, member.token, 'hello', 'enable')).Code).toBe(Code.UNAUTHORIZED);
    const settings = await t.post('/api/backAdmin/plugin/settings', { appid: 'hello', settings: {} }, member.token);
    expect(settings.Code).toBe(Code.UNAUTHORIZED);
    expect(await counts()).toEqual({ plugins: 0, files: 0 });
  });
});

describe('bad packages', () => {
  const cases: [string, () => Promise<Buffer> | Buffer, RegExp][] = [
    ['no pluginName', () => tgz(pluginFiles(manifest({ pluginName: undefined }))), /pluginName|插件名称/],
    ['a two-part version', () => tgz(pluginFiles(manifest({ version: '1.0' }))), /版本号/],
    ['a four-digit part', () => tgz(pluginFiles(manifest({ version: '1.0.1000' }))), /版本号/],
    [
      'an unknown target',
      () => tgz(pluginFiles(manifest({ entries: [{ target: 'plugin_nowhere', hookName: 'x', component: 'A' }] }))),
      /插件位置|target/,
    ],
    [
      'a hook the target lacks',
      () =>
        tgz(
          pluginFiles(manifest({ entries: [{ target: 'plugin_index', hookName: 'footer_replace', component: 'A' }] })),
        ),
      /没有名为 footer_replace 的钩子/,
    ],
    ['an empty platform', () => tgz(pluginFiles(manifest({ platform: [] }))), /平台/],
    ['an unknown platform', () => tgz(pluginFiles(manifest({ platform: ['tv'] }))), /平台/],
    ['no author', () => tgz(pluginFiles(manifest({ author: undefined }))), /作者/],
    ['no type', () => tgz(pluginFiles(manifest({ type: undefined }))), /插件类型/],
    ['no appid', () => tgz(pluginFiles(manifest({ appid: undefined }))), /插件 ID|appid/],
    ['a missing client file', () => tgz({ 'plugin.json': JSON.stringify(manifest()) }), /client.js/],
    ['no plugin.json', () => tgz({ 'client.js': CLIENT_JS }), /plugin\.json/],
    ['plugin.json not JSON', () => tgz({ 'plugin.json': '{oops', 'client.js': CLIENT_JS }), /JSON/],
    ['a zip-slip path in a zip', () => zip({ ...pluginFiles(), '../evil.js': 'x' }), /插件目录之外/],
    ['a zip-slip path in a tgz', () => tgz({ ...pluginFiles(), 'a/../../evil.js': 'x' }), /插件目录之外/],
    ['an absolute path', () => tgz({ ...pluginFiles(), '/etc/evil.js': 'x' }), /插件目录之外/],
    ['a symbolic link', () => tgz(pluginFiles(), { 'link.js': '/etc/passwd' }), /插件目录之外/],
    [
      'too many files',
      () => tgz({ ...pluginFiles(), ...Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`f${i}.txt`, 'x'])) }),
      /最多包含 200 个文件/,
    ],
    ['more than 5 MB', () => tgz(pluginFiles(manifest(), { 'big.bin': randomBytes(6 * 1024 * 1024) })), /5 MB/],
    [
      'a zip bomb (over 20 MB unpacked)',
      () => tgz(pluginFiles(manifest(), { 'zeros.bin': Buffer.alloc(21 * 1024 * 1024) })),
      /20 MB/,
    ],
    ['not an archive', () => Buffer.from('just some text, not a package'), /\.zip 或 \.tgz/],
    ['a damaged archive', () => Buffer.from([0x1f, 0x8b, 8, 0, 1, 2, 3, 4]), /已损坏/],
  ];

  for (const [name, make, message] of cases) {
    it(`refuses ${name}, keeping nothing`, async () => {
      const res = await uploadPlugin(t, admin, await make());
      expect(res.Code).toBe(Code.INVALID_PARAMETER);
      expect(res.Message).toMatch(message);
      expect(await counts()).toEqual({ plugins: 0, files: 0 });
    });
  }

  it('refuses an empty upload with a written message', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/backAdmin/plugin/upload',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(res.json()).toMatchObject({ Code: Code.INVALID_PARAMETER, Data: { field: 'file' } });
  });
});

describe('installing, switching, updating and removing', () => {
  it('installs disabled, shows on the platforms it names once enabled, serves its module for good', async () => {
    const res = await uploadPlugin(t, admin, zip(pluginFiles(manifest({ platform: ['h5'] }))), 'hello.zip');
    expect(res.Code).toBe(0);
    expect(res.Data).toMatchObject({
      kept: 'uploaded',
      previousVersion: null,
      item: { appid: 'hello', enabled: false },
    });
    expect(await publicList('h5')).toEqual([]);
    expect((await operate(t, admin, 'hello', 'enable')).Code).toBe(0);
    const [item] = await publicList('h5');
    expect(item).toMatchObject({ appid: 'hello', version: '1.0.0', entries: [{ hookName: 'right_insert' }] });
    expect(await publicList('pc')).toEqual([]);
    expect(item!.moduleUrl).toMatch(/^\/plugin-assets\/hello\/[0-9a-f]{64}\/client\.js$/);
    const asset = await t.app.inject({ url: item!.moduleUrl });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-type']).toMatch(/^text\/javascript/);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.body).toBe(CLIENT_JS);
    expect((await t.app.inject({ url: item!.moduleUrl.replace('client.js', 'nope.js') })).statusCode).toBe(404);

    expect((await operate(t, admin, 'hello', 'disable')).Code).toBe(0);
    expect(await publicList('h5')).toEqual([]);
    expect((await operate(t, admin, 'hello', 'delete')).Code).toBe(0);
    expect(await adminList()).toEqual([]);
    expect(await counts()).toEqual({ plugins: 0, files: 0 });
    expect((await t.app.inject({ url: item!.moduleUrl })).statusCode).toBe(404);
    expect((await operate(t, admin, 'hello', 'enable')).Code).toBe(Code.RESOURCE_NOT_FOUND);
  });

  it('are read once while the plugins counter stays, and anew once a change has moved it', async () => {
    expect((await uploadPlugin(t, admin, zip(pluginFiles(manifest({ appid: 'kept' }))), 'kept.zip')).Code).toBe(0);
    expect((await operate(t, admin, 'kept', 'enable')).Code).toBe(0);
    expect((await publicList()).map((p) => p.appid)).toContain('kept');
    // Written straight to the table, the change is not announced: the next calls answer from what was read.
    await t.app.ctx.db.updateTable('plugins').set({ enabled: 0 }).where('appid', '=', 'kept').execute();
    expect((await publicList()).map((p) => p.appid)).toContain('kept');
    // Every change through the back office moves the counter (plugins.service.ts), as this does.
    await bumpCacheVersion(t.app.ctx.db, PLUGINS_CACHE);
    expect((await publicList()).map((p) => p.appid)).not.toContain('kept');
    expect((await operate(t, admin, 'kept', 'delete')).Code).toBe(0);
  });

  it('keeps the higher version by the joined-digits rule, and says so', async () => {
    expect((await uploadPlugin(t, admin, await tgz(pluginFiles(manifest({ version: '1.0.9' }))))).Code).toBe(0);
    await operate(t, admin, 'hello', 'enable');
    for (const lower of ['1.0.9', '1.0.0', '0.9.9']) {
      const res = await uploadPlugin(t, admin, await tgz(pluginFiles(manifest({ version: lower }))));
      expect(res.Code).toBe(Code.RESOURCE_EXIST);
      expect(res.Message).toContain('1.0.9');
      expect(res.Data).toMatchObject({ kept: 'installed', version: '1.0.9' });
    }
    const before = (await publicList())[0]!;
    // 1.0.10 joins to 1010, above 109: it replaces the installed one, which stays enabled.
    const up = await uploadPlugin(
      t,
      admin,
      await tgz(pluginFiles(manifest({ version: '1.0.10' }), { 'x.txt': 'new' })),
    );
    expect(up.Data).toMatchObject({
      kept: 'uploaded',
      previousVersion: '1.0.9',
      item: { version: '1.0.10', enabled: true },
    });
    const after = (await publicList())[0]!;
    expect(after.moduleUrl).not.toBe(before.moduleUrl);
    expect((await t.app.inject({ url: before.moduleUrl })).statusCode).toBe(404);
    expect((await t.app.inject({ url: after.moduleUrl })).statusCode).toBe(200);
    await operate(t, admin, 'hello', 'delete');
  });
});

describe('names and descriptions per language', () => {
  const inLocale = async <T>(url: string, locale: 'zh' | 'en', token?: string) =>
    (
      await t.call('GET', url, {
        ...(token ? { token } : {}),
        headers: { cookie: `locale=${locale}` },
      })
    ).body as { Code: number; Data: T };

  it("answers the page's language, the other one standing in for a missing one; a plain string in both", async () => {
    const bilingual = manifest({
      appid: 'bilingual',
      pluginName: { zh: '投票', en: 'Poll' },
      description: { zh: '在主题里投票', en: 'Vote in a thread' },
    });
    expect((await uploadPlugin(t, admin, await tgz(pluginFiles(bilingual)))).Code).toBe(0);
    const englishOnly = manifest({ appid: 'english-only', pluginName: { en: 'Only English' } });
    expect((await uploadPlugin(t, admin, await tgz(pluginFiles(englishOnly)))).Code).toBe(0);
    expect((await uploadPlugin(t, admin, await tgz(pluginFiles(manifest({ appid: 'plain' }))))).Code).toBe(0);
    for (const appid of ['bilingual', 'english-only', 'plain']) await operate(t, admin, appid, 'enable');

    const zh = (await inLocale<PluginAdminItem[]>('/api/backAdmin/plugin/list', 'zh', admin)).Data;
    const en = (await inLocale<PluginAdminItem[]>('/api/backAdmin/plugin/list', 'en', admin)).Data;
    const find = (list: PluginAdminItem[], appid: string) => list.find((p) => p.appid === appid)!;
    expect(find(zh, 'bilingual')).toMatchObject({
      pluginName: '投票',
      description: '在主题里投票',
      pluginNames: { zh: '投票', en: 'Poll' },
      descriptions: { zh: '在主题里投票', en: 'Vote in a thread' },
    });
    expect(find(en, 'bilingual')).toMatchObject({ pluginName: 'Poll', description: 'Vote in a thread' });
    expect(find(zh, 'english-only')).toMatchObject({
      pluginName: 'Only English',
      pluginNames: { zh: 'Only English', en: 'Only English' },
      description: '',
    });
    expect(find(en, 'plain').pluginNames).toEqual({ zh: 'Hello', en: 'Hello' });

    const pages = (await inLocale<PluginListItem[]>('/api/v3/plugin/list?platform=pc', 'en')).Data;
    expect(pages.find((p) => p.appid === 'bilingual')).toMatchObject({
      pluginName: 'Poll',
      pluginNames: { zh: '投票', en: 'Poll' },
    });
    // Without a cookie: the site's language, zh.
    expect((await publicList()).find((p) => p.appid === 'bilingual')!.pluginName).toBe('投票');

    // The refusal of a version that is not higher names the plugin in each language.
    const again = await uploadPlugin(t, admin, await tgz(pluginFiles(bilingual)));
    expect(again.Code).toBe(Code.RESOURCE_EXIST);
    expect(again.Message).toContain('投票');
    for (const appid of ['bilingual', 'english-only', 'plain']) await operate(t, admin, appid, 'delete');
  });

  const refusals: [string, unknown, RegExp, string][] = [
    ['an empty object', { pluginName: {} }, /插件名称需要 zh 或 en 的文字/, 'pluginName'],
    ['only other languages', { pluginName: { fr: 'Sondage' } }, /插件名称需要 zh 或 en 的文字/, 'pluginName'],
    ['a blank zh name', { pluginName: { zh: ' ', en: 'Poll' } }, /插件名称不能为空/, 'pluginName.zh'],
    ['a name over 60 characters', { pluginName: { en: 'x'.repeat(61) } }, /插件名称最多 60 个字符/, 'pluginName.en'],
    ['a number', { pluginName: 7 }, /插件名称/, 'pluginName'],
    ['a long description', { description: { zh: '长'.repeat(501) } }, /插件说明最多 500 个字符/, 'description.zh'],
  ];
  for (const [name, change, message, field] of refusals) {
    it(`refuses ${name} with a written message`, async () => {
      const res = await uploadPlugin(t, admin, await tgz(pluginFiles(manifest(change as Record<string, unknown>))));
      expect(res.Code).toBe(Code.INVALID_PARAMETER);
      expect(res.Message).toMatch(message);
      expect(res.Message).toContain(`（${field}）`);
      expect(await counts()).toEqual({ plugins: 0, files: 0 });
    });
  }
});

describe('settings', () => {
  it('are checked against the schema; pages get the public ones only', async () => {
    await uploadPlugin(t, admin, await tgz(withServer()));
    await operate(t, admin, 'greeter', 'enable');
    const save = (settings: Record<string, unknown>) =>
      t.post<PluginAdminItem>('/api/backAdmin/plugin/settings', { appid: 'greeter', settings }, admin);
    expect((await save({ nope: 'x' })).Data).toMatchObject({ field: 'settings.nope' });
    expect((await save({ show: 'yes' })).Message).toMatch(/显示需要是开或关/);
    expect((await save({ greeting: 'line\nbreak' })).Code).toBe(Code.INVALID_PARAMETER);
    const saved = await save({ greeting: '欢迎', apiKey: 'sk-secret' });
    expect(saved.Data.allSettings).toEqual({ greeting: '欢迎', apiKey: 'sk-secret', show: true });
    expect((await publicList())[0]!.settings).toEqual({ greeting: '欢迎', show: true });
    const info = await t.get<{ settings: Record<string, unknown> }>('/api/v3/plugin/settinginfo?appid=greeter');
    expect(info.Data.settings).toEqual({ greeting: '欢迎', show: true });
    expect(JSON.stringify(await publicList())).not.toContain('sk-secret');
  });
});

describe('server parts', () => {
  it('answer under /api/plugin/<appid>/ with the viewer, settings and store; -4004 once disabled', async () => {
    const hello = await t.get<{ hello: string; greeting: string }>('/api/plugin/greeter/hello', member.token);
    expect(hello).toMatchObject({ Code: 0, Data: { hello: member.username, greeting: '欢迎', version: '1.0.0' } });
    expect((await t.get<{ hello: string }>('/api/plugin/greeter/hello')).Data.hello).toBe('guest');
    expect((await t.post<{ n: number }>('/api/plugin/greeter/count', {}, member.token)).Data.n).toBe(1);
    const counted = await Promise.all(
      Array.from({ length: 10 }, () => t.post<{ n: number }>('/api/plugin/greeter/count', {})),
    );
    expect(counted.map((r) => r.Data.n).sort((a, b) => a - b)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    const vote = (token: string) => t.post<{ added: boolean }>('/api/plugin/greeter/vote/7', { option: 1 }, token);
    expect((await vote(member.token)).Data).toEqual({ poll: '7', added: true });
    expect((await vote(member.token)).Data.added).toBe(false);
    expect(await t.get('/api/plugin/greeter/refuse')).toMatchObject({ Code: -4001, Message: 'the poll is closed' });
    const crash = await t.get('/api/plugin/greeter/crash');
    expect(crash.Code).toBe(Code.INTERNAL_ERROR);
    expect(crash.Message).not.toContain('a bug');
    expect((await t.get('/api/plugin/greeter/missing')).Code).toBe(Code.RESOURCE_NOT_FOUND);
    expect((await t.get('/api/plugin/nobody/hello')).Code).toBe(Code.RESOURCE_NOT_FOUND);
  });

  it('follow enabling, disabling and updating in another app process over the same database at once', async () => {
    const other = await startTestServer({ storage: t.storage });
    try {
      const hello = async (server: TestServer) => server.get<{ version: string }>('/api/plugin/greeter/hello');
      expect((await hello(other)).Data.version).toBe('1.0.0');
      await operate(t, admin, 'greeter', 'disable');
      expect((await hello(other)).Code).toBe(Code.RESOURCE_NOT_FOUND);
      expect((await other.get<PluginListItem[]>('/api/v3/plugin/list')).Data.map((p) => p.appid)).not.toContain(
        'greeter',
      );
      await operate(t, admin, 'greeter', 'enable');
      expect((await hello(other)).Code).toBe(0);
      expect((await uploadPlugin(t, admin, await tgz(withServer('1.1.0')))).Code).toBe(0);
      expect((await hello(other)).Data.version).toBe('1.1.0');
      expect((await hello(t)).Data.version).toBe('1.1.0');
      // Settings and the store survive the update.
      expect((await other.post<{ n: number }>('/api/plugin/greeter/count', {})).Data.n).toBe(12);
      await operate(t, admin, 'greeter', 'delete');
      expect((await hello(other)).Code).toBe(Code.RESOURCE_NOT_FOUND);
    } finally {
      await other.close({ keep: true });
    }
  });

  it('a server module whose import never finishes is given up after 5 s, disabled, and says why', async () => {
    const files = pluginFiles(manifest({ appid: 'stuck', server: 'server.js' }), {
      'server.js': "await new Promise(() => {});\nexport default function (router) { router.get('hi', () => ({})); }\n",
    });
    expect((await uploadPlugin(t, admin, await tgz(files))).Code).toBe(0);
    const enabled = await operate(t, admin, 'stuck', 'enable');
    expect(enabled.Code).toBe(Code.INVALID_PARAMETER);
    expect(enabled.Message).toContain('took too long to load');
    expect((await adminList()).find((p) => p.appid === 'stuck')).toMatchObject({ enabled: false });
    expect((await t.get('/api/plugin/stuck/hi')).Code).toBe(Code.RESOURCE_NOT_FOUND);
    await operate(t, admin, 'stuck', 'delete');
  }, 20_000);

  it('an administrator’s API key without the admin scope is no administrator to a plugin’s routes', async () => {
    const files = pluginFiles(manifest({ appid: 'keyed', server: 'server.js' }), { 'server.js': SERVER_JS('1.0.0') });
    expect((await uploadPlugin(t, admin, await tgz(files))).Code).toBe(0);
    expect((await operate(t, admin, 'keyed', 'enable')).Code).toBe(0);
    for (const [scope, isAdmin] of [
      ['read', false],
      ['write', false],
      ['admin', true],
    ] as const) {
      const made = await t.post<{ key: string }>('/api/backAdmin/apikeys', { name: `plugin ${scope}`, scope }, admin);
      expect(made.Code, made.Message).toBe(0);
      const seen = await t.get<{ isAdmin: boolean }>('/api/plugin/keyed/hello', made.Data.key);
      expect(seen.Data.isAdmin, scope).toBe(isAdmin);
    }
    expect((await t.get<{ isAdmin: boolean }>('/api/plugin/keyed/hello', admin)).Data.isAdmin).toBe(true);
    await operate(t, admin, 'keyed', 'delete');
  });

  it('a server module that throws while loading leaves its plugin disabled and says why; the forum goes on', async () => {
    const files = pluginFiles(manifest({ appid: 'broken', server: 'server.js' }), {
      'server.js': "export default function () { throw new Error('cannot start: no database'); }\n",
    });
    expect((await uploadPlugin(t, admin, await tgz(files))).Code).toBe(0);
    const enabled = await operate(t, admin, 'broken', 'enable');
    expect(enabled.Code).toBe(Code.INVALID_PARAMETER);
    expect(enabled.Message).toContain('cannot start: no database');
    const item = (await adminList()).find((p) => p.appid === 'broken')!;
    expect(item).toMatchObject({ enabled: false, serverError: 'cannot start: no database' });
    expect((await t.get('/api/plugin/broken/anything')).Code).toBe(Code.RESOURCE_NOT_FOUND);
    expect((await t.get('/api/v3/thread.list')).Code).toBe(0);
    await operate(t, admin, 'broken', 'delete');
  });
});

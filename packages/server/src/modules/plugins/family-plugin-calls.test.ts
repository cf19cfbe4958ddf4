import { Code } from '@luntan/shared';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../../test/fixture.js';
import { manifest, operate, pluginFiles, tgz, uploadPlugin } from '../../test/plugin-fixtures.js';

const t = useTestServer();

const ENVELOPE_KEYS = ['Code', 'Data', 'Message', 'RequestId', 'RequestTime'];
const CALLS = [
  ['POST', '/plugin/activity/api/register/append'],
  ['POST', '/plugin/activity/api/register/cancel'],
  ['GET', '/plugin/activity/api/register/list'],
  ['POST', '/plugin/shop/api/goods/analysis'],
  ['GET', '/plugin/shop/api/wxshop/list'],
] as const;

describe("the family client's calls to its first-party plugins", () => {
  it('answer -4012 in the envelope, in both languages, while no plugin here has that appid', async () => {
    const member = await t.buildMember();
    for (const [method, url] of CALLS) {
      const body = method === 'POST' ? { threadId: 1 } : undefined;
      const guest = await t.call(method, url, { body });
      expect(guest.status, url).toBe(200);
      expect(Object.keys(guest.body).sort()).toEqual(ENVELOPE_KEYS);
      const appid = url.split('/')[2];
      expect(guest.body).toMatchObject({
        Code: Code.NOT_ENABLED,
        Message: '本站未安装或未开启此插件',
        Data: { appid },
      });
      const english = await t.call(method, url, { body, token: member.token, headers: { cookie: 'locale=en' } });
      expect(english.body).toMatchObject({
        Code: Code.NOT_ENABLED,
        Message: 'This plugin is not installed or not enabled on this site',
      });
    }
  });

  it('reach a plugin installed here under that appid, with the same path', async () => {
    const server = `export default function register(router) {
  router.get('register/list', (req) => ({ pageData: [], viewer: req.viewer ? req.viewer.id : 0, q: req.query.threadId }));
}
`;
    const files = pluginFiles(manifest({ appid: 'activity', pluginName: 'Activity', server: 'server.js' }), {
      'server.js': server,
    });
    expect((await uploadPlugin(t, t.admin, await tgz(files))).Code).toBe(0);
    // Installed disabled: still not enabled.
    expect((await t.call('GET', '/plugin/activity/api/register/list')).body.Code).toBe(Code.NOT_ENABLED);
    await operate(t, t.admin, 'activity', 'enable');
    const member = await t.buildMember();
    const list = await t.call('GET', '/plugin/activity/api/register/list?threadId=7', { token: member.token });
    expect(list.body).toMatchObject({ Code: 0, Data: { pageData: [], viewer: member.id, q: '7' } });
    // A call the plugin does not route is its unknown path.
    expect((await t.call('POST', '/plugin/activity/api/register/append', { body: {} })).body.Code).toBe(
      Code.RESOURCE_NOT_FOUND,
    );
  });

  it('leave other plugins’ paths as they were: an unknown plugin is -4004, in the envelope', async () => {
    const res = await t.call('GET', '/plugin/nobody/api/hello');
    expect(res.body.Code).toBe(Code.RESOURCE_NOT_FOUND);
    expect(Object.keys(res.body).sort()).toEqual(ENVELOPE_KEYS);
  });
});

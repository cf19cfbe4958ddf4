import { Code } from '@luntan/shared';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../../test/fixture.js';
import { NOT_ENABLED_CALLS } from './index.js';

const t = useTestServer();

const WORDS = {
  cos: {
    zh: '本站未开启腾讯云对象存储（COS），请直接上传附件到本站',
    en: 'Tencent Cloud object storage (COS) is not enabled on this site: upload attachments to the site itself',
  },
  vod: {
    zh: '本站未开启腾讯云点播（VOD），请以附件形式上传视频',
    en: 'Tencent Cloud video on demand (VOD) is not enabled on this site: upload videos as attachments',
  },
  miniprogram: { zh: '本站未开启微信小程序', en: 'The WeChat mini-program is not enabled on this site' },
  offiaccount: {
    zh: '本站未开启微信公众号 JS-SDK',
    en: 'The WeChat Official Account JS-SDK is not enabled on this site',
  },
  wechatTransition: {
    zh: '本站的微信登录直接创建或登录账号，没有过渡阶段的绑定',
    en: 'WeChat sign-in here creates or signs in to an account directly: there is no transition stage to bind in',
  },
};

describe("the family's calls for services this site does not run", () => {
  it('lists the Tencent Cloud, WeChat mini-program and WeChat transition calls of the client', () => {
    expect(NOT_ENABLED_CALLS.map((c) => `${c.method} ${c.url}`).sort()).toEqual(
      [
        'POST /v3/coskey',
        'POST /v3/attachment.relation',
        'GET /v3/signature',
        'POST /v3/thread/video',
        'GET /v3/offiaccount/jssdk',
        'GET /v3/oauth/wechat/miniprogram/code',
        'GET /v3/users/mobilebrowser/wechat.poster.genqrcode',
        'GET /v3/users/mobilebrowser/wechat/miniprogram.genbindscheme',
        'GET /v3/users/mobilebrowser/wechat/miniprogram.genparamscheme',
        'GET /v3/users/mobilebrowser/wechat/miniprogram.genscheme',
        'GET /v3/users/pc/wechat/miniprogram.bind',
        'GET /v3/users/pc/wechat/miniprogram.genqrcode',
        'GET /v3/users/pc/wechat/miniprogram.login',
        'POST /v3/users/wechat/miniprogram.bind',
        'POST /v3/users/wechat/miniprogram.login',
        'POST /v3/users/wechat/miniprogram.rebind',
        'POST /v3/users/wechat/transition/sms.bind',
        'GET /v3/users/wechat/transition/username.autobind',
      ].sort(),
    );
  });

  it('answers each with -4012 and a sentence in both languages, HTTP 200, to guests and members, at both spellings', async () => {
    const member = await t.buildMember();
    for (const { method, url, feature } of NOT_ENABLED_CALLS) {
      const body = method === 'POST' ? { fileName: 'a.mp4', code: 'x' } : undefined;
      for (const path of [`/api${url}`, `/apiv3${url.slice('/v3'.length)}`]) {
        const guest = await t.call(method, path, { body });
        expect(guest.status, `${method} ${path}`).toBe(200);
        expect(guest.body).toMatchObject({ Code: Code.NOT_ENABLED, Message: WORDS[feature].zh, Data: { feature } });
        expect(Object.keys(guest.body).sort()).toEqual(['Code', 'Data', 'Message', 'RequestId', 'RequestTime']);
        const english = await t.call(method, path, { body, token: member.token, headers: { cookie: 'locale=en' } });
        expect(english.status).toBe(200);
        expect(english.body).toMatchObject({ Code: Code.NOT_ENABLED, Message: WORDS[feature].en, Data: { feature } });
      }
    }
  });

  it('answers another method than the client uses as an unknown path', async () => {
    const get = await t.call('GET', '/api/v3/coskey');
    expect(get.status).toBe(404);
    expect(get.body.Code).toBe(Code.RESOURCE_NOT_FOUND);
    const post = await t.call('POST', '/apiv3/signature', { body: {} });
    expect(post.status).toBe(404);
    expect(post.body.Code).toBe(Code.RESOURCE_NOT_FOUND);
  });
});

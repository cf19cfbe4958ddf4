import { SUPPORTED_THREAD_PARTS } from '@luntan/shared';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../../test/fixture.js';

const t = useTestServer();

type TypeList = Array<{ name: string; type: string }>;

describe('GET /api/v3/thread.typelist', () => {
  it("answers the family's thread types in its order, named in the page's language, to a guest and a member", async () => {
    const guest = await t.get<TypeList>('/api/v3/thread.typelist');
    expect(guest.Code).toBe(0);
    expect(guest.Data).toEqual([
      { name: '视频', type: '103' },
      { name: '图片', type: '101' },
      { name: '语音', type: '102' },
      { name: '红包', type: '106' },
      { name: '投票', type: '109' },
      { name: '悬赏问答', type: '107' },
      { name: '文件附件', type: '108' },
    ]);
    // Every type listed is one a thread here can carry.
    for (const item of guest.Data) expect(SUPPORTED_THREAD_PARTS).toContain(Number(item.type));

    const member = await t.buildMember();
    const { body } = (await t.call('GET', '/api/v3/thread.typelist', {
      token: member.token,
      headers: { cookie: 'locale=en' },
    })) as { body: { Code: number; Data: TypeList } };
    expect(body.Code).toBe(0);
    expect(body.Data.map((i) => i.name)).toEqual([
      'Video',
      'Images',
      'Audio',
      'Red packet',
      'Vote',
      'Bounty Q&A',
      'Files',
    ]);
    expect(body.Data.map((i) => i.type)).toEqual(guest.Data.map((i) => i.type));
  });
});

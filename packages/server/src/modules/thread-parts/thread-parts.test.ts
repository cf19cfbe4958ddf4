import { Code, type TomPermissions } from '@luntan/shared';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../../test/fixture.js';

const t = useTestServer();

const FAMILY_KEYS = [
  'createThread',
  'insertImage',
  'insertVideo',
  'insertAudio',
  'insertAttachment',
  'insertGoods',
  'insertPay',
  'insertReward',
  'insertRedPacket',
  'insertPosition',
  'allowAnonymous',
  'insertVote',
];

const tomPermissions = (token: string | undefined, query = '') =>
  t.get<TomPermissions>(`/api/v3/tom.permissions${query}`, token);

describe('tom.permissions', () => {
  it("answers the family's keys with enable and desc, and the part type of each part permission", async () => {
    const category = await t.buildCategory();
    const other = await t.buildCategory();
    const member = await t.buildMember();
    await t.buildGroup(
      ['createThread', 'thread.insertImage', `category${category}.thread.insertVote`, 'thread.insertPay'],
      [member],
    );
    const res = await tomPermissions(member.token);
    expect(res.Code).toBe(0);
    expect(Object.keys(res.Data)).toEqual(FAMILY_KEYS);
    expect(res.Data.createThread).toEqual({ enable: true, desc: '发布主题' });
    expect(res.Data.insertImage).toEqual({ enable: true, desc: '插入图片', tomId: '101' });
    expect(res.Data.insertPay).toEqual({ enable: true, desc: '插入付费内容' });
    expect(res.Data.insertGoods).toEqual({ enable: false, desc: '插入商品', tomId: '104' });
    // Held in one category only: anywhere yes, in that category yes, in another no.
    expect(res.Data.insertVote).toMatchObject({ enable: true, tomId: '109' });
    expect((await tomPermissions(member.token, `?categoryId=${category}`)).Data.insertVote?.enable).toBe(true);
    const elsewhere = await tomPermissions(member.token, `?categoryId=${other}`);
    expect(elsewhere.Data.insertVote?.enable).toBe(false);
    expect(elsewhere.Data.insertImage?.enable).toBe(true);

    const admin = await tomPermissions(t.admin);
    expect(Object.values(admin.Data).every((p) => p.enable)).toBe(true);
  });

  it('refuses guests and a bad category', async () => {
    expect((await tomPermissions(undefined)).Code).toBe(Code.JUMP_TO_LOGIN);
    const member = await t.buildMember();
    for (const q of ['?categoryId=abc', '?categoryId=0']) {
      const res = await tomPermissions(member.token, q);
      expect(res.Code, q).toBe(Code.INVALID_PARAMETER);
      expect(res.Message, q).not.toBe('');
    }
  });
});

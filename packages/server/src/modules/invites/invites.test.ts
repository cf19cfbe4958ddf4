import {
  Code,
  GroupId,
  type Forum,
  type InviteDetail,
  type InvitedUser,
  type InviteLink,
  type Page,
} from '@luntan/shared';
import { describe, expect, it } from 'vitest';
import { setSettings } from '../../test/captcha-fixtures.js';
import { buildGroup, memberPermissions, setGroupPermissions } from '../../test/factories.js';
import { buildUser } from '../../test/harness.js';
import { useTestServer } from '../../test/fixture.js';

const t = useTestServer();
let inviterGroup: number;

/** A member whose group may invite. */
async function inviter() {
  const user = await buildUser(t);
  const perms = [...(await memberPermissions(t, t.admin)), 'other.canInviteUserScale'];
  inviterGroup = await buildGroup(t, t.admin, perms, [user.id]);
  return user;
}
const link = (token: string | undefined, groupId?: number) =>
  t.get<InviteLink>(`/api/v3/invite.link.create${groupId === undefined ? '' : `?groupId=${groupId}`}`, token);
let serial = 0;
const register = (body: Record<string, unknown> = {}) =>
  t.post<{ userId: number }>('/api/v3/users/username.register', {
    username: `inv_${process.pid % 1000}_${++serial}`,
    password: 'password-123',
    ...body,
  });
const groupsOf = async (userId: number) =>
  (await t.server.database.db.selectFrom('groupUser').select('groupId').where('userId', '=', userId).execute()).map(
    (r) => r.groupId,
  );

describe('invitation links', () => {
  it('needs a login and other.canInviteUserScale', async () => {
    expect((await link(undefined)).Code).toBe(Code.JUMP_TO_LOGIN);
    const plain = await buildUser(t);
    expect((await link(plain.token)).Code).toBe(Code.UNAUTHORIZED);
    expect((await t.get<Forum>('/api/v3/forum', plain.token)).Data.other.canInviteUserScale).toBe(false);
    const member = await inviter();
    expect((await t.get<Forum>('/api/v3/forum', member.token)).Data.other.canInviteUserScale).toBe(true);
  });

  it('a member invites into the member group only; an administrator into any but administrators and guests', async () => {
    const member = await inviter();
    const made = await link(member.token);
    expect(made).toMatchObject({ Code: 0, Data: { groupId: GroupId.MEMBER } });
    expect(made.Data.link).toBe(`/user/register?inviteCode=${made.Data.code}`);
    expect(Date.parse(made.Data.expiresAt) - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    expect((await link(member.token, GroupId.MEMBER)).Code).toBe(0);
    const refused = await link(member.token, inviterGroup);
    expect(refused.Code).toBe(Code.UNAUTHORIZED);
    expect(refused.Message).toContain('不能邀请');
    expect((await link(member.token, GroupId.ADMINISTRATOR)).Code).toBe(Code.UNAUTHORIZED);
    expect(await link(t.admin, inviterGroup)).toMatchObject({ Code: 0, Data: { groupId: inviterGroup } });
    expect((await link(t.admin, GroupId.ADMINISTRATOR)).Code).toBe(Code.UNAUTHORIZED);
    expect((await link(t.admin, GroupId.GUEST)).Code).toBe(Code.UNAUTHORIZED);
    expect((await link(t.admin, 99999)).Code).toBe(Code.RESOURCE_NOT_FOUND);
    expect((await link(t.admin, 0)).Code).toBe(Code.INVALID_PARAMETER);
  });
});

describe('registering through an invitation', () => {
  it('puts the newcomer in the link’s group and lists them for the inviter', async () => {
    const member = await inviter();
    const plainLink = (await link(member.token)).Data;
    const detail = await t.get<InviteDetail>(`/api/v3/invite.detail?code=${plainLink.code}`);
    expect(detail).toMatchObject({ Code: 0, Data: { valid: true, inviter: { userId: member.id }, groupId: 10 } });
    const a = await register({ inviteCode: plainLink.code });
    expect(a.Code).toBe(0);
    expect(await groupsOf(a.Data.userId)).toEqual([GroupId.MEMBER]);
    const special = (await link(t.admin, inviterGroup)).Data;
    const b = await register({ inviteCode: special.code });
    expect(await groupsOf(b.Data.userId)).toEqual([inviterGroup]);
    // A link works for several newcomers while it lasts.
    expect((await register({ inviteCode: plainLink.code })).Code).toBe(0);

    const list = await t.get<Page<InvitedUser>>('/api/v3/invite.users.list', member.token);
    expect(list.Data.totalCount).toBe(2);
    expect(list.Data.pageData[1]).toMatchObject({ userId: a.Data.userId, groupId: GroupId.MEMBER });
    const adminList = await t.get<Page<InvitedUser>>('/api/v3/invite.users.list?perPage=1', t.admin);
    expect(adminList.Data).toMatchObject({
      totalCount: 1,
      pageData: [{ userId: b.Data.userId, groupId: inviterGroup }],
    });
    expect((await t.get('/api/v3/invite.users.list')).Code).toBe(Code.JUMP_TO_LOGIN);
  });

  it('refuses an unknown or expired code', async () => {
    const member = await inviter();
    const made = (await link(member.token)).Data;
    for (const inviteCode of ['nope', 'a'.repeat(32)]) {
      expect(await register({ inviteCode })).toMatchObject({
        Code: Code.INVALID_PARAMETER,
        Data: { field: 'inviteCode' },
      });
    }
    await t.server.database.db
      .updateTable('invites')
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where('code', '=', made.code)
      .execute();
    const expired = await register({ inviteCode: made.code });
    expect(expired).toMatchObject({ Code: Code.INVALID_PARAMETER, Data: { field: 'inviteCode' } });
    expect(expired.Message).toContain('过期');
    expect((await t.get<InviteDetail>(`/api/v3/invite.detail?code=${made.code}`)).Data.valid).toBe(false);
  });

  it('with registerInviteOnly, registration needs a valid code', async () => {
    const member = await inviter();
    await setSettings(t, t.admin, [{ key: 'registerInviteOnly', value: true }]);
    try {
      const refused = await register();
      expect(refused).toMatchObject({ Code: Code.INVALID_PARAMETER, Data: { field: 'inviteCode' } });
      expect(refused.Message).toContain('受邀');
      expect((await t.get<Forum>('/api/v3/forum')).Data.setSite.registerInviteOnly).toBe(true);
      expect((await register({ inviteCode: (await link(member.token)).Data.code })).Code).toBe(0);
    } finally {
      await setSettings(t, t.admin, [{ key: 'registerInviteOnly', value: false }]);
    }
    expect((await register()).Code).toBe(0);
    await setGroupPermissions(t, t.admin, inviterGroup, await memberPermissions(t, t.admin));
  });
});

describe('the agreements', () => {
  it('are public, and registration asks to accept them while registerAgreementOpen', async () => {
    await setSettings(t, t.admin, [
      { key: 'registerAgreement', value: '注册协议全文', tag: 'agreement' },
      { key: 'privacyAgreement', value: '隐私政策全文', tag: 'agreement' },
      { key: 'registerAgreementOpen', value: true, tag: 'agreement' },
    ]);
    try {
      expect(await t.get('/api/v3/agreement')).toMatchObject({
        Code: 0,
        Data: { registerAgreementOpen: true, registerAgreement: '注册协议全文', privacyAgreement: '隐私政策全文' },
      });
      expect((await t.get<Forum>('/api/v3/forum')).Data.setSite.registerAgreementOpen).toBe(true);
      for (const body of [{}, { agreement: false }]) {
        const refused = await register(body);
        expect(refused).toMatchObject({ Code: Code.INVALID_PARAMETER, Data: { field: 'agreement' } });
        expect(refused.Message).toContain('同意');
      }
      expect((await register({ agreement: 'yes' })).Code).toBe(Code.INVALID_PARAMETER);
      expect((await register({ agreement: true })).Code).toBe(0);
    } finally {
      await setSettings(t, t.admin, [{ key: 'registerAgreementOpen', value: false, tag: 'agreement' }]);
    }
    expect((await register()).Code).toBe(0);
  });
});

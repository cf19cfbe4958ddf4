import { Code, ThreadComplex, ThreadSort, type Page, type ThreadItem, type UserThreadStick } from '@luntan/shared';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../../test/fixture.js';

const t = useTestServer();

const stick = (threadId: unknown, status: unknown, token?: string) =>
  t.post<UserThreadStick>('/api/v3/user/thread.stick', { threadId, status }, token);

/** The member's profile list, as the web's profile page asks for it. */
async function profileList(userId: number, token?: string, sort?: number): Promise<ThreadItem[]> {
  const sorted = sort ? `&filter[sort]=${sort}` : '';
  const res = await t.get<Page<ThreadItem>>(
    `/api/v3/thread.list?perPage=10&filter[complex]=${ThreadComplex.BY_USER}&filter[toUserId]=${userId}${sorted}`,
    token,
  );
  expect(res.Code).toBe(0);
  return res.Data.pageData;
}

describe('POST /api/v3/user/thread.stick', () => {
  it('pins one of the member’s threads to the top of their profile, one at a time, and takes it off', async () => {
    const member = await t.buildMember();
    const first = await t.buildThread(member, { title: 'first' });
    const second = await t.buildThread(member, { title: 'second' });
    const third = await t.buildThread(member, { title: 'third' });
    expect((await profileList(member.id)).map((x) => x.threadId)).toEqual([
      third.threadId,
      second.threadId,
      first.threadId,
    ]);

    const pinned = await stick(first.threadId, 1, member.token);
    expect(pinned.Code).toBe(0);
    expect(pinned.Data).toEqual({ threadId: first.threadId, status: 1 });
    expect(pinned.Message).not.toBe('');
    // Seen by a guest too, marked in the list, and first only in that member's list.
    const list = await profileList(member.id);
    expect(list.map((x) => x.threadId)).toEqual([first.threadId, third.threadId, second.threadId]);
    expect(list.map((x) => x.userStickStatus)).toEqual([true, false, false]);
    const other = await t.buildMember();
    const othersThread = await t.buildThread(other);
    expect((await profileList(other.id, member.token)).map((x) => x.threadId)).toEqual([othersThread.threadId]);
    const detail = await t.get<ThreadItem>(`/api/v3/thread.detail?threadId=${first.threadId}`);
    expect(detail.Data.userStickStatus).toBe(true);

    // Pinning another replaces the pin (the family keeps one per member).
    expect((await stick(second.threadId, true, member.token)).Code).toBe(0);
    expect((await profileList(member.id)).map((x) => x.threadId)).toEqual([
      second.threadId,
      third.threadId,
      first.threadId,
    ]);

    // Taking off a pin that is on another thread is refused; on the pinned one it works.
    const wrong = await stick(first.threadId, 0, member.token);
    expect(wrong.Code).toBe(Code.INVALID_PARAMETER);
    const off = await stick(second.threadId, 0, member.token);
    expect(off.Code).toBe(0);
    expect(off.Data).toEqual({ threadId: second.threadId, status: 0 });
    const after = await profileList(member.id);
    expect(after.map((x) => x.threadId)).toEqual([third.threadId, second.threadId, first.threadId]);
    expect(after.every((x) => !x.userStickStatus)).toBe(true);
    // Nothing pinned: taking off succeeds and changes nothing, as the family's does.
    expect((await stick(first.threadId, 0, member.token)).Code).toBe(0);
  });

  it('keeps the pin first whatever the profile list’s order', async () => {
    const member = await t.buildMember();
    const old = await t.buildThread(member);
    await t.buildThread(member);
    expect((await stick(old.threadId, 1, member.token)).Code).toBe(0);
    const byUpdate = await profileList(member.id, member.token, ThreadSort.UPDATED);
    expect(byUpdate[0]?.threadId).toBe(old.threadId);
  });

  it('refuses a guest, another member’s thread, a missing thread and bad input', async () => {
    const owner = await t.buildMember();
    const thread = await t.buildThread(owner);
    const guest = await stick(thread.threadId, 1);
    expect(guest.Code).toBe(Code.JUMP_TO_LOGIN);

    const other = await t.buildMember();
    expect((await stick(thread.threadId, 1, other.token)).Code).toBe(Code.INVALID_PARAMETER);
    // Not even an administrator pins a member's thread to that member's profile.
    expect((await stick(thread.threadId, 1, t.admin)).Code).toBe(Code.INVALID_PARAMETER);
    expect((await stick(999999, 1, owner.token)).Code).toBe(Code.RESOURCE_NOT_FOUND);
    expect((await stick('x', 1, owner.token)).Code).toBe(Code.INVALID_PARAMETER);
    expect((await stick(thread.threadId, 2, owner.token)).Code).toBe(Code.INVALID_PARAMETER);
    expect((await profileList(owner.id)).map((x) => x.userStickStatus)).toEqual([false]);
  });
});

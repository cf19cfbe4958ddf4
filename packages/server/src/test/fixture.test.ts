import { Code, GroupId } from '@luntan/shared';
import { describe, expect, it } from 'vitest';
import { useTestServer } from './fixture.js';

/** The fixture itself: its server answers, its administrator is signed in, its factories go through the API. */
const t = useTestServer();

describe('useTestServer()', () => {
  it('hands back a signed-in administrator', async () => {
    const res = await t.get<{ user: { isAdmin?: boolean } | null }>('/api/v3/forum', t.admin);
    expect(res.Code).toBe(0);
    expect(res.Data.user).not.toBeNull();
  });

  it('builds members, categories, threads and replies through the API', async () => {
    const member = await t.buildMember({ nickname: 'fixture' });
    const categoryId = await t.buildCategory({ name: 'fixture category' });
    const thread = await t.buildThread(member, { categoryId, title: 'fixture thread' });
    expect(thread.user.userId).toBe(member.id);
    expect(thread.categoryId).toBe(categoryId);
    const reply = await t.buildReply(member.token, thread.threadId, { text: 'fixture reply' });
    expect(reply.threadId).toBe(thread.threadId);
    // Without an author, a new member writes.
    expect((await t.buildThread()).user.userId).not.toBe(member.id);
  });

  it('builds a group holding permissions, with members moved into it', async () => {
    const member = await t.buildMember();
    const groupId = await t.buildGroup([], [member]);
    expect(groupId).not.toBe(GroupId.MEMBER);
    // A group without createThread: the member may no longer post.
    const res = await t.call('POST', '/api/v3/thread.create', {
      token: member.token,
      body: { categoryId: 1, title: 'not allowed', content: { text: 'no' } },
    });
    expect(res.body.Code).toBe(Code.UNAUTHORIZED);
  });
});

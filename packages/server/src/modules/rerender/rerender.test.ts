import {
  Code,
  type Page,
  type PostItem,
  type StopWordsBatchResult,
  type ThreadDetail,
  type UserProfile,
} from '@luntan/shared';
import { describe, expect, it } from 'vitest';
import { buildReply, buildThread } from '../../test/factories.js';
import { ADMIN, buildUser, newStorage, startTestServer } from '../../test/harness.js';
import { useTestServer } from '../../test/fixture.js';

// Guests' answers kept a minute, so that only the re-render's own clearing can make a guest see the new HTML.
const t = useTestServer({ env: { GUEST_CACHE_MS: '60000' } });

const detail = async (threadId: number, token?: string) =>
  (await t.get<ThreadDetail>(`/api/v3/thread.detail?threadId=${threadId}`, token)).Data;
const replies = async (threadId: number) =>
  (await t.get<Page<PostItem>>(`/api/v3/posts.list?threadId=${threadId}`)).Data.pageData;
const stopWords = (words: string[]) =>
  t.post<StopWordsBatchResult>('/api/stop-words/batch.v2', { data: { type: 'stop-words', words } }, t.admin);
const link = (id: number) => `<a href="/user/${id}" class="mention" data-user-id="${id}">`;

describe('a member renamed', () => {
  it('shows the new nickname in the threads and replies that mention them, kept pages too', async () => {
    const carol = await t.buildMember({ nickname: '卡萝旧名' });
    const author = await t.buildMember();
    const thread = await buildThread(t, author.token, { text: `你好 [@卡萝旧名](/user/${carol.id})！` });
    const reply = await buildReply(t, author.token, thread.threadId, { text: `再见 [@x](/user/${carol.id})` });
    const other = await buildThread(t, author.token, { text: '无人被提到' });
    expect((await detail(thread.threadId)).content.html).toContain(`${link(carol.id)}@卡萝旧名</a>`);

    // The rename answers before the posts are rendered again: a guest reading meanwhile is served the old HTML and
    // it is kept (GUEST_CACHE_MS).
    t.app.ctx.events.pause();
    try {
      const renamed = await t.post<UserProfile>('/api/v3/users/update.user', { nickname: '卡萝新名' }, carol.token);
      expect(renamed.Code).toBe(0);
      expect((await detail(thread.threadId)).content.html).toContain('@卡萝旧名');
      const again = await t.call('GET', `/api/v3/thread.detail?threadId=${thread.threadId}`);
      expect(again.headers['x-guest-cache']).toBe('hit');
    } finally {
      t.app.ctx.events.resume();
    }
    await t.app.ctx.events.drain();

    const html = (await detail(thread.threadId)).content.html;
    expect(html).toContain(`${link(carol.id)}@卡萝新名</a>`);
    expect(html).not.toContain('卡萝旧名');
    expect((await detail(thread.threadId, author.token)).content.html).toContain('@卡萝新名');
    const listed = (await replies(thread.threadId)).find((p) => p.id === reply.id)!;
    expect(listed.content.html).toContain(`${link(carol.id)}@卡萝新名</a>`);
    // The Markdown is the author's: a mention link names the member by id, whatever its text.
    expect(listed.content.text).toBe(`再见 [@x](/user/${carol.id})`);
    expect((await detail(other.threadId)).content.html).toBe('<p>无人被提到</p>\n');
  });

  it('rewrites @oldname to @newname when a made-up username is replaced', async () => {
    const old = `old${Date.now() % 100000}`;
    const dave = await buildUser(t.current, { username: old });
    // A username the site made up (an SMS or outside sign-in) may be chosen once: mark this one so.
    await t.app.ctx.db.updateTable('users').set({ usernameGenerated: 1 }).where('id', '=', dave.id).execute();
    const author = await t.buildMember();
    const thread = await buildThread(t, author.token, {
      text: `hi @${old}, not @${old}x nor \`@${old}\` nor mail@${old}`,
    });
    expect((await detail(thread.threadId)).content.html).toContain(`${link(dave.id)}@${old}</a>`);

    const chosen = `new${Date.now() % 100000}`;
    const res = await t.post<UserProfile>('/api/v3/users/update.user', { username: chosen }, dave.token);
    expect(res.Code).toBe(0);

    const after = await detail(thread.threadId);
    expect(after.content.html).toContain(`${link(dave.id)}@${chosen}</a>`);
    expect(after.content.text).toBe(`hi @${chosen}, not @${old}x nor \`@${old}\` nor mail@${old}`);
    expect(after.mentions.map((m) => m.userId)).toEqual([dave.id]);
  });

  it('goes on after a restart with what the rename left undelivered', async () => {
    const storage = newStorage();
    const first = await startTestServer({ storage });
    const erin = await buildUser(first, { nickname: '艾琳' });
    const author = await buildUser(first);
    const thread = await buildThread(first, author.token, { text: `[@艾琳](/user/${erin.id})` });
    // The process stops between the rename's commit and its delivery.
    first.app.ctx.events.pause();
    const res = await first.post('/api/v3/users/update.user', { nickname: '艾琳二' }, erin.token);
    expect(res.Code).toBe(0);
    await first.close({ keep: true });

    const second = await startTestServer({ storage });
    try {
      await second.app.ctx.events.drain();
      const admin = await second.login(ADMIN.username, ADMIN.password);
      const html = (await second.get<ThreadDetail>(`/api/v3/thread.detail?threadId=${thread.threadId}`, admin)).Data
        .content.html;
      expect(html).toContain(`${link(erin.id)}@艾琳二</a>`);
    } finally {
      await second.close();
    }
  });
});

describe('stop words changed', () => {
  it('puts a new {REPLACE} word into existing threads, titles and replies, in batches', async () => {
    const author = await t.buildMember();
    const thread = await buildThread(t, author.token, { title: 'A Darnit title', text: 'what a darnit day' });
    const reply = await buildReply(t, author.token, thread.threadId, { text: '**DARNIT** and `darnit`' });
    const untouched = await buildThread(t, author.token, { text: 'a fine day' });
    // More replies than one batch holds, each with the word: the last is rendered again by a later batch.
    const many = await buildThread(t, author.token, { text: 'nothing here' });
    let last: PostItem | undefined;
    for (let i = 0; i < 101; i += 1) {
      last = await buildReply(t, author.token, many.threadId, { text: `darnit ${i}` });
    }
    const before = await detail(untouched.threadId);

    expect((await stopWords(['darnit=golly'])).Code).toBe(0);

    const after = await detail(thread.threadId);
    expect(after.title).toBe('A golly title');
    expect(after.content.text).toBe('what a golly day');
    expect(after.content.html).toBe('<p>what a golly day</p>\n');
    expect(after.summary).toBe('what a golly day');
    const listed = (await replies(thread.threadId)).find((p) => p.id === reply.id)!;
    // In code the word is replaced as written; elsewhere it stays literal text.
    expect(listed.content.html).toBe('<p><strong>golly</strong> and <code>golly</code></p>\n');
    expect(await detail(untouched.threadId)).toEqual(before);
    const lastReply = await t.get<PostItem>(`/api/v3/posts.detail?postId=${last!.id}`);
    expect(lastReply.Data.content.html).toBe('<p>golly 100</p>\n');

    // A word without a replacement is replaced by stars, shown as written, not as emphasis.
    const starred = await buildThread(t, author.token, { text: 'a twoword b' });
    expect((await stopWords(['twoword'])).Code).toBe(0);
    expect((await detail(starred.threadId)).content.html).toBe('<p>a ** b</p>\n');
  });

  it('keeps old posts holding a word made {BANNED} or {MOD} later as they are', async () => {
    const author = await t.buildMember();
    const banned = await buildThread(t, author.token, { title: 'legacy', text: 'an oldforbidden word, and oldswap' });
    const held = await buildThread(t, author.token, { text: 'an oldheld word' });
    expect((await stopWords(['oldforbidden={BANNED}', 'oldheld={MOD}', 'oldswap=new'])).Code).toBe(0);

    const kept = await detail(banned.threadId);
    expect(kept.content.text).toBe('an oldforbidden word, and oldswap');
    expect(kept.isApproved).toBe(true);
    expect((await detail(held.threadId)).isApproved).toBe(true);
    // Writing the word now is refused, as for any new text.
    const edit = await t.post(
      '/api/v3/thread.update',
      { threadId: banned.threadId, title: 'oldforbidden' },
      author.token,
    );
    expect(edit.Code).toBe(Code.CONTENT_BANNED);
  });
});

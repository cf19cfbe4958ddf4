import type { Page, PostItem } from '@luntan/shared';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../../test/fixture.js';

/**
 * What a server-rendered thread page hands the browser besides its HTML (packages/web/src/server/dehydrate.ts), and
 * that renders made by the one route table of the process (entry-server.tsx) keep to their own request. Needs the
 * web build (`npm run build`). Kept pages are off, so every member gets their own render.
 */
const t = useTestServer({ env: { GUEST_CACHE_MS: '0' } });

interface DehydratedQuery {
  queryKey: unknown[];
  state: { data: { Code: number; Data: unknown } };
}

async function threadPage(threadId: number, token?: string) {
  const res = await t.app.inject({
    url: `/thread/${threadId}`,
    headers: token ? { cookie: `access_token=${token}` } : {},
  });
  expect(res.statusCode).toBe(200);
  const state = /<script type="application\/json" id="luntan-state">([^<]*)<\/script>/.exec(res.body);
  expect(state).not.toBeNull();
  const queries = (JSON.parse(state![1]!) as { queries: { queries: DehydratedQuery[] } }).queries.queries;
  const posts = queries.find((q) => q.queryKey[0] === 'posts')!.state.data.Data as Page<PostItem>;
  return { html: res.body, posts: posts.pageData };
}

describe('the boot state of a thread page', () => {
  it("carries a reply's Markdown only for the viewer who may edit it; the HTML always", async () => {
    const author = await t.buildMember();
    const reader = await t.buildMember();
    const thread = await t.buildThread(author, { title: 'boot state of replies' });
    await t.buildReply(author, thread.threadId, { text: 'the **author** replies' });
    await t.buildReply(reader, thread.threadId, { text: 'the _reader_ replies' });

    const asGuest = await threadPage(thread.threadId);
    expect(asGuest.posts).toHaveLength(2);
    for (const post of asGuest.posts) {
      expect(post.ability.canEdit).toBe(false);
      expect(post.content.text).toBe('');
    }
    expect(asGuest.posts[0]!.content.html).toContain('<strong>author</strong>');
    // The page itself shows the rendered replies.
    expect(asGuest.html).toContain('<strong>author</strong>');
    expect(asGuest.html).not.toContain('the **author** replies');

    const asReader = await threadPage(thread.threadId, reader.token);
    const [theirs, own] = asReader.posts;
    expect(theirs!.content.text).toBe('');
    expect(own!.ability.canEdit).toBe(true);
    // What the edit box starts from.
    expect(own!.content.text).toBe('the _reader_ replies');
    expect(own!.content.html).toContain('<em>reader</em>');
  });

  it('keeps renders made at the same time apart (each its own data, as its own viewer)', async () => {
    const a = await t.buildMember();
    const b = await t.buildMember();
    const first = await t.buildThread(a, { title: 'first of two at once' });
    const second = await t.buildThread(b, { title: 'second of two at once' });
    await t.buildReply(a, first.threadId, { text: 'reply on the first' });
    await t.buildReply(b, second.threadId, { text: 'reply on the second' });
    const [one, two, guest] = await Promise.all([
      threadPage(first.threadId, a.token),
      threadPage(second.threadId, b.token),
      threadPage(first.threadId),
    ]);
    expect(one.html).toContain('first of two at once');
    expect(one.html).not.toContain('second of two at once');
    expect(one.posts[0]!.content.text).toBe('reply on the first');
    expect(two.html).toContain('second of two at once');
    expect(two.posts[0]!.content.text).toBe('reply on the second');
    expect(guest.posts[0]!.content.text).toBe('');
  });
});

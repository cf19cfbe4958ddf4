import type { ImageEmoji, PostItem, ThreadDetail, UnicodeEmojiSet } from '@luntan/shared';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../../test/fixture.js';

const t = useTestServer();

async function addEmoji(rows: Array<{ code: string; url: string; category?: string; order?: number }>) {
  const at = new Date().toISOString();
  await t.app.ctx.db
    .insertInto('emoji')
    .values(
      rows.map((r) => ({
        category: r.category ?? 'qq',
        url: r.url,
        code: r.code,
        order: r.order ?? 0,
        createdAt: at,
        updatedAt: at,
      })),
    )
    .execute();
}

describe('emoji', () => {
  it('a fresh site has no image emoji; its own rows are listed as the family answers them, unsafe ones left out', async () => {
    const member = await t.buildMember();
    expect((await t.get<ImageEmoji[]>('/api/v3/emoji', member.token)).Data).toEqual([]);
    await addEmoji([
      { code: ':weixiao:', url: 'emoji/qq/weixiao.gif', order: 2 },
      { code: ':kelian:', url: 'emoji/qq/kelian.gif', order: 1 },
      { code: ':remote:', url: 'https://cdn.example.com/e/remote.png', category: 'other' },
      { code: ':evil:', url: 'javascript:alert(1)' },
      { code: ':quote:', url: '/x" onerror="alert(1).gif' },
      { code: ':data:', url: 'data:image/gif;base64,R0lGOD' },
    ]);
    const list = (await t.get<ImageEmoji[]>('/api/v3/emoji')).Data;
    expect(list.map(({ code, url, category }) => ({ code, url, category }))).toEqual([
      { code: ':remote:', url: 'https://cdn.example.com/e/remote.png', category: 'other' },
      { code: ':kelian:', url: '/emoji/qq/kelian.gif', category: 'qq' },
      { code: ':weixiao:', url: '/emoji/qq/weixiao.gif', category: 'qq' },
    ]);
    expect(Object.keys(list[0]!).sort()).toEqual(['category', 'code', 'id', 'order', 'url']);
  });

  it('answers the Unicode set by category with GitHub shortcodes, named in the asked language', async () => {
    const zh = await t.get<UnicodeEmojiSet>('/api/v3/emoji.unicode');
    expect(zh.Code).toBe(0);
    expect(zh.Data.locale).toBe('zh');
    expect(zh.Data.categories.map((c) => c.key)).toEqual([
      'smileys-emotion',
      'people-body',
      'animals-nature',
      'food-drink',
      'travel-places',
      'activities',
      'objects',
      'symbols',
      'flags',
    ]);
    const smile = zh.Data.categories[0]!.emoji.find((e) => e.code === 'smile');
    expect(smile).toEqual({ code: 'smile', char: '😄', name: '大笑' });
    expect(zh.Data.aliases.thumbsup).toBe('+1');
    const en = await t.get<UnicodeEmojiSet>('/api/v3/emoji.unicode?locale=en');
    expect(en.Data.categories[0]!.emoji.find((e) => e.code === 'smile')!.name).toBe('grinning face with smiling eyes');
    expect((await t.get('/api/v3/emoji.unicode?locale=fr')).Data).toMatchObject({ field: 'locale' });
  });

  it('renders :codes: in threads and replies as emoji, but not unknown codes, code, links or unsafe rows', async () => {
    const member = await t.buildMember();
    const thread = await t.buildThread(member, {
      text: '你好 :smile: :weixiao: :nope: `:smile:` :evil: :quote: [:smile:](https://example.com) :thumbsup:',
    });
    const detail = (await t.get<ThreadDetail>(`/api/v3/thread.detail?threadId=${thread.threadId}`)).Data;
    const html = detail.content.html;
    expect(html).toContain('你好 😄 <img src="/emoji/qq/weixiao.gif" alt=":weixiao:" class="emoji"> :nope: ');
    expect(html).toContain('<code>:smile:</code>');
    expect(html).toContain(':evil:');
    expect(html).toContain(':quote:');
    expect(html).not.toMatch(/javascript:|onerror/);
    expect(html).toContain('>:smile:</a>');
    expect(html).toContain('👍');
    expect(html.match(/<img/g)).toHaveLength(1);
    expect(detail.content.text).toContain(':smile: :weixiao:');

    const reply = await t.buildReply(member, thread.threadId, { text: '```\n:smile:\n```\n\n:kelian: :heart:' });
    const posts = (await t.get<{ pageData: PostItem[] }>(`/api/v3/posts.list?threadId=${thread.threadId}`)).Data;
    const shown = posts.pageData.find((p) => p.id === reply.id)!.content.html;
    expect(shown).toContain('<pre><code>:smile:\n</code></pre>');
    expect(shown).toContain('<img src="/emoji/qq/kelian.gif" alt=":kelian:" class="emoji"> ❤️');
  });
});

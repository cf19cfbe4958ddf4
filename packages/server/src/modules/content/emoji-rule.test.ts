import { describe, expect, it } from 'vitest';
import { isEmojiImage } from './emoji-rule.js';
import { renderMarkdown } from './post-content.js';

describe('emoji in post content', () => {
  const images = new Map([[':weixiao:', '/emoji/qq/weixiao.gif']]);

  it('shows known codes, keeps unknown ones, code, links and escaped colons as text', () => {
    const { html, plain } = renderMarkdown(
      ':smile: :weixiao: :nope: `:smile:` [:smile:](/x) \\:smile: 12:30:45',
      new Map(),
      new Map(),
      images,
    );
    expect(html).toBe(
      '<p>😄 <img src="/emoji/qq/weixiao.gif" alt=":weixiao:" class="emoji"> :nope: <code>:smile:</code> <a href="/x">:smile:</a> :smile: 12:30:45</p>\n',
    );
    expect(plain).toBe('😄 :weixiao: :nope: :smile: :smile: :smile: 12:30:45');
  });

  it('lets an emoji image through the sanitiser only as the rule writes it, with an address of the text’s rows', () => {
    const sources = new Set(['/emoji/qq/weixiao.gif']);
    expect(isEmojiImage('<img src="/emoji/qq/weixiao.gif" alt=":weixiao:" class="emoji">', sources)).toBe(true);
    expect(isEmojiImage('<img src="/other.gif" alt=":weixiao:" class="emoji">', sources)).toBe(false);
    expect(isEmojiImage('<img src="/emoji/qq/weixiao.gif" alt=":weixiao:" class="emoji" onerror="x">', sources)).toBe(
      false,
    );
    expect(isEmojiImage('<img src="/emoji/qq/weixiao.gif" alt="<b>" class="emoji">', sources)).toBe(false);
  });
});

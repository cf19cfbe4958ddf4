import { mentionMarkdown, parseStopWordLine, type StopWordRule } from '@luntan/shared';
import { describe, expect, it } from 'vitest';
import { StopWordMatcher } from '../stop-words/index.js';
import { plainText, renameMentions, renderMarkdown, replaceLiterally } from './post-content.js';

describe('renderMarkdown', () => {
  it('makes emphasis work next to Chinese punctuation, where plain CommonMark fails', () => {
    const { html } = renderMarkdown('请先阅读**社区规则（一）**的内容');
    expect(html).toContain('<strong>社区规则（一）</strong>');
    expect(plainText(html)).not.toContain('**');
  });

  it('removes scripts, event handlers, javascript: links, iframes and styles', () => {
    const { html } = renderMarkdown(
      '<script>alert(1)</script> <img src=x onerror=alert(1)> [x](javascript:alert(1)) <iframe src="//e.com"></iframe> <style>*{}</style>',
    );
    expect(html).not.toMatch(/<script|<[^>]*\bon\w+=|href="javascript:|<iframe|<style/i);
    expect(html).toContain('&lt;script&gt;');
  });
});

describe('mention links ([@nickname](/user/id))', () => {
  it('keeps any nickname whole through the editor’s escaping, and escapes it in HTML', () => {
    for (const nickname of ['a_b *c* [d]', '<b>粗</b> `x`', 'back\\slash', '张 三']) {
      const user = { id: 7, nickname };
      const { html, mentions, plain } = renderMarkdown(
        `你好${mentionMarkdown(user)}！`,
        new Map(),
        new Map([[7, user]]),
      );
      const shown = nickname.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
      expect(html, nickname).toBe(`<p>你好<a href="/user/7" class="mention" data-user-id="7">@${shown}</a>！</p>\n`);
      expect(mentions).toEqual([7]);
      expect(plain).toBe(`你好@${nickname}！`);
    }
  });

  it('is no mention inside code', () => {
    const user = { id: 7, nickname: '张三' };
    const { html, mentions } = renderMarkdown(`\`${mentionMarkdown(user)}\``, new Map(), new Map([[7, user]]));
    expect(html).toBe('<p><code>[@张三](/user/7)</code></p>\n');
    expect(mentions).toEqual([]);
  });
});

describe('replaceLiterally', () => {
  const matcher = new StopWordMatcher(
    ['坏词', 'spamword', 'linky=[x](https://e.com)', 'under=_x_', 'hash=#'].map(
      (line) => parseStopWordLine(line) as StopWordRule,
    ),
  );
  const screen = (text: string) => matcher.check(text, 'ugc', replaceLiterally).text;
  const html = (text: string) => renderMarkdown(screen(text)).html;

  it('inserts the default replacement as two stars, not as emphasis', () => {
    expect(screen('这里有坏词和spamword。')).toBe('这里有\\*\\*和\\*\\*。');
    expect(html('这里有坏词和spamword。')).toBe('<p>这里有**和**。</p>\n');
  });

  it('keeps any replacement text literal: links, emphasis in tables, headings', () => {
    expect(html('see linky')).toBe('<p>see [x](https://e.com)</p>\n');
    expect(html('| a | b |\n| - | - |\n| under | 坏词 |')).toContain('<td>_x_</td>\n<td>**</td>');
    expect(html('hash title')).toBe('<p># title</p>\n');
  });

  it('inserts it as it is inside code, where a backslash would show', () => {
    expect(html('看 `坏词` 和 坏词')).toBe('<p>看 <code>**</code> 和 **</p>\n');
    expect(html('```\n坏词 spamword\n```')).toBe('<pre><code>** **\n</code></pre>\n');
    expect(html('    indented 坏词')).toBe('<pre><code>indented **\n</code></pre>\n');
    expect(html('<https://e.com/坏词>')).toContain('>https://e.com/**</a>');
  });

  it('leaves text without punctuation in the replacement as the plain splice would', () => {
    const plain = new StopWordMatcher([parseStopWordLine('坏词=好词') as StopWordRule]);
    expect(plain.check('`坏词` 坏词', 'ugc', replaceLiterally).text).toBe('`好词` 好词');
  });
});

describe('renameMentions', () => {
  it('renames the mentions only, leaving code, addresses and longer names as written', () => {
    expect(renameMentions('@Bob, 你好@bob! @bobby a@bob.com `@bob` [@bob](/user/3)', 'bob', 'rob')).toBe(
      '@rob, 你好@rob! @bobby a@bob.com `@bob` [@rob](/user/3)',
    );
    expect(renameMentions('```\n@bob\n```\n@bob', 'bob', 'rob')).toBe('```\n@bob\n```\n@rob');
    expect(renameMentions('@a.b+c and @a', 'a.b+c', 'x')).toBe('@x and @a');
    expect(renameMentions('@bob', 'bob', 'bob')).toBe('@bob');
  });
});

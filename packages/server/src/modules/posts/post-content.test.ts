import { describe, expect, it } from 'vitest';
import { plainText, renderMarkdown } from './post-content.js';

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

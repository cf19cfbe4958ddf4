import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './post-content.js';
import {
  freeCharCount,
  freeContent,
  freeFractionOf,
  freeParagraphs,
  freeSummary,
  indexedBody,
  plainLength,
} from './paid-content.js';

describe('the free part of a paid thread', () => {
  const html = renderMarkdown('第一段，五个字\n\nSecond one here\n\n![x](/a.png)\n\n- item').html;

  it('counts code points of the plain text, the space between blocks as one', () => {
    expect(freeParagraphs(html, 0)).toEqual([]);
    expect(freeParagraphs(html, 3)).toEqual(['第一段']);
    expect(freeParagraphs(html, 8)).toEqual(['第一段，五个字']);
    expect(freeParagraphs(html, 11)).toEqual(['第一段，五个字', 'Sec']);
    expect(freeParagraphs(html, 1000)).toEqual(['第一段，五个字', 'Second one here', 'item']);
    expect(freeParagraphs(renderMarkdown('😀😀😀').html, 2)).toEqual(['😀😀']);
  });

  it('renders escaped paragraphs, never the original markup', () => {
    expect(freeContent(html, 1)).toEqual({
      text: '第一段，五个字\n\nSecond one here\n\nitem',
      html: '<p>第一段，五个字</p><p>Second one here</p><p>item</p>',
    });
    expect(freeContent(renderMarkdown('1 < 2 & `<i>`').html, 1).html).toBe('<p>1 &lt; 2 &amp; &lt;i&gt;</p>');
  });

  it('cuts the summary and the indexed text at the same place', () => {
    expect(freeSummary('abcdef', 3)).toBe('abc…');
    expect(freeSummary('abcdef', 6)).toBe('abcdef');
    expect(freeSummary('abcdef', 0)).toBe('');
    expect(indexedBody('abcdef', { priceCents: 100, freeWordsFraction: 0.34 })).toBe('ab');
    expect(indexedBody('abcdef', { priceCents: 100, freeWordsFraction: 0 })).toBe('');
    expect(indexedBody('abcdef', { priceCents: 100, freeWordsFraction: 1 })).toBe('abcdef');
    expect(indexedBody('abcdef', { priceCents: 0, freeWordsFraction: 0 })).toBe('abcdef');
  });
});

describe('freeWords as the family means it: a fraction of the body', () => {
  const body = 'x'.repeat(100);
  const html = renderMarkdown(body).html;

  it('frees 30 characters of a 100-character body at 0.3', () => {
    expect(plainLength(html)).toBe(100);
    expect(freeCharCount(0.3, 100)).toBe(30);
    expect(freeContent(html, 0.3).text).toBe('x'.repeat(30));
  });

  it('frees nothing at 0 and everything at 1', () => {
    expect(freeContent(html, 0)).toEqual({ text: '', html: '' });
    expect(freeContent(html, 1).text).toBe(body);
    expect(freeCharCount(0, 100)).toBe(0);
    expect(freeCharCount(1, 100)).toBe(100);
    expect(freeCharCount(0.5, 0)).toBe(0);
  });

  it('reads a value above 1 as a legacy character count, capped at the whole body', () => {
    expect(freeFractionOf(0.3, 100)).toBe(0.3);
    expect(freeFractionOf(1, 100)).toBe(1);
    expect(freeFractionOf(30, 100)).toBe(0.3);
    expect(freeFractionOf(500, 100)).toBe(1);
    expect(freeFractionOf(30, 0)).toBe(0);
  });
});

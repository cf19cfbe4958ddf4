import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './post-content.js';
import { freeContent, freeParagraphs, freeSummary, indexedBody } from './paid-content.js';

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
    expect(freeContent(html, 1000)).toEqual({
      text: '第一段，五个字\n\nSecond one here\n\nitem',
      html: '<p>第一段，五个字</p><p>Second one here</p><p>item</p>',
    });
    expect(freeContent(renderMarkdown('1 < 2 & `<i>`').html, 100).html).toBe('<p>1 &lt; 2 &amp; &lt;i&gt;</p>');
  });

  it('cuts the summary and the indexed text at the same place', () => {
    expect(freeSummary('abcdef', 3)).toBe('abc…');
    expect(freeSummary('abcdef', 6)).toBe('abcdef');
    expect(freeSummary('abcdef', 0)).toBe('');
    expect(indexedBody('abcdef', { priceCents: 100, freeWords: 2 })).toBe('ab');
    expect(indexedBody('abcdef', { priceCents: 0, freeWords: 2 })).toBe('abcdef');
  });
});

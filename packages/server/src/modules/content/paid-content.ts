import { plainText } from './post-content.js';

/*
 * Paid threads: what a viewer who may not read a paid thread whole reads of its body. The free part is the first
 * `freeWords` characters (code points) of the body's plain text, the text the summary and the search index are made
 * of (blocks separated by one space), so the summary, the content and the index cut at the same place.
 */

/** Where plainText() puts a space between blocks: a paragraph of the free part ends there. */
const BLOCK_END = /<\/(?:p|h[1-6]|li|blockquote|pre|tr|td|th)>|<br\s*\/?>|<hr\s*\/?>/gi;

/** The body's plain text, block by block (joined with single spaces, they are plainText(html)). */
export function paragraphsOf(html: string): string[] {
  return html
    .split(BLOCK_END)
    .map((chunk) => plainText(chunk))
    .filter((text) => text !== '');
}

/** The paragraphs of the first `freeWords` characters of the body (the space between two counts as one). */
export function freeParagraphs(html: string, freeWords: number): string[] {
  const out: string[] = [];
  let budget = freeWords;
  for (const paragraph of paragraphsOf(html)) {
    if (budget <= 0) break;
    const chars = [...paragraph];
    out.push(chars.length <= budget ? paragraph : chars.slice(0, budget).join(''));
    budget -= chars.length + 1;
  }
  return out;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);

/**
 * The free part of a body as content: escaped paragraphs for `html` (no images, links or markup of the original:
 * they could carry the rest), plain paragraphs for `text`.
 */
export function freeContent(html: string, freeWords: number): { text: string; html: string } {
  const paragraphs = freeParagraphs(html, freeWords);
  return {
    text: paragraphs.join('\n\n'),
    html: paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join(''),
  };
}

/**
 * The free part of a stored summary. The summary is the start of the plain text (with `…` when cut), so its first
 * `freeWords` characters are the free part's.
 */
export function freeSummary(summary: string, freeWords: number): string {
  const chars = [...summary];
  if (chars.length <= freeWords) return summary;
  return freeWords === 0 ? '' : `${chars.slice(0, freeWords).join('')}…`;
}

/**
 * What the search index holds of a thread's body: all of a free thread's, only the free part of a paid one's (a
 * search must not tell a stranger which words the paid part holds).
 */
export function indexedBody(plain: string, t: { priceCents: number; freeWords: number }): string {
  return t.priceCents > 0 ? [...plain].slice(0, t.freeWords).join('') : plain;
}

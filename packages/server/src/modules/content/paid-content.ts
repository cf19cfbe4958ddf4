import { plainText } from './post-content.js';

/*
 * Paid threads: what a viewer who may not read a paid thread whole reads of its body. As in Discuz! Q, a thread's
 * `freeWords` is the fraction (0..1) of its body that is free: the free part is the first round(fraction × length)
 * characters (code points) of the body's plain text, the text the summary and the search index are made of (blocks
 * separated by one space), so the summary, the content and the index cut at the same place.
 */

/** How many characters of a plain text `plainLength` long a fraction frees (never more than the text holds). */
export function freeCharCount(fraction: number, plainLength: number): number {
  if (!(fraction > 0) || plainLength <= 0) return 0;
  return Math.min(plainLength, Math.round(Math.min(fraction, 1) * plainLength));
}

/** How long a body's plain text is, in code points (the unit every cut counts in). */
export function plainLength(html: string): number {
  return [...plainText(html)].length;
}

/**
 * The fraction a thread.create / thread.update `freeWords` asks for. As the family's backend does, a value above 1
 * is a legacy character count (clients written for older versions send one): it becomes its share of the body's
 * plain text, capped at the whole; an empty body frees nothing.
 */
export function freeFractionOf(freeWords: number, plainLength: number): number {
  if (freeWords <= 1) return Math.max(0, freeWords);
  return plainLength > 0 ? Math.min(1, freeWords / plainLength) : 0;
}

/** Where plainText() puts a space between blocks: a paragraph of the free part ends there. */
const BLOCK_END = /<\/(?:p|h[1-6]|li|blockquote|pre|tr|td|th)>|<br\s*\/?>|<hr\s*\/?>/gi;

/** The body's plain text, block by block (joined with single spaces, they are plainText(html)). */
export function paragraphsOf(html: string): string[] {
  return html
    .split(BLOCK_END)
    .map((chunk) => plainText(chunk))
    .filter((text) => text !== '');
}

/** The paragraphs of the first `freeChars` characters of the body (the space between two counts as one). */
export function freeParagraphs(html: string, freeChars: number): string[] {
  const out: string[] = [];
  let budget = freeChars;
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
export function freeContent(html: string, fraction: number): { text: string; html: string } {
  const paragraphs = freeParagraphs(html, freeCharCount(fraction, plainLength(html)));
  return {
    text: paragraphs.join('\n\n'),
    html: paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join(''),
  };
}

/**
 * The free part of a stored summary, given how many characters of the body are free (freeCharCount() of the
 * body's plain-text length: the summary alone does not tell it). The summary is the start of the plain text (with
 * `…` when cut), so its first `freeChars` characters are the free part's.
 */
export function freeSummary(summary: string, freeChars: number): string {
  const chars = [...summary];
  if (chars.length <= freeChars) return summary;
  return freeChars === 0 ? '' : `${chars.slice(0, freeChars).join('')}…`;
}

/**
 * What the search index holds of a thread's body: all of a free thread's, only the free part of a paid one's (a
 * search must not tell a stranger which words the paid part holds).
 */
export function indexedBody(plain: string, t: { priceCents: number; freeWordsFraction: number }): string {
  if (t.priceCents <= 0) return plain;
  const chars = [...plain];
  return chars.slice(0, freeCharCount(t.freeWordsFraction, chars.length)).join('');
}

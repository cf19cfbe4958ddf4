import { Fragment } from 'react';

/** Splits a text around the keyword's words (case-insensitive), for marking matches. */
export function splitMatches(text: string, keyword: string): Array<{ text: string; match: boolean }> {
  const words = keyword
    .split(/\s+/)
    .map((w) => w.trim())
    .filter(Boolean);
  if (words.length === 0 || !text) return [{ text, match: false }];
  const pattern = new RegExp(`(${words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`, 'giu');
  return text
    .split(pattern)
    .filter((part) => part !== '')
    .map((part) => ({ text: part, match: words.some((w) => w.toLowerCase() === part.toLowerCase()) }));
}

/** The text with each occurrence of the keyword's words in `<mark>`. */
export function Highlight({ text, keyword }: { text: string; keyword?: string }) {
  if (!keyword) return <>{text}</>;
  return (
    <>
      {splitMatches(text, keyword).map((part, i) =>
        part.match ? <mark key={i}>{part.text}</mark> : <Fragment key={i}>{part.text}</Fragment>,
      )}
    </>
  );
}

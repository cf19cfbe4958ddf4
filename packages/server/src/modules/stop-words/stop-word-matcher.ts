import {
  replacePlainly,
  STOP_WORD_TYPES,
  type StopWordRule,
  type StopWordType,
  type TextReplacement,
} from '@luntan/shared';
import { wildcardEnds, wildcardWord, type WildcardWord } from './stop-word-wildcards.js';

/**
 * Finds stop words in a text: an Aho–Corasick automaton over UTF-16 code units of the lower-cased text, built once
 * per change of the word list (one automaton for the five content types). A word with `{n}` wildcards is found by its first literal part and then confirmed
 * there (`{n}` = up to n characters of anything) in time linear in the text, never by a backtracking regular
 * expression (stop-word-wildcards.ts).
 *
 * Measured (10,000 words, a 10,000-character text, see stop-words.benchmark.ts): a few tenths of a millisecond per
 * check. The npm packages tried were slower for this job: modern-ahocorasick segments graphemes (about 100 ms),
 * ahocorasick and @monyone/aho-corasick took about 3 ms (p95 up to 8 ms), one combined RegExp about 900 ms.
 */
export type MatcherWord = StopWordRule;

export interface StopWordHit {
  word: MatcherWord;
  start: number;
  end: number;
}

export interface StopWordVerdict {
  /** The first {BANNED} word found, or null. */
  banned: MatcherWord | null;
  /** The first {MOD} word found, or null. */
  moderated: MatcherWord | null;
  /** The text with every {REPLACE} word replaced (leftmost, longest first, no overlaps). */
  text: string;
  replaced: number;
  /** The first word replaced, or null. */
  firstReplaced: MatcherWord | null;
}

/**
 * Lower-cases without changing the length, so that positions in the folded text are positions in the original.
 * (A few characters, such as "İ", grow when lower-cased: those are kept as they are.)
 */
export function foldCase(text: string): string {
  const lower = text.toLowerCase();
  if (lower.length === text.length) return lower;
  let out = '';
  for (const ch of text) {
    const l = ch.toLowerCase();
    out += l.length === ch.length ? l : ch;
  }
  return out;
}

interface Compiled {
  word: MatcherWord;
  /** Length of the key (the first literal part) in code units. */
  keyLength: number;
  /** For a word with wildcards: its parts and gaps, to confirm the whole word where its key starts. */
  rest: WildcardWord | null;
}

/** Splits `a{2}b{0}c` into its literal parts and the gaps between them, leading and trailing gaps dropped. */
function compile(word: MatcherWord): { key: string; rest: WildcardWord | null } | null {
  const pieces = foldCase(word.find).split(/\{(\d{1,2})\}/);
  const literals: string[] = [];
  const gaps: number[] = [];
  let pending = 0;
  for (let i = 0; i < pieces.length; i += 1) {
    if (i % 2 === 1) {
      pending += Number(pieces[i]);
      continue;
    }
    const lit = pieces[i]!;
    if (lit === '') continue;
    if (literals.length > 0) gaps.push(pending);
    literals.push(lit);
    pending = 0;
  }
  if (literals.length === 0) return null;
  return { key: literals[0]!, rest: literals.length === 1 ? null : wildcardWord(literals, gaps) };
}

export class StopWordMatcher {
  /** Per state: its transitions by code unit. */
  private readonly next: Map<number, number>[] = [new Map()];
  private readonly fail: number[] = [0];
  /** Per state: the words whose key ends here. */
  private readonly out: Compiled[][] = [[]];
  /** Per state: the nearest state down the failure chain that ends a key (-1: none). */
  private readonly outLink: number[] = [-1];
  readonly size: number;

  constructor(words: readonly MatcherWord[]) {
    let size = 0;
    for (const word of words) {
      if (STOP_WORD_TYPES.every((t) => word[t] === '{IGNORE}')) continue;
      const c = compile(word);
      if (!c) continue;
      let state = 0;
      for (let i = 0; i < c.key.length; i += 1) {
        const code = c.key.charCodeAt(i);
        let to = this.next[state]!.get(code);
        if (to === undefined) {
          to = this.next.length;
          this.next.push(new Map());
          this.fail.push(0);
          this.out.push([]);
          this.outLink.push(-1);
          this.next[state]!.set(code, to);
        }
        state = to;
      }
      this.out[state]!.push({ word, keyLength: c.key.length, rest: c.rest });
      size += 1;
    }
    this.size = size;
    // Breadth first: each state's failure link is the longest proper suffix that is also a state.
    const queue: number[] = [];
    for (const to of this.next[0]!.values()) queue.push(to);
    for (let head = 0; head < queue.length; head += 1) {
      const state = queue[head]!;
      for (const [code, to] of this.next[state]!) {
        let f = this.fail[state]!;
        while (f !== 0 && !this.next[f]!.has(code)) f = this.fail[f]!;
        const target = this.next[f]!.get(code);
        this.fail[to] = target !== undefined && target !== to ? target : 0;
        const ft = this.fail[to]!;
        this.outLink[to] = this.out[ft]!.length > 0 ? ft : this.outLink[ft]!;
        queue.push(to);
      }
    }
  }

  /** Every occurrence, in the order their keys end. */
  find(text: string): StopWordHit[] {
    const hits: StopWordHit[] = [];
    if (this.size === 0 || text === '') return hits;
    const folded = foldCase(text);
    /** Words with wildcards whose key was found: the hits waiting to be confirmed, in their places in `hits`. */
    const unconfirmed = new Map<WildcardWord, number[]>();
    let state = 0;
    for (let i = 0; i < folded.length; i += 1) {
      const code = folded.charCodeAt(i);
      let to = this.next[state]!.get(code);
      while (to === undefined && state !== 0) {
        state = this.fail[state]!;
        to = this.next[state]!.get(code);
      }
      state = to ?? 0;
      for (let s = this.out[state]!.length > 0 ? state : this.outLink[state]!; s > 0; s = this.outLink[s]!) {
        for (const c of this.out[s]!) {
          const start = i + 1 - c.keyLength;
          if (!c.rest) {
            hits.push({ word: c.word, start, end: i + 1 });
            continue;
          }
          const waiting = unconfirmed.get(c.rest);
          if (waiting) waiting.push(hits.length);
          else unconfirmed.set(c.rest, [hits.length]);
          hits.push({ word: c.word, start, end: -1 });
        }
      }
    }
    if (unconfirmed.size === 0) return hits;
    for (const [word, at] of unconfirmed) {
      const ends = wildcardEnds(
        folded,
        word,
        at.map((h) => hits[h]!.start),
      );
      at.forEach((h, i) => {
        hits[h]!.end = ends[i]!;
      });
    }
    return hits.filter((h) => h.end >= 0);
  }

  /**
   * What the words of one content type do to a text. `place` puts the replacements into the text: as they are by
   * default; Markdown passes one that keeps them literal.
   */
  check(
    text: string,
    type: StopWordType,
    place: (text: string, replacements: readonly TextReplacement[]) => string = replacePlainly,
  ): StopWordVerdict {
    const hits = this.find(text);
    let banned: MatcherWord | null = null;
    let moderated: MatcherWord | null = null;
    const replacing: StopWordHit[] = [];
    for (const h of hits) {
      const action = h.word[type];
      if (action === '{BANNED}') banned ??= h.word;
      else if (action === '{MOD}') moderated ??= h.word;
      else if (action === '{REPLACE}') replacing.push(h);
    }
    if (banned || replacing.length === 0) return { banned, moderated, text, replaced: 0, firstReplaced: null };
    replacing.sort((a, b) => a.start - b.start || b.end - a.end);
    const replacements: TextReplacement[] = [];
    let at = 0;
    for (const h of replacing) {
      if (h.start < at) continue;
      replacements.push({ start: h.start, end: h.end, text: h.word.replacement });
      at = h.end;
    }
    return {
      banned,
      moderated,
      text: place(text, replacements),
      replaced: replacements.length,
      firstReplaced: replacing[0]!.word,
    };
  }
}

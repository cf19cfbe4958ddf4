import { performance } from 'node:perf_hooks';
import type { StopWordAction } from '@luntan/shared';
import { StopWordMatcher, type MatcherWord } from './stop-word-matcher.js';

/** A small, seeded generator: the same words and text on every run. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let x = Math.imul(s ^ (s >>> 15), 1 | s);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const ACTIONS: StopWordAction[] = ['{BANNED}', '{MOD}', '{REPLACE}', '{REPLACE}'];

/** The benchmark's words and text, and the matcher built from them (with how long building took). */
export function stopWordBenchmarkFixture(options: { words?: number; textLength?: number; seed?: number } = {}): {
  matcher: StopWordMatcher;
  text: string;
  buildMs: number;
} {
  const count = options.words ?? 10_000;
  const textLength = options.textLength ?? 10_000;
  const rnd = random(options.seed ?? 42);
  const int = (n: number) => Math.floor(rnd() * n);
  // Common characters, so that words share prefixes and the text meets many partial matches.
  const cjk = () => String.fromCharCode(0x4e00 + int(800));
  const latin = () => String.fromCharCode(97 + int(26));

  const finds = new Set<string>();
  while (finds.size < count) {
    const chinese = rnd() < 0.6;
    const length = chinese ? 2 + int(3) : 4 + int(5);
    let find = '';
    for (let i = 0; i < length; i += 1) find += chinese ? cjk() : latin();
    if (rnd() < 0.05) find = `${find.slice(0, 2)}{${1 + int(3)}}${find.slice(2)}`;
    finds.add(find);
  }
  const words: MatcherWord[] = [...finds].map((find, i) => ({
    find,
    replacement: '**',
    ugc: ACTIONS[i % ACTIONS.length]!,
    username: '{BANNED}',
    signature: '{IGNORE}',
    dialog: ACTIONS[(i + 1) % ACTIONS.length]!,
    nickname: '{BANNED}',
  }));

  let text = '';
  while (text.length < textLength) {
    text += rnd() < 0.8 ? cjk() : rnd() < 0.2 ? ' ' : latin().toUpperCase();
  }
  text = text.slice(0, textLength);

  const t0 = performance.now();
  const matcher = new StopWordMatcher(words);
  const buildMs = performance.now() - t0;
  return { matcher, text, buildMs };
}

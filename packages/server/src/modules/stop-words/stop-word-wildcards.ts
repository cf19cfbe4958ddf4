/**
 * Confirms words with `{n}` wildcards where the matcher found their first literal part, without backtracking.
 *
 * The answer is the one a sticky regular expression `L0[\s\S]{0,g1}?L1…[\s\S]{0,gk}?Lk` with the u flag gives at
 * that place (what the matcher used to run): each lazy gap is as short as it can be while the rest of the word still
 * matches, so the match ends where the smallest first gap, then the smallest second, … leads. Such an expression
 * backtracks through every combination of gaps when the last part is missing: `a{99}a{99}a{99}a{99}b` on 200 a's
 * blocked the process for seconds, growing with the fifth power of the text.
 *
 * Here, for the text around the places found (where their matches can reach), one pass from the right per literal part
 * i >= 1 finds, for every position p, the first position q >= p from which parts i..k can all be matched
 * ("feasible"); a gap then takes the first feasible q within its reach, which is what the lazy gap settles on. The
 * work is O(code units looked at × (parts + their length)), each code unit looked at once per word however many
 * places the word is found at; the length is capped by STOP_WORD_MAX, so it is linear in the text.
 *
 * The u flag's view of the text is kept: a gap counts code points (an emoji is one), nothing starts or ends between the
 * two halves of a surrogate pair, and a lone half matches only a lone half.
 */
export interface WildcardWord {
  /** The literal parts, case-folded; the first one is the matcher's key. At least two. */
  literals: readonly string[];
  /** gaps[i]: at most this many code points between literals[i] and literals[i + 1]. */
  gaps: readonly number[];
  /** The most code units a match may cover. */
  span: number;
}

export function wildcardWord(literals: readonly string[], gaps: readonly number[]): WildcardWord {
  let span = literals[0]!.length;
  for (let i = 1; i < literals.length; i += 1) span += 2 * gaps[i - 1]! + literals[i]!.length;
  return { literals, gaps, span };
}

const isLead = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isTrail = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** Whether `p` is where a code point starts (or the text ends): not between the halves of a surrogate pair. */
function atCodePoint(text: string, p: number): boolean {
  return p <= 0 || p >= text.length || !(isLead(text.charCodeAt(p - 1)) && isTrail(text.charCodeAt(p)));
}

/** Whether `literal` is in the text at `p` as whole code points. */
const literalAt = (text: string, literal: string, p: number) =>
  atCodePoint(text, p) && text.startsWith(literal, p) && atCodePoint(text, p + literal.length);

/**
 * Where the word's matches end, one answer per start (the places its first part was found, ascending), -1 where the
 * word does not match from there.
 */
export function wildcardEnds(text: string, word: WildcardWord, starts: readonly number[]): number[] {
  const ends = starts.map(() => -1);
  for (let first = 0; first < starts.length;) {
    // Starts whose matches may overlap share one look at the text: each code unit is looked at once per word.
    let last = first;
    while (last + 1 < starts.length && starts[last + 1]! <= starts[last]! + word.span) last += 1;
    confirmStarts(text, word, starts, first, last, ends);
    first = last + 1;
  }
  return ends;
}

/** Confirms starts[first..last] within the text from the first start to where the last one's match may reach. */
function confirmStarts(
  text: string,
  word: WildcardWord,
  starts: readonly number[],
  first: number,
  last: number,
  ends: number[],
): void {
  const { literals, gaps } = word;
  const k = literals.length - 1;
  const lo = starts[first]!;
  const hi = Math.min(text.length, starts[last]! + word.span);
  const size = hi - lo + 1;

  // The code points of the region: rank[p - lo] is p's index among them (-1 inside a pair), points[index] is p.
  const rank = new Int32Array(size);
  const points = new Int32Array(size);
  let count = 0;
  for (let p = lo; p <= hi; p += 1) {
    if (atCodePoint(text, p)) {
      rank[p - lo] = count;
      points[count] = p;
      count += 1;
    } else rank[p - lo] = -1;
  }
  /** The furthest position `gap` code points after `p` (clipped at the region, which holds every match it serves). */
  const reach = (p: number, gap: number) => points[Math.min(rank[p - lo]! + gap, count - 1)]!;

  // feasible[i][p - lo]: the first q >= p (q <= hi) where parts i..k match in a row, each gap within its bound; else
  // hi + 1, beyond every reach.
  const none = hi + 1;
  const feasible: Int32Array[] = [];
  for (let i = k; i >= 1; i -= 1) {
    const literal = literals[i]!;
    const after = feasible[i + 1];
    const next = new Int32Array(size + 1);
    next[size] = none;
    for (let p = hi; p >= lo; p -= 1) {
      let here = literalAt(text, literal, p);
      if (here && after) {
        const end = p + literal.length;
        here = end <= hi && after[end - lo]! <= reach(end, gaps[i]!);
      }
      next[p - lo] = here ? p : next[p - lo + 1]!;
    }
    feasible[i] = next;
  }

  for (let j = first; j <= last; j += 1) {
    const start = starts[j]!;
    if (!literalAt(text, literals[0]!, start)) continue;
    let p = start + literals[0]!.length;
    let i = 1;
    for (; i <= k; i += 1) {
      const q = feasible[i]![p - lo]!;
      if (q > reach(p, gaps[i - 1]!)) break;
      p = q + literals[i]!.length;
    }
    if (i > k) ends[j] = p;
  }
}

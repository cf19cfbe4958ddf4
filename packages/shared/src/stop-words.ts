/**
 * Stop words, as the product family kept them: each word has one action per content type. The batch line formats:
 *
 * - `word`                      every type {REPLACE} with `**`
 * - `word=text`                 every type {REPLACE} with `text`
 * - `word={MOD}`, `word={BANNED}`, `word={IGNORE}`, `word={REPLACE}`   that action for every type
 * - `word=ugc|username|signature|dialog|nickname`   one action (or a replacement text) per type, in that order;
 *   without a fifth part the nickname follows the username; other missing or empty parts are {IGNORE}
 *
 * `{n}` inside a word (n 0 to 99) matches up to n characters of anything. Matching ignores case.
 */
export const STOP_WORD_TYPES = ['ugc', 'username', 'signature', 'dialog', 'nickname'] as const;
export type StopWordType = (typeof STOP_WORD_TYPES)[number];

export const STOP_WORD_ACTIONS = ['{IGNORE}', '{MOD}', '{BANNED}', '{REPLACE}'] as const;
export type StopWordAction = (typeof STOP_WORD_ACTIONS)[number];

export const STOP_WORD_BATCH_MAX = 10_000;
export const STOP_WORD_MAX = 100;
export const STOP_WORD_REPLACEMENT_MAX = 100;
export const STOP_WORD_DEFAULT_REPLACEMENT = '**';

export interface StopWordRule {
  find: string;
  replacement: string;
  ugc: StopWordAction;
  username: StopWordAction;
  signature: StopWordAction;
  dialog: StopWordAction;
  nickname: StopWordAction;
}

/** A {REPLACE} word found in a text: the code units start..end give way to `text`. */
export interface TextReplacement {
  start: number;
  end: number;
  text: string;
}

/**
 * Puts the replacements into a text as they are, for plain text (titles, names). Markdown needs them escaped, or
 * the default `**` would turn into emphasis: see replaceLiterally in packages/server/src/modules/posts/post-content.ts.
 */
export function replacePlainly(text: string, replacements: readonly TextReplacement[]): string {
  let out = '';
  let at = 0;
  for (const r of replacements) {
    out += text.slice(at, r.start) + r.text;
    at = r.end;
  }
  return out + text.slice(at);
}

/** A reason in both locales. */
export interface StopWordLineError {
  en: string;
  zh: string;
}

const ACTION_BY_TOKEN = new Map(STOP_WORD_ACTIONS.map((a) => [a.toLowerCase(), a]));
const WILDCARD = /\{(\d{1,2})\}/g;
const hasControl = (s: string) => /\p{Cc}/u.test(s);
const codePoints = (s: string) => [...s].length;

/** The parts of a word between its `{n}` wildcards (lower-cased by the matcher, not here). */
export function wordLiterals(find: string): string[] {
  return find.split(WILDCARD).filter((_, i) => i % 2 === 0);
}

function checkWord(find: string): StopWordLineError | null {
  if (find === '') return { en: 'the word is empty', zh: '敏感词为空' };
  if (codePoints(find) > STOP_WORD_MAX) {
    return { en: `the word is longer than ${STOP_WORD_MAX} characters`, zh: `敏感词超过 ${STOP_WORD_MAX} 个字符` };
  }
  if (hasControl(find)) return { en: 'the word holds control characters', zh: '敏感词包含控制字符' };
  if (find.includes('|')) return { en: 'the word holds "|"', zh: '敏感词不能包含“|”' };
  if (wordLiterals(find).join('') === '') {
    return { en: 'the word is only wildcards', zh: '敏感词不能只有通配符' };
  }
  return null;
}

/**
 * Parses one batch line. Null for a blank line; otherwise the rule or the reason it is refused.
 */
export function parseStopWordLine(raw: string): StopWordRule | StopWordLineError | null {
  const line = raw.trim();
  if (line === '') return null;
  const eq = line.indexOf('=');
  const find = (eq < 0 ? line : line.slice(0, eq)).trim();
  const wordError = checkWord(find);
  if (wordError) return wordError;
  const right = eq < 0 ? '{REPLACE}' : line.slice(eq + 1).trim();
  if (right === '') return { en: 'nothing after "="', zh: '“=”后面为空' };

  const parts = right.split('|').map((p) => p.trim());
  if (parts.length > STOP_WORD_TYPES.length) {
    return { en: 'more than 5 actions after "="', zh: '“=”后面的处理方式超过 5 个' };
  }
  let replacement: string | undefined;
  const actions: StopWordAction[] = [];
  for (const part of parts) {
    const token = ACTION_BY_TOKEN.get(part.toLowerCase());
    if (token) {
      actions.push(token);
      continue;
    }
    if (part === '') {
      actions.push('{IGNORE}');
      continue;
    }
    if (part.startsWith('{') && part.endsWith('}')) {
      return { en: `unknown action ${part}`, zh: `未知的处理方式 ${part}` };
    }
    if (codePoints(part) > STOP_WORD_REPLACEMENT_MAX || hasControl(part)) {
      return {
        en: `the replacement must be at most ${STOP_WORD_REPLACEMENT_MAX} characters, without control characters`,
        zh: `替换词最多 ${STOP_WORD_REPLACEMENT_MAX} 个字符，且不能包含控制字符`,
      };
    }
    if (replacement !== undefined && replacement !== part) {
      return { en: 'one word has one replacement', zh: '一个敏感词只能有一个替换词' };
    }
    replacement = part;
    actions.push('{REPLACE}');
  }
  const [ugc, username, signature, dialog, nickname] =
    parts.length === 1
      ? [actions[0]!, actions[0]!, actions[0]!, actions[0]!, actions[0]!]
      : [
          actions[0]!,
          actions[1] ?? '{IGNORE}',
          actions[2] ?? '{IGNORE}',
          actions[3] ?? '{IGNORE}',
          actions[4] ?? actions[1] ?? '{IGNORE}',
        ];
  return {
    find,
    replacement: replacement ?? STOP_WORD_DEFAULT_REPLACEMENT,
    ugc,
    username,
    signature,
    dialog,
    nickname,
  };
}

export function isStopWordRule(v: StopWordRule | StopWordLineError): v is StopWordRule {
  return 'find' in v;
}

/** The line that imports the rule back exactly (always the five-part form). */
export function formatStopWordLine(rule: StopWordRule): string {
  const part = (a: StopWordAction) => (a === '{REPLACE}' ? rule.replacement : a);
  return `${rule.find}=${STOP_WORD_TYPES.map((t) => part(rule[t])).join('|')}`;
}

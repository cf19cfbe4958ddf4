import { linkCardsFor, loneLinkUrls, withLinkCards } from './link-cards.js';
import {
  escapeMarkdown,
  PROFILE_PATH,
  replacePlainly,
  THREAD_SUMMARY_MAX,
  USERNAME_MAX,
  USERNAME_MIN,
  type TextReplacement,
} from '@luntan/shared';
import type { Kysely } from 'kysely';
import MarkdownIt, { type StateCore, type StateInline, type Token } from 'markdown-it';
import cjkFriendly from 'markdown-it-cjk-friendly';
import { FilterXSS } from 'xss';
import type { DB } from '../../db/schema.js';
import { imageEmojiIn } from '../emoji/index.js';
import { emojiImagesAsText, emojiPlugin, isEmojiImage, type EmojiEnv } from './emoji-rule.js';
import { collectTopicNames, topicLinks, type TopicRef } from './topic-links.js';

/**
 * Post content: Markdown source in, sanitised HTML out, with mentions resolved to users: `[@nickname](/user/12)` (what
 * the editor inserts: linked by id, shown by nickname) and `@username` (older posts, or typed by hand).
 *
 * Two layers: markdown-it with raw HTML off (so `<script>` is text, and its link check refuses `javascript:`,
 * `vbscript:`, `file:` and non-image `data:` URLs), then the `xss` filter over its output with an allow-list of tags
 * and attributes (no style, no event handlers, no iframes, only http(s), mailto, tel and relative URLs).
 */

export interface MentionTarget {
  id: number;
  username: string;
}

/** A member named by a mention link (`[@…](/user/12)`), shown by their nickname. */
export interface LinkedMention {
  id: number;
  nickname: string;
}

interface RenderEnv extends EmojiEnv {
  /** `#name#` links (topic-links.ts): the topics that exist, by folded name. */
  topics: Map<string, TopicRef>;
  mentionUsers: Map<string, MentionTarget>;
  linkedUsers: Map<number, LinkedMention>;
  mentioned: Set<number>;
}

const NAME_CHAR = /[\p{L}\p{N}_-]/u;
/**
 * A mention may not follow a Latin letter, digit or address character (so a@b.com is no mention); after a Chinese
 * character it may (`你好@张三`), since Chinese text has no spaces.
 */
const BEFORE_MENTION = /[A-Za-z0-9_.@/-]/;
/** At most this many @ signs in one post are looked at. */
const MENTIONS_MAX = 30;

/**
 * Every name an @ could stand for: the run of name characters after it and each of its prefixes, because in
 * unspaced Chinese (`@张三你好`) the name ends where no user's name does. The longest existing name wins.
 */
export function mentionCandidates(text: string): string[] {
  const out = new Set<string>();
  let seen = 0;
  for (let i = text.indexOf('@'); i !== -1 && seen < MENTIONS_MAX; i = text.indexOf('@', i + 1)) {
    if (i > 0 && BEFORE_MENTION.test(text[i - 1]!)) continue;
    seen += 1;
    let name = '';
    let length = 0;
    for (const ch of text.slice(i + 1, i + 1 + USERNAME_MAX * 2)) {
      if (!NAME_CHAR.test(ch) || length >= USERNAME_MAX) break;
      name += ch;
      length += 1;
      if (length >= USERNAME_MIN) out.add(name.toLowerCase());
    }
  }
  return [...out];
}

function mentionRule(state: StateInline, silent: boolean): boolean {
  const { src, pos } = state;
  if (src.charCodeAt(pos) !== 0x40 /* @ */) return false;
  const env = state.env as Partial<RenderEnv>;
  if (!env.mentionUsers || env.mentionUsers.size === 0) return false;
  // Inside a link's text (`[@张三](/user/5)`, `[@bob](https://…)`) a name is the link's, never a second link.
  if (state.linkLevel > 0) return false;
  if (pos > 0 && BEFORE_MENTION.test(src[pos - 1]!)) return false;
  const names: string[] = [];
  let name = '';
  for (const ch of src.slice(pos + 1, pos + 1 + USERNAME_MAX * 2)) {
    if (!NAME_CHAR.test(ch) || names.length >= USERNAME_MAX) break;
    name += ch;
    names.push(name);
  }
  for (let k = names.length - 1; k >= 0; k -= 1) {
    const typed = names[k]!;
    const user = env.mentionUsers.get(typed.toLowerCase());
    if (!user) continue;
    if (!silent) {
      const open = state.push('link_open', 'a', 1);
      open.attrs = [
        ['href', `/user/${user.id}`],
        ['class', 'mention'],
        ['data-user-id', String(user.id)],
      ];
      open.markup = 'mention';
      const text = state.push('text', '', 0);
      text.content = `@${typed}`;
      state.push('link_close', 'a', -1);
      env.mentioned?.add(user.id);
    }
    state.pos += 1 + typed.length;
    return true;
  }
  return false;
}

/** The ids of the members that mention links name, at most MENTIONS_MAX. */
export function linkedMentionIds(text: string): number[] {
  const ids = new Set<number>();
  for (const match of text.matchAll(/\/user\/(\d{1,9})(?!\d)/g)) {
    ids.add(Number(match[1]));
    if (ids.size >= MENTIONS_MAX) break;
  }
  return [...ids];
}

/**
 * A link to a member's page whose whole text is `@…` is a mention: linked by the id and shown with the member's
 * nickname, whatever the text says (no one can dress a link up as someone else). When the member is gone or blocked
 * the author, the text stays, unlinked, as a name typed with `@` does.
 */
function mentionLinks(state: StateCore): void {
  const env = state.env as Partial<RenderEnv>;
  for (const block of state.tokens) {
    if (block.type !== 'inline' || !block.children) continue;
    const tokens = block.children;
    const kept: Token[] = [];
    for (let i = 0; i < tokens.length; i++) {
      const [open, text, close] = [tokens[i]!, tokens[i + 1], tokens[i + 2]];
      // An `@username` the inline rule linked (markup 'mention') is already resolved.
      const id =
        open.type === 'link_open' && open.markup !== 'mention'
          ? PROFILE_PATH.exec(String(open.attrGet('href') ?? ''))?.[1]
          : undefined;
      if (id === undefined || text?.type !== 'text' || !text.content.startsWith('@') || close?.type !== 'link_close') {
        kept.push(open);
        continue;
      }
      i += 2;
      const user = env.linkedUsers?.get(Number(id));
      if (!user) {
        kept.push(text);
        continue;
      }
      open.attrs = [
        ['href', `/user/${user.id}`],
        ['class', 'mention'],
        ['data-user-id', String(user.id)],
      ];
      text.content = `@${user.nickname}`;
      env.mentioned?.add(user.id);
      kept.push(open, text, close);
    }
    block.children = kept;
  }
}

const md = new MarkdownIt({ html: false, linkify: true, breaks: true, typographer: false });
// CommonMark misses emphasis next to CJK punctuation (`**规则（一）**的`); this plugin fixes the flanking rules.
md.use(cjkFriendly);
md.inline.ruler.after('text', 'mention', mentionRule);
md.use(topicLinks);
// Last, once escaped characters have joined the text around them (text_join).
md.core.ruler.push('mention_links', mentionLinks);
md.use(emojiPlugin);

const renderLinkOpen =
  md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  const token = tokens[idx]!;
  if (/^(https?:)?\/\//i.test(String(token.attrGet('href') ?? ''))) {
    token.attrSet('target', '_blank');
    token.attrSet('rel', 'nofollow noopener noreferrer ugc');
  }
  return renderLinkOpen(tokens, idx, options, env, self);
};
const renderImage = md.renderer.rules.image!;
md.renderer.rules.image = (tokens, idx, options, env, self) => {
  tokens[idx]!.attrSet('loading', 'lazy');
  return renderImage(tokens, idx, options, env, self);
};

const ALLOWED_CLASS = /^(mention|topic|language-[\w+#-]{1,30})$/;

/** The emoji images of the text being sanitised (set around each synchronous `process`). */
let emojiSources: ReadonlySet<string> = new Set();

const sanitizer = new FilterXSS({
  whiteList: {
    a: ['href', 'title', 'class', 'rel', 'target', 'data-user-id'],
    img: ['src', 'alt', 'title', 'loading'],
    p: [],
    br: [],
    hr: [],
    h1: [],
    h2: [],
    h3: [],
    h4: [],
    h5: [],
    h6: [],
    blockquote: [],
    pre: [],
    code: ['class'],
    em: [],
    strong: [],
    del: [],
    s: [],
    ul: [],
    ol: ['start'],
    li: [],
    table: [],
    thead: [],
    tbody: [],
    tr: [],
    th: [],
    td: [],
    sup: [],
    sub: [],
  },
  stripIgnoreTag: true,
  stripIgnoreTagBody: ['script', 'style', 'iframe', 'object', 'embed', 'noscript', 'template', 'svg', 'math'],
  css: false,
  onTag(tag: string, html: string) {
    if (tag !== 'img' || !/\sclass=/i.test(html)) return undefined;
    return isEmojiImage(html, emojiSources) ? html : '';
  },
  onTagAttr(tag: string, name: string, value: string) {
    // Only the values our renderer writes; anything else is dropped.
    if (name === 'class') return ALLOWED_CLASS.test(value) ? undefined : '';
    if (name === 'target') return value === '_blank' ? undefined : '';
    if (name === 'data-user-id') return /^\d+$/.test(value) ? undefined : '';
    if (name === 'loading') return value === 'lazy' ? undefined : '';
    if (name === 'start') return /^\d{1,6}$/.test(value) ? undefined : '';
    if (tag === 'a' && name === 'href' && /^\s*data:/i.test(value)) return '';
    return undefined;
  },
});

/** Two private-use characters the source does not hold, to mark where each replacement goes. */
function markers(source: string): [string, string] {
  for (let code = 0xe000; code < 0xf8ff; code += 2) {
    const open = String.fromCharCode(code);
    const close = String.fromCharCode(code + 1);
    if (!source.includes(open) && !source.includes(close)) return [open, close];
  }
  return ['\uf8fe', '\uf8ff'];
}

/**
 * Puts stop-word replacements into Markdown as literal text, so that the default `**` shows as two stars rather
 * than opening emphasis: backslash-escaped in running text, as they are inside code (inline code, fenced and
 * indented blocks, autolinks), where a backslash would show. Where each one lands is read from this renderer's own
 * parse of the text with a marker in place of each replacement.
 */
export function replaceLiterally(source: string, replacements: readonly TextReplacement[]): string {
  const escaped = replacements.map((r) => ({ ...r, text: escapeMarkdown(r.text) }));
  if (escaped.every((r, i) => r.text === replacements[i]!.text)) return replacePlainly(source, replacements);
  const [open, close] = markers(source);
  const marked = replacePlainly(
    source,
    replacements.map((r, i) => ({ ...r, text: `${open}${i}${close}` })),
  );
  const inCode = markersInCode(marked, open, close);
  return replacePlainly(
    source,
    replacements.map((r, i) => (inCode.has(i) ? r : escaped[i]!)),
  );
}

/** The numbers of the markers (`open` n `close`) that this renderer's parse of `marked` finds inside code. */
function markersInCode(marked: string, open: string, close: string): Set<number> {
  const inCode = new Set<number>();
  const markerPattern = new RegExp(`${open}(\\d+)${close}`, 'g');
  const collect = (text: string) => {
    for (const match of text.matchAll(markerPattern)) inCode.add(Number(match[1]));
  };
  const visit = (tokens: readonly Token[]) => {
    let inAutolink = false;
    for (const token of tokens) {
      if (token.type === 'link_open' && token.markup === 'autolink') inAutolink = true;
      else if (token.type === 'link_close') inAutolink = false;
      if (token.type === 'code_inline' || token.type === 'code_block' || token.type === 'fence') collect(token.content);
      else if (inAutolink && token.type === 'text') collect(token.content);
      if (token.children) visit(token.children);
    }
  };
  visit(md.parse(marked, {}));
  return inCode;
}

/**
 * A member's username changed: their `@old` mentions in a post's Markdown become `@new` (as Discourse rewrites the
 * raw text), so the text keeps naming them and a later member taking the old name is not linked instead. Only
 * where a mention can stand (not after a letter, digit or address character, not followed by an ASCII name
 * character, not inside code): elsewhere the text stays as written.
 */
export function renameMentions(source: string, oldUsername: string, newUsername: string): string {
  if (oldUsername === '' || oldUsername === newUsername) return source;
  const at = new RegExp(`@${escapeRegExp(oldUsername)}(?![A-Za-z0-9_-])`, 'giu');
  const places: number[] = [];
  for (const match of source.matchAll(at)) {
    const i = match.index;
    if (i > 0 && BEFORE_MENTION.test(source[i - 1]!)) continue;
    places.push(i);
  }
  if (places.length === 0) return source;
  const [open, close] = markers(source);
  let marked = '';
  let last = 0;
  places.forEach((i, n) => {
    marked += `${source.slice(last, i)}${open}${n}${close}`;
    last = i + 1 + oldUsername.length;
  });
  const inCode = markersInCode(marked + source.slice(last), open, close);
  let out = '';
  last = 0;
  places.forEach((i, n) => {
    out += source.slice(last, i) + (inCode.has(n) ? source.slice(i, i + 1 + oldUsername.length) : `@${newUsername}`);
    last = i + 1 + oldUsername.length;
  });
  return out + source.slice(last);
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Loads the users that the candidate names belong to (case-insensitive usernames). A user who blocked the author
 * is left out: the name stays plain text, with no link and no notification.
 */
export async function findMentionTargets(
  db: Kysely<DB>,
  text: string,
  authorId: number,
): Promise<Map<string, MentionTarget>> {
  const names = mentionCandidates(text);
  const map = new Map<string, MentionTarget>();
  if (names.length === 0) return map;
  const rows = await db
    .selectFrom('users')
    .select(['id', 'username', 'usernameNormalized'])
    .where('usernameNormalized', 'in', names)
    .where('id', 'not in', (eb) =>
      eb.selectFrom('userDenies').select('userDenies.userId').where('userDenies.denyUserId', '=', authorId),
    )
    .execute();
  for (const r of rows) map.set(r.usernameNormalized, { id: r.id, username: r.username });
  return map;
}

export interface RenderedContent {
  html: string;
  /** Ids of the users mentioned (and linked) in the text. */
  mentions: number[];
  /** The text without Markdown or HTML, for the search index and summaries. */
  plain: string;
}

/**
 * The members that mention links name, by id. Like findMentionTargets, one who blocked the author is left out.
 */
export async function findLinkedMentions(
  db: Kysely<DB>,
  text: string,
  authorId: number,
): Promise<Map<number, LinkedMention>> {
  const ids = linkedMentionIds(text);
  const map = new Map<number, LinkedMention>();
  if (ids.length === 0) return map;
  const rows = await db
    .selectFrom('users')
    .select(['id', 'nickname'])
    .where('id', 'in', ids)
    .where('id', 'not in', (eb) =>
      eb.selectFrom('userDenies').select('userDenies.userId').where('userDenies.denyUserId', '=', authorId),
    )
    .execute();
  for (const r of rows) map.set(r.id, { id: r.id, nickname: r.nickname });
  return map;
}

/**
 * Renders Markdown to sanitised HTML; `@username` mentions link only to users in `mentionUsers`, mention links only
 * to users in `linkedUsers`; `:code:` shows the image in `imageEmoji` (code with colons → safe address) or the
 * Unicode emoji of that shortcode.
 */
export function renderMarkdown(
  text: string,
  mentionUsers = new Map<string, MentionTarget>(),
  linkedUsers = new Map<number, LinkedMention>(),
  imageEmoji = new Map<string, string>(),
  topics = new Map<string, TopicRef>(),
): RenderedContent {
  const env: RenderEnv = { mentionUsers, linkedUsers, mentioned: new Set(), imageEmoji, topics };
  emojiSources = new Set(imageEmoji.values());
  let html: string;
  try {
    html = sanitizer.process(md.render(text, env as unknown as Record<string, unknown>));
  } finally {
    emojiSources = new Set();
  }
  return { html, mentions: [...env.mentioned], plain: plainText(html) };
}

/**
 * Renders a post's Markdown by `authorId`, resolving its @mentions against the users table and its `:code:` emoji
 * against the site's emoji; `#name#` links to the topics given (the topics module's topicsNamedIn, which makes them
 * first).
 */
export async function renderContent(
  db: Kysely<DB>,
  text: string,
  authorId: number,
  topics?: Map<string, TopicRef>,
): Promise<RenderedContent> {
  const [byName, byId, emoji] = await Promise.all([
    findMentionTargets(db, text, authorId),
    findLinkedMentions(db, text, authorId),
    imageEmojiIn(db, text),
  ]);
  const rendered = renderMarkdown(text, byName, byId, emoji, topics);
  // Links alone on their line whose previews are known show as cards (link-cards.ts); the plain text stays the text's.
  const lone = loneLinkUrls(rendered.html);
  if (lone.length === 0) return rendered;
  return { ...rendered, html: withLinkCards(rendered.html, await linkCardsFor(db, lone)) };
}

/** The names of the topics (`#name#`) a post's Markdown names, where rendering would see them. */
export const topicNames = (text: string): string[] => collectTopicNames(md, text);

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** The text of sanitised HTML: images dropped, blocks separated by a space, entities decoded. */
export function plainText(html: string): string {
  return emojiImagesAsText(html)
    .replace(/<img\b[^>]*>/gi, ' ')
    .replace(/<\/(p|h[1-6]|li|blockquote|pre|tr|td|th)>|<br\s*\/?>|<hr\s*\/?>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, entity: string) => {
      if (entity[0] === '#') {
        const hex = entity[1] === 'x' || entity[1] === 'X';
        const code = hex ? parseInt(entity.slice(2), 16) : parseInt(entity.slice(1), 10);
        return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
      }
      return ENTITIES[entity.toLowerCase()] ?? whole;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

/** The start of a post's plain text, for lists. */
export function summarize(plain: string, max = THREAD_SUMMARY_MAX): string {
  const chars = [...plain];
  return chars.length <= max ? plain : `${chars.slice(0, max).join('')}…`;
}

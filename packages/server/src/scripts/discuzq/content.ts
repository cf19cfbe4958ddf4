import { BEFORE_TOPIC, isTopicName, mentionMarkdown } from '@luntan/shared';
import { Parser } from 'htmlparser2';
import MarkdownIt from 'markdown-it';
import cjkFriendly from 'markdown-it-cjk-friendly';

/*
 * Discuz! Q post bodies to Luntan's post Markdown (modules/content/post-content.ts renders it).
 *
 * Three inputs: the v3 editor's HTML (xss-filtered there, hostile here all the same), s9e TextFormatter XML left by
 * v2 (`<t>…</t>`, `<r>…</r>`), and bare text. One streaming parse (htmlparser2, no DOM library) builds a small tree
 * that one walk turns into Markdown; nothing of the source's markup passes through as markup, every piece of text is
 * escaped, so the post shows what the old site showed and nothing can run script.
 *
 * Decisions:
 * - Mentions become `[@nickname](/user/UID)` (Luntan shows the member's current nickname), topics `#name#` (a space is
 *   put before one that follows a letter or digit, else Luntan's rule would not see it). A topic whose name Luntan's
 *   rules refuse stays escaped text; its id is still reported, since the importer keeps the thread's topics by id.
 * - `:code:` emoji are written as they are; an `<img alt=":code:">` becomes its code.
 * - `<img alt="attachmentId-N">` is the attachment the importer maps (`ctx.imageUrl`). When it does not know it (a
 *   deleted attachment, or one of another post), the picture is dropped rather than linked to the old site: that
 *   address dies with the old site (or is a signed COS link that expires) and would leak readers' addresses to it.
 * - Other pictures and links keep only http(s) (and mailto for links); any other address leaves the text alone.
 * - Plain http(s) addresses in text become autolinks `<https://…>`, which show the address as it was written;
 *   escaping them would break them, leaving them bare would let Markdown read their `_` and `*`.
 * - Emphasis that Markdown could not close where it stands (`**` against punctuation) is dropped, never shown as stars.
 */

export interface ConvertContext {
  imageUrl(attachmentId: number): string | null;
}

export interface ConvertedContent {
  markdown: string;
  mentions: number[];
  topics: number[];
  /** Attachment ids used inline. */
  images: number[];
}

interface Element {
  role: string;
  attrs: Record<string, string>;
  children: Node[];
}
type Node = Element | string;

// Private-use characters stand for what is decided once a paragraph is whole; the source's own are removed first.
const STRONG_OPEN = '\uE000';
const STRONG_CLOSE = '\uE001';
const EM_OPEN = '\uE002';
const EM_CLOSE = '\uE003';
const DEL_OPEN = '\uE004';
const DEL_CLOSE = '\uE005';
/** The `!` of an image, told apart from a text `!` that happens to stand before a link. */
const IMAGE_BANG = '\uE006';
/** Before a topic: a space if the character before would keep Luntan's topic rule from seeing it. */
const TOPIC_GAP = '\uE007';
const PRIVATE = /[\uE000-\uE00F]/g;
const MARKER = /[\uE000-\uE005]/;

const DELIMITERS: Record<string, { close: string; text: string }> = {
  [STRONG_OPEN]: { close: STRONG_CLOSE, text: '**' },
  [EM_OPEN]: { close: EM_CLOSE, text: '*' },
  [DEL_OPEN]: { close: DEL_CLOSE, text: '~~' },
};

/** Elements whose content is never shown (or is s9e's markup: `<s>`, `<e>` hold `[b]`, `**`; `<i>` ignored text). */
const DROPPED = new Set([
  'drop',
  'script',
  'style',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'noscript',
  'template',
  'svg',
  'math',
  'textarea',
  'select',
  'option',
  'button',
  'input',
  'head',
  'title',
  'link',
  'meta',
  'base',
  'audio',
  'video',
  'canvas',
]);

const BLOCKS = new Set([
  'root',
  'p',
  'div',
  'section',
  'article',
  'header',
  'footer',
  'main',
  'aside',
  'nav',
  'figure',
  'figcaption',
  'address',
  'details',
  'summary',
  'center',
  'form',
  'fieldset',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'ul',
  'ol',
  'li',
  'pre',
  'hr',
  'table',
  'caption',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'td',
  'th',
  'dl',
  'dt',
  'dd',
]);

/** s9e's tag names (case-sensitive) as the HTML roles they render as; others keep their text. */
const XML_ROLES: Record<string, string> = {
  r: 'root',
  t: 'root',
  p: 'p',
  br: 'br',
  s: 'drop',
  e: 'drop',
  i: 'drop',
  E: 'emoji',
  EMOJI: 'emoji',
  USERMENTION: 'mention',
  TOPIC: 'topic',
  B: 'strong',
  STRONG: 'strong',
  I: 'em',
  EM: 'em',
  S: 'del',
  DEL: 'del',
  STRIKE: 'del',
  C: 'code',
  CODE: 'pre',
  QUOTE: 'blockquote',
  LIST: 'list',
  LI: 'li',
  H1: 'h1',
  H2: 'h2',
  H3: 'h3',
  H4: 'h4',
  H5: 'h5',
  H6: 'h6',
  URL: 'a',
  EMAIL: 'a',
  IMG: 'img',
  HR: 'hr',
};

const XML_SOURCE = /^<([rt])(?:\s[^>]*)?>[\s\S]*<\/\1>$|^<[rt]\s*\/>$/;
/** A tag of HTML a post body could hold; text like `a <b and c>` (no such tag) is plain text. */
const HAS_TAG =
  /<\/?(?:p|br|div|span|strong|b|em|i|u|s|del|strike|a|img|ul|ol|li|blockquote|pre|code|h[1-6]|hr|table|tr|td|th|font|sup|sub|section|article|iframe|script|style|svg|object|embed)(?:\s[^<>]*)?\/?>|<!--/i;

function htmlRole(name: string, attrs: Record<string, string>): string {
  if (name === 'span' && attrs.id === 'member') return 'mention';
  if (name === 'span' && attrs.id === 'topic') return 'topic';
  if (name === 'b') return 'strong';
  if (name === 'i' || name === 'cite' || name === 'dfn' || name === 'var') return 'em';
  if (name === 's' || name === 'strike') return 'del';
  if (name === 'kbd' || name === 'samp' || name === 'tt') return 'code';
  return name;
}

function xmlRole(name: string, attrs: Record<string, string>): { role: string; attrs: Record<string, string> } {
  const role = XML_ROLES[name] ?? 'span';
  if (name === 'URL') return { role, attrs: { href: attrs.url ?? '' } };
  if (name === 'EMAIL') return { role, attrs: { href: `mailto:${attrs.email ?? ''}` } };
  if (name === 'LIST') {
    const ordered = /^(decimal|\d|lower-|upper-|[aAiI]$)/.test(attrs.type ?? '');
    return { role: ordered ? 'ol' : 'ul', attrs: { start: attrs.start ?? '' } };
  }
  if (name === 'CODE') return { role, attrs: { class: attrs.lang ? `language-${attrs.lang}` : '' } };
  return { role, attrs };
}

function parseTree(source: string, xml: boolean): Element {
  const root: Element = { role: 'root', attrs: {}, children: [] };
  const stack: Element[] = [root];
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        const el: Element = xml
          ? { ...xmlRole(name, attrs), children: [] }
          : { role: htmlRole(name, attrs), attrs, children: [] };
        stack[stack.length - 1]!.children.push(el);
        stack.push(el);
      },
      ontext(text) {
        const { children } = stack[stack.length - 1]!;
        const last = children.length - 1;
        if (typeof children[last] === 'string') children[last] += text;
        else children.push(text);
      },
      onclosetag() {
        if (stack.length > 1) stack.pop();
      },
    },
    xml
      ? { xmlMode: true, decodeEntities: true }
      : { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: true },
  );
  parser.write(source);
  parser.end();
  return root;
}

/** The text of an element as its markup left it: `<br>` a newline, dropped elements left out. */
function textOf(node: Node): string {
  if (typeof node === 'string') return node;
  if (DROPPED.has(node.role)) return '';
  if (node.role === 'br') return '\n';
  return node.children.map(textOf).join('');
}

const hasVisible = (s: string) => s.replace(PRIVATE, '').trim() !== '';

// What markdown-it counts as whitespace and punctuation when it decides whether `*` opens or closes emphasis.
const WHITESPACE = /^$|[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]/;
const PUNCTUATION = /[\p{P}\p{S}]/u;

function flanking(before: string, after: string): { left: boolean; right: boolean } {
  const beforeSpace = WHITESPACE.test(before);
  const afterSpace = WHITESPACE.test(after);
  const beforePunct = PUNCTUATION.test(before);
  const afterPunct = PUNCTUATION.test(after);
  return {
    left: !afterSpace && (!afterPunct || beforeSpace || beforePunct),
    right: !beforeSpace && (!beforePunct || afterSpace || afterPunct),
  };
}

/** The nearest character that is not a marker, left (-1) or right (+1) of `at`; '' at either end. */
function neighbour(s: string, at: number, step: 1 | -1): string {
  for (let i = at + step; i >= 0 && i < s.length; i += step) if (!MARKER.test(s[i]!)) return s[i]!;
  return '';
}

/** The same parser as Luntan's renderer for emphasis (CommonMark with strikethrough and the CJK fix). */
const emphasisCheck = new MarkdownIt({ html: false, linkify: false }).use(cjkFriendly);

function countEmphasis(markdown: string): number {
  let n = 0;
  for (const block of emphasisCheck.parse(markdown, {})) {
    for (const t of block.children ?? [])
      if (t.type === 'strong_open' || t.type === 'em_open' || t.type === 's_open') n += 1;
  }
  return n;
}

/**
 * Turns the emphasis markers of a paragraph into `**`, `*`, `~~`, or nothing where Markdown would not read them as
 * emphasis: CommonMark's flanking rules first; pairs they refuse are tried with the real parser (whose CJK fix
 * accepts `**（一）**的`), and dropped if it refuses too.
 */
function resolveEmphasis(s: string): string {
  if (!MARKER.test(s)) return s;
  const pairs: Array<{ open: number; close: number; text: string; strict: boolean }> = [];
  const stack: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (DELIMITERS[c]) stack.push(i);
    else if (MARKER.test(c)) {
      const open = stack.pop()!;
      const { text } = DELIMITERS[s[open]!]!;
      const opening = flanking(neighbour(s, open, -1), neighbour(s, open, 1));
      const closing = flanking(neighbour(s, i, -1), neighbour(s, i, 1));
      // A closing run right against an opening one of the same character would merge with it (`*a***b**`).
      const clash = pairs.some((p) => p.close === open - 1 && p.text[0] === text[0]);
      pairs.push({ open, close: i, text: clash ? '' : text, strict: opening.left && closing.right });
    }
  }
  const build = (keep: (p: (typeof pairs)[number]) => boolean) => {
    const out = [...s];
    for (const p of pairs) {
      const text = keep(p) ? p.text : '';
      out[p.open] = text;
      out[p.close] = text;
    }
    return out.join('');
  };
  const strict = build((p) => p.strict);
  if (pairs.every((p) => p.strict || p.text === '')) return strict;
  const loose = build(() => true);
  const wanted = pairs.filter((p) => p.text !== '').length;
  return countEmphasis(loose.replace(new RegExp(`[${IMAGE_BANG}${TOPIC_GAP}]`, 'g'), '')) === wanted ? loose : strict;
}

/** Emoji codes as Luntan finds them (findEmojiCodes), without `_` at either end (which could open emphasis). */
const EMOJI_CODE = /:[A-Za-z0-9+-](?:[A-Za-z0-9_+-]{0,48}[A-Za-z0-9+-])?:/;
const BARE_URL = /https?:\/\/[^\s<>"'`[\]\\\u3000-\u303f\uff00-\uffef]+/i;
const TEXT_PIECES = new RegExp(`(${BARE_URL.source})|(${EMOJI_CODE.source})`, 'gi');

/** Characters Markdown may read as syntax anywhere in a line. */
const escapeInline = (s: string) => s.replace(/[\\`*_[\]<>#@~|]/g, '\\$&').replace(/&(?=#?[A-Za-z0-9]+;)/g, '\\&');

/** A bare address without the punctuation that ends the sentence around it. */
function trimUrl(url: string): string {
  let end = url.length;
  while (end > 0) {
    const c = url[end - 1]!;
    if (/[.,;:!?'"]/.test(c)) end -= 1;
    else if (c === ')' && (url.slice(0, end).match(/\(/g) ?? []).length < (url.slice(0, end).match(/\)/g) ?? []).length)
      end -= 1;
    else break;
  }
  return url.slice(0, end);
}

function escapeText(text: string, inLink: boolean): string {
  let out = '';
  let at = 0;
  for (const match of text.matchAll(TEXT_PIECES)) {
    const start = match.index;
    let piece = match[0];
    if (match[1] !== undefined) {
      piece = trimUrl(piece);
      // `http://` alone, or inside a link's text (where a link cannot nest): text.
      if (inLink || !/^https?:\/\/[^/]/i.test(piece)) continue;
      out += escapeInline(text.slice(at, start)) + `<${piece}>`;
    } else {
      out += escapeInline(text.slice(at, start)) + piece;
    }
    at = start + piece.length;
  }
  return out + escapeInline(text.slice(at));
}

/** An address usable as a Markdown link destination, or null when its scheme is not one of `schemes`. */
function destination(raw: string | undefined, schemes: RegExp): string | null {
  const url = (raw ?? '').trim();
  if (!schemes.test(url)) return null;
  return url.replace(/[\s<>()\\\p{Cc}]/gu, (c) => encodeURIComponent(c)).replace(/&(?=#?[A-Za-z0-9]+;)/g, '\\&');
}
const LINK_SCHEMES = /^(https?:\/\/[^\s/]|mailto:[^\s])/i;
const IMAGE_SCHEMES = /^https?:\/\/[^\s/]/i;
/** What the importer's imageUrl may answer: an absolute http(s) address or a path on the new site. */
const ATTACHMENT_SCHEMES = /^(https?:\/\/[^\s/]|\/[^/\\])/i;

function codeSpan(text: string): string {
  const t = text.replace(/\r?\n/g, ' ');
  if (t.trim() === '') return '';
  const longest = Math.max(0, ...(t.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = /^[` ]|[` ]$/.test(t) ? ' ' : '';
  return `${fence}${pad}${t}${pad}${fence}`;
}

/** Escapes what a line's start would make a block (list, setext underline); the rest is escaped already. */
function escapeLineStart(line: string): string {
  if (/^[-+=]/.test(line)) return `\\${line}`;
  return line.replace(/^(\d{1,9})([.)])/, '$1\\$2');
}

/** A paragraph's Markdown from its inline pieces: markers resolved, lines trimmed and made safe at their start. */
function finishInline(buffer: string): string {
  const resolved = resolveEmphasis(buffer)
    .replace(/!(?=\[)/g, '\\!')
    .replace(new RegExp(IMAGE_BANG, 'g'), '!')
    .replace(new RegExp(TOPIC_GAP, 'g'), (_gap, offset: number, all: string) =>
      offset > 0 && BEFORE_TOPIC.test(all[offset - 1]!) ? ' ' : '',
    );
  const lines = resolved.split('\n').map((line) => escapeLineStart(line.replace(/^[ \t]+|[ \t]+$/g, '')));
  return lines
    .join('\n')
    .replace(/^\n+|\n+$/g, '')
    .replace(/\n{3,}/g, '\n\n');
}

const LIST_ORDERED_NOT_ONE = /^(\d{1,9})[.)]( |$)/;

class Converter {
  readonly mentions = new Set<number>();
  readonly topics = new Set<number>();
  readonly images = new Set<number>();
  private linkDepth = 0;

  constructor(private readonly ctx: ConvertContext) {}

  blocks(nodes: readonly Node[]): string[] {
    const out: string[] = [];
    let buffer = '';
    const flush = () => {
      if (hasVisible(buffer)) {
        const paragraph = finishInline(buffer);
        if (paragraph !== '') out.push(paragraph);
      }
      buffer = '';
    };
    // The marker of the list just written: a list right after it takes the other marker, or the two would be one.
    let lastList: string | null = null;
    for (const node of nodes) {
      if (typeof node === 'string') buffer += this.text(node);
      else if (DROPPED.has(node.role)) continue;
      else if (BLOCKS.has(node.role)) {
        flush();
        const count = out.length;
        if (node.role === 'ul' || node.role === 'ol') {
          const list = this.list(node, lastList);
          out.push(...list.blocks);
          if (list.blocks.length > 0) lastList = list.marker;
        } else out.push(...this.block(node));
        if (out.length > count && node.role !== 'ul' && node.role !== 'ol') lastList = null;
      } else buffer += this.inline(node);
      if (hasVisible(buffer)) lastList = null;
    }
    flush();
    return out;
  }

  private block(el: Element): string[] {
    const { role } = el;
    if (role === 'hr') return ['***'];
    if (/^h[1-6]$/.test(role)) {
      const text = finishInline(this.inlineChildren(el)).replace(/\n+/g, ' ');
      return text === '' ? [] : [`${'#'.repeat(Number(role[1]))} ${text}`];
    }
    if (role === 'pre') return this.fence(el);
    if (role === 'blockquote') {
      const inner = this.blocks(el.children).join('\n\n');
      return inner === '' ? [] : [inner.replace(/^/gm, '> ').replace(/^> $/gm, '>')];
    }
    if (role === 'ul' || role === 'ol') return this.list(el, null).blocks;
    return this.blocks(el.children);
  }

  private fence(el: Element): string[] {
    const text = textOf(el).replace(/\r\n?/g, '\n').replace(/^\n/, '').replace(/\s+$/, '');
    if (text === '') return [];
    const lang = /(?:^|\s)language-([\w+#-]{1,30})(?:\s|$)/.exec(
      `${el.attrs.class ?? ''} ${el.children.map((c) => (typeof c === 'string' ? '' : (c.attrs.class ?? ''))).join(' ')}`,
    )?.[1];
    const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
    const fence = '`'.repeat(Math.max(3, longest + 1));
    return [`${fence}${lang ?? ''}\n${text}\n${fence}`];
  }

  private list(el: Element, avoid: string | null): { blocks: string[]; marker: string } {
    const ordered = el.role === 'ol';
    const delimiter = ordered ? (avoid === '.' ? ')' : '.') : avoid === '-' ? '*' : '-';
    const startAttr = Number(el.attrs.start);
    let number = ordered && Number.isInteger(startAttr) && startAttr >= 0 && startAttr < 1e8 ? startAttr : 1;
    const items: Node[][] = [];
    let loose: Node[] = [];
    const flushLoose = () => {
      if (loose.some((n) => (typeof n === 'string' ? n.trim() !== '' : !DROPPED.has(n.role)))) items.push(loose);
      loose = [];
    };
    for (const child of el.children) {
      if (typeof child !== 'string' && child.role === 'li') {
        flushLoose();
        items.push(child.children);
      } else loose.push(child);
    }
    flushLoose();
    const out: string[] = [];
    for (const item of items) {
      const marker = ordered ? `${number}${delimiter}` : delimiter;
      number += 1;
      const blocks = this.blocks(item);
      let body = blocks[0] ?? '';
      for (const next of blocks.slice(1)) {
        // An ordered list that does not start at 1 cannot interrupt a paragraph: it needs the blank line.
        const m = LIST_ORDERED_NOT_ONE.exec(next);
        body += (m && m[1] !== '1' ? '\n\n' : '\n') + next;
      }
      const indent = ' '.repeat(marker.length + 1);
      const lines = body.split('\n');
      out.push(
        [
          lines[0] === '' ? marker : `${marker} ${lines[0]}`,
          ...lines.slice(1).map((l) => (l === '' ? '' : indent + l)),
        ].join('\n'),
      );
    }
    return { blocks: out.length === 0 ? [] : [out.join('\n')], marker: delimiter };
  }

  private text(raw: string): string {
    return escapeText(raw.replace(/[\t\n\r\f ]+/g, ' '), this.linkDepth > 0);
  }

  private inlineChildren(el: Element): string {
    let out = '';
    for (const node of el.children) {
      if (typeof node === 'string') out += this.text(node);
      else if (DROPPED.has(node.role)) continue;
      else if (BLOCKS.has(node.role)) {
        // A block inside inline markup (`<a><p>…</p></a>`): its text, on a line of its own.
        out += node.role === 'hr' ? '\n' : `\n${this.inlineChildren(node)}\n`;
      } else out += this.inline(node);
    }
    return out;
  }

  private wrap(open: string, close: string, el: Element): string {
    // A blank line would end the paragraph inside the emphasis; whitespace at its edges would stop it closing.
    const inner = this.inlineChildren(el).replace(/\n[ \t]*(?:\n[ \t]*)+/g, '\n');
    if (!hasVisible(inner)) return inner;
    const [, lead, body, trail] = /^(\s*)([\s\S]*?)(\s*)$/.exec(inner)!;
    return `${lead}${open}${body}${close}${trail}`;
  }

  private inline(el: Element): string {
    switch (el.role) {
      case 'br':
        return '\n';
      case 'strong':
        return this.wrap(STRONG_OPEN, STRONG_CLOSE, el);
      case 'em':
        return this.wrap(EM_OPEN, EM_CLOSE, el);
      case 'del':
        return this.wrap(DEL_OPEN, DEL_CLOSE, el);
      case 'code':
        return codeSpan(textOf(el));
      case 'a':
        return this.link(el);
      case 'img':
        return this.image(el);
      case 'mention':
        return this.mention(el);
      case 'topic':
        return this.topic(el);
      default:
        return this.inlineChildren(el);
    }
  }

  private link(el: Element): string {
    const href = destination(el.attrs.href, LINK_SCHEMES);
    if (href === null || this.linkDepth > 0) return this.inlineChildren(el);
    this.linkDepth += 1;
    let text = this.inlineChildren(el).replace(/\n[ \t]*(?:\n[ \t]*)+/g, '\n');
    this.linkDepth -= 1;
    if (!hasVisible(text)) text = escapeInline((el.attrs.href ?? '').trim().replace(/^mailto:/i, ''));
    return `[${text}](${href})`;
  }

  private image(el: Element): string {
    const alt = (el.attrs.alt ?? '').trim();
    const attachment = /^attachmentId-(\d{1,15})$/.exec(alt);
    if (attachment) {
      const id = Number(attachment[1]);
      const url = destination(this.ctx.imageUrl(id) ?? '', ATTACHMENT_SCHEMES);
      if (url === null) return '';
      this.images.add(id);
      return `${IMAGE_BANG}[](${url})`;
    }
    if (EMOJI_CODE.test(alt) && EMOJI_CODE.exec(alt)![0] === alt) return alt;
    const src = destination(el.attrs.src, IMAGE_SCHEMES);
    if (src === null) return '';
    return `${IMAGE_BANG}[${escapeText(alt.replace(/\s+/g, ' '), true)}](${src})`;
  }

  private mention(el: Element): string {
    const text = textOf(el).replace(/\s+/g, ' ').trim();
    const nickname = text.replace(/^@/, '') || (el.attrs.username ?? '').trim();
    const raw = el.attrs.value ?? el.attrs.id ?? '';
    const id = /^\d{1,9}$/.test(raw) ? Number(raw) : 0;
    if (id === 0 || this.linkDepth > 0) return this.text(text || `@${nickname}`);
    this.mentions.add(id);
    return mentionMarkdown({ id, nickname });
  }

  private topic(el: Element): string {
    const text = textOf(el).replace(/\s+/g, ' ').trim();
    const name = (/^#(.*)#$/.exec(text)?.[1] ?? (el.attrs.topic || text.replace(/^#/, ''))).trim();
    const raw = el.attrs.value ?? el.attrs.id ?? '';
    if (/^\d{1,9}$/.test(raw) && Number(raw) > 0) this.topics.add(Number(raw));
    if (this.linkDepth > 0 || !isTopicName(name)) return this.text(text);
    return `${TOPIC_GAP}#${name}#`;
  }

  plain(source: string): string[] {
    return source
      .replace(/\r\n?/g, '\n')
      .split(/\n[ \t]*\n/)
      .map((paragraph) =>
        finishInline(
          paragraph
            .split('\n')
            .map((line) => escapeText(line, false))
            .join('\n'),
        ),
      )
      .filter((p) => p !== '');
  }
}

/** Text with its entities decoded (as the old site, which showed bodies as HTML, did). */
function decodeEntities(text: string): string {
  // Every `<` as an entity first, so that the parser reads no tag in it and gives it back as text.
  return textOf(parseTree(text.replace(/</g, '&lt;'), false));
}

type SourceKind = 'xml' | 'html' | 'plain';
function kindOf(source: string): SourceKind {
  if (XML_SOURCE.test(source)) return 'xml';
  return HAS_TAG.test(source) ? 'html' : 'plain';
}

export function convertPostContent(source: string, ctx: ConvertContext): ConvertedContent {
  const clean = source.replace(PRIVATE, '').trim();
  const converter = new Converter(ctx);
  const kind = kindOf(clean);
  const blocks =
    kind === 'plain'
      ? converter.plain(decodeEntities(clean))
      : converter.blocks(parseTree(clean, kind === 'xml').children);
  return {
    markdown: blocks.join('\n\n'),
    mentions: [...converter.mentions],
    topics: [...converter.topics],
    images: [...converter.images],
  };
}

function newLine(out: string[]): void {
  if (out.length > 0 && !out[out.length - 1]!.endsWith('\n')) out.push('\n');
}

/** The visible text of a body, for places that show plain text (private messages). */
function plainOf(nodes: readonly Node[], out: string[]): void {
  for (const node of nodes) {
    if (typeof node === 'string') {
      out.push(node.replace(/[\t\n\r\f ]+/g, ' '));
      continue;
    }
    const { role } = node;
    if (DROPPED.has(role) || role === 'img') continue;
    if (role === 'br') out.push('\n');
    else if (role === 'pre') out.push('\n', textOf(node).replace(/^\n/, ''), '\n');
    else if (role === 'a') {
      const text = textOf(node).replace(/\s+/g, ' ').trim();
      const href = (node.attrs.href ?? '').trim();
      const shown = href.replace(/^mailto:/i, '');
      out.push(text);
      // The address is kept where the text does not show it, http(s) and mailto only.
      if (LINK_SCHEMES.test(href) && shown !== text) out.push(text === '' ? shown : ` (${shown})`);
    } else if (BLOCKS.has(role)) {
      // A paragraph is a line of a message (the editor makes one per Enter); an empty one is a blank line.
      newLine(out);
      plainOf(node.children, out);
      newLine(out);
    } else plainOf(node.children, out);
  }
}

/**
 * `dialog_message.message_text`: JSON (`{"message_text":"<p>…</p>","image_url":"…"}`, slashes escaped as PHP's
 * json_encode writes them, sometimes once more by addslashes), or the text itself. Luntan's private messages are plain
 * text (shown with their `:code:` emoji, never as Markdown: dialogs.service, chat-history.tsx), so `markdown` here
 * holds plain text: mentions as `@nickname`, topics as `#name#`, links as their text (and address), no pictures.
 * `imageUrl` is the old message's picture address (http(s) only, else ''); the importer should prefer the message's
 * `attachment_id`, mapped to a Luntan attachment, since the old address dies with the old site.
 */
export function convertDialogMessage(messageText: string, ctx: ConvertContext): { markdown: string; imageUrl: string } {
  void ctx;
  let body = messageText;
  let image = '';
  const parsed = parseDialogJson(messageText.trim());
  if (parsed) {
    body = typeof parsed.message_text === 'string' ? parsed.message_text : '';
    image =
      typeof parsed.image_url === 'string' && IMAGE_SCHEMES.test(parsed.image_url.trim())
        ? parsed.image_url.trim()
        : '';
  }
  const clean = body.replace(PRIVATE, '').trim();
  const kind = kindOf(clean);
  let text: string;
  if (kind === 'plain') text = decodeEntities(clean);
  else {
    const out: string[] = [];
    plainOf(parseTree(clean, kind === 'xml').children, out);
    text = out.join('');
  }
  const markdown = text
    .replace(/\r\n?/g, '\n')
    // Luntan refuses control characters in a message (noControlCharsInLines).
    .replace(/(?!\n)\p{Cc}/gu, '')
    .split('\n')
    .map((line) => line.trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return { markdown, imageUrl: image };
}

function parseDialogJson(text: string): Record<string, unknown> | null {
  if (!text.startsWith('{')) return null;
  for (const candidate of [text, text.replace(/\\(.)/g, '$1')]) {
    try {
      const value: unknown = JSON.parse(candidate);
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
    } catch {
      // Not JSON as it stands: try it with addslashes undone, else it is the text itself.
    }
  }
  return null;
}

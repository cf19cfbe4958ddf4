import { findEmojiCodes } from './schemas/emoji.js';

/**
 * The emoji step of a markdown-it parse, one for the server's renderer and the editor's preview: after the inline
 * parse (and linkify), each `:code:` in running text becomes the Unicode character, or an `emoji` token (an
 * `<img class="emoji" src alt=":code:">`), as `lookup` says; an unknown code stays text. Only text tokens outside
 * links are looked at, so code spans, code blocks, links, autolinks and image descriptions keep their `:code:`.
 * Typed by the shape it uses, so that packages/shared needs no markdown-it.
 */

/** What a code (its name, without colons) shows as. */
export type EmojiFound = { char: string } | { url: string; code: string };

interface TokenLike {
  type: string;
  content: string;
  nesting: number;
  level: number;
  children: TokenLike[] | null;
  attrSet(name: string, value: string): void;
}

interface CoreStateLike {
  tokens: TokenLike[];
  Token: new (type: string, tag: string, nesting: 0) => TokenLike;
}

export function replaceEmojiTokens(state: CoreStateLike, lookup: (name: string) => EmojiFound | undefined): void {
  for (const block of state.tokens) {
    if (block.type !== 'inline' || !block.children || !block.content.includes(':')) continue;
    const out: TokenLike[] = [];
    let linkDepth = 0;
    for (const token of block.children) {
      if (token.type === 'link_open') linkDepth += 1;
      else if (token.type === 'link_close') linkDepth -= 1;
      if (token.type !== 'text' || linkDepth > 0 || !token.content.includes(':')) {
        out.push(token);
        continue;
      }
      const text = token.content;
      let at = 0;
      for (const code of findEmojiCodes(text)) {
        if (code.index < at) continue;
        const found = lookup(code.name);
        if (!found) continue;
        if (code.index > at) out.push(textToken(state, text.slice(at, code.index), token.level));
        if ('char' in found) out.push(textToken(state, found.char, token.level));
        else {
          const image = new state.Token('emoji', 'img', 0);
          image.attrSet('src', found.url);
          image.attrSet('alt', found.code);
          image.attrSet('class', 'emoji');
          image.level = token.level;
          out.push(image);
        }
        at = code.index + code.length;
      }
      if (at === 0) out.push(token);
      else if (at < text.length) out.push(textToken(state, text.slice(at), token.level));
    }
    block.children = out;
  }
}

function textToken(state: CoreStateLike, content: string, level: number): TokenLike {
  const token = new state.Token('text', '', 0);
  token.content = content;
  token.level = level;
  return token;
}

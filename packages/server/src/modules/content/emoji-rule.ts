import { replaceEmojiTokens } from '@luntan/shared';
import type { MarkdownIt } from 'markdown-it';
import { unicodeEmojiChar } from '../emoji/index.js';

/**
 * Emoji in post content (packages/shared/src/schemas/emoji.ts): `:code:` shows as the site's image emoji when the
 * `emoji` table knows the code (`env.imageEmoji`, loaded for the text by renderContent, addresses already checked),
 * else as the Unicode character of a GitHub shortcode, else stays text. Never inside code or links (the rule only
 * looks at running text).
 */

export interface EmojiEnv {
  /** `:code:` → the image's (safe) address. */
  imageEmoji?: ReadonlyMap<string, string>;
}

export function emojiPlugin(md: MarkdownIt): void {
  // Before text_join, while an escaped colon (`\:smile:`) is still a token of its own: it keeps the code text.
  md.core.ruler.before('text_join', 'emoji', (state) => {
    const images = (state.env as EmojiEnv).imageEmoji;
    replaceEmojiTokens(state, (name) => {
      const code = `:${name}:`;
      const url = images?.get(code);
      if (url) return { url, code };
      const char = unicodeEmojiChar(name);
      return char ? { char } : undefined;
    });
  });
}

/** An emoji image exactly as the rule writes it (markdown-it's renderToken: attributes in order, escaped). */
const EMOJI_IMAGE = /^<img src="([^"<>]*)" alt="(:[A-Za-z0-9_+-]{1,50}:)" class="emoji">$/;

/**
 * Whether a tag the sanitiser meets is an emoji image to keep as it is: the rule's own markup, with one of the
 * addresses this text's emoji rows gave. Any other `<img class="emoji">` is dropped by the sanitiser.
 */
export function isEmojiImage(tag: string, sources: ReadonlySet<string>): boolean {
  const match = EMOJI_IMAGE.exec(tag);
  return match !== null && sources.has(match[1]!.replace(/&amp;/g, '&'));
}

/** In plain text an emoji image is its `:code:`. */
export function emojiImagesAsText(html: string): string {
  return html.replace(/<img src="[^"<>]*" alt="(:[A-Za-z0-9_+-]{1,50}:)" class="emoji">/g, '$1');
}

import { replaceEmojiTokens, type EmojiFound } from '@luntan/shared';
import type { MarkdownIt } from 'markdown-it';

/** The render env of the editor's preview: how a `:code:` shows (useEmoji's lookup), when the emoji have loaded. */
export interface EmojiMarkdownEnv {
  emojiLookup?: (name: string) => EmojiFound | undefined;
}

/** The server's emoji step (packages/shared/src/emoji-markdown.ts) in the preview's markdown-it. */
export function emojiMarkdown(md: MarkdownIt): void {
  md.core.ruler.before('text_join', 'emoji', (state) => {
    const lookup = (state.env as EmojiMarkdownEnv).emojiLookup;
    if (lookup) replaceEmojiTokens(state, lookup);
  });
}

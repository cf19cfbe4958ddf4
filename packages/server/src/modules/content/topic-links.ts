import { BEFORE_TOPIC, isTopicName, TOPIC_NAME_MAX, topicKey, topicPath, TOPICS_PER_POST_MAX } from '@luntan/shared';
import type MarkdownIt from 'markdown-it';
import type { StateInline } from 'markdown-it';

type Md = InstanceType<typeof MarkdownIt>;

/**
 * `#name#` in running text (packages/shared/src/topics.ts has the name rules). Rendering links it to the topic's
 * page when the caller's map holds the topic (`<a class="topic" href="/topic/ID">#name#</a>`) and leaves it text
 * otherwise; collecting (topicNames) records the names a post holds. Both walk the same parse, so a name in code, in
 * a link's text or in an address is neither collected nor linked.
 */

/** A topic a post's text names, by its folded name (topicKey). */
export interface TopicRef {
  id: number;
}

export interface TopicEnv {
  /** Rendering: the topics that may be linked, by folded name. */
  topics?: Map<string, TopicRef>;
  /** Collecting: the names met (one per folded name), in order, at most TOPICS_PER_POST_MAX. */
  topicNames?: string[];
}

const HASH = 0x23;

function topicRule(state: StateInline, silent: boolean): boolean {
  const { src, pos } = state;
  if (src.charCodeAt(pos) !== HASH) return false;
  const env = state.env as TopicEnv;
  if (!env.topics && !env.topicNames) return false;
  if (state.linkLevel > 0) return false;
  if (pos > 0 && BEFORE_TOPIC.test(src[pos - 1]!)) return false;
  // The closing `#` within the longest name's reach (in UTF-16 units: a name's code points may take two each).
  const close = src.indexOf('#', pos + 1);
  if (close === -1 || close - pos - 1 > TOPIC_NAME_MAX * 2) return false;
  const name = src.slice(pos + 1, close);
  if (!isTopicName(name)) return false;
  if (!silent) {
    const key = topicKey(name);
    const topic = env.topics?.get(key);
    if (topic) {
      const open = state.push('link_open', 'a', 1);
      open.attrs = [
        ['class', 'topic'],
        ['href', topicPath(topic.id)],
      ];
      open.markup = 'topic';
      state.push('text', '', 0).content = `#${name}#`;
      state.push('link_close', 'a', -1);
    } else {
      state.push('text', '', 0).content = `#${name}#`;
    }
    const names = env.topicNames;
    if (names && names.length < TOPICS_PER_POST_MAX && !names.some((n) => topicKey(n) === key)) names.push(name);
  }
  state.pos = close + 1;
  return true;
}

/** The markdown-it plugin: the `#name#` rule, before the emphasis and link rules see the text. */
export const topicLinks = (md: Md): void => {
  md.inline.ruler.after('text', 'topic', topicRule);
};

/** The names of the topics a post's Markdown names (one per folded name, at most TOPICS_PER_POST_MAX, in order). */
export function collectTopicNames(md: Md, text: string): string[] {
  const env: TopicEnv = { topicNames: [] };
  md.parse(text, env as Record<string, unknown>);
  return env.topicNames!;
}

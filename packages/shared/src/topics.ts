/**
 * Topics: `#name#` in a thread or a reply names a topic (modules/topics on the server, the topic suggestion of the
 * editor). The rules live here so that the server's parser and the editor agree.
 *
 * A name is 1 to 20 characters (code points) of letters, digits and marks of any script, `_ - · . +`, and spaces
 * between them (not first or last: `issue #12 and #13` names nothing). No `#`, no line break, no Markdown
 * punctuation, so what is written is what is shown. Names are unique case-insensitively (NFKC, lower case): `#Go#`
 * and `#go#` are one topic, shown as first written. At most 10 topics are taken from one post; later ones stay text.
 * A `#` right after a Latin letter, a digit or `_ & / . # \ -` opens none (`C#`, `a.com/#x`).
 */
export const TOPIC_NAME_MAX = 20;
export const TOPICS_PER_POST_MAX = 10;

const NAME = /^[\p{L}\p{N}\p{M}_\-·.+](?:[\p{L}\p{N}\p{M}_\-·.+ ]*[\p{L}\p{N}\p{M}_\-·.+])?$/u;
/** A character after which a `#` opens no topic. */
export const BEFORE_TOPIC = /[A-Za-z0-9_&/.#\\-]/;

/** Whether `name` (between the two `#`) is a topic's name. */
export function isTopicName(name: string): boolean {
  const length = [...name].length;
  return length >= 1 && length <= TOPIC_NAME_MAX && NAME.test(name);
}

/** The folded name that topics are unique by. */
export function topicKey(name: string): string {
  return name.normalize('NFKC').toLowerCase();
}

/** The address of a topic's page. */
export const topicPath = (id: number): string => `/topic/${id}`;

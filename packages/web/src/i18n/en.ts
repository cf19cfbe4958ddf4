import type { Messages } from './zh';
import { common } from './en/common';
import { account } from './en/account';
import { people } from './en/people';
import { messages } from './en/messages';
import { threads } from './en/threads';
import { money } from './en/money';
import { plugins } from './en/plugins';
import { community } from './en/community';
import { threadParts } from './en/thread-parts';
import { anonymous } from './en/anonymous';
import { topics } from './en/topics';
import { emoji } from './en/emoji';

/** English: complete, and the spec's words exactly where the spec gives them. */
export const en: Messages = {
  ...common,
  ...account,
  ...people,
  ...messages,
  ...threads,
  ...money,
  ...plugins,
  ...community,
  ...threadParts,
  ...anonymous,
  ...topics,
  ...emoji,
};

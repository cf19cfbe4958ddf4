import type { Catalogue } from './catalogue';
import { common } from './zh/common';
import { account } from './zh/account';
import { people } from './zh/people';
import { messages } from './zh/messages';
import { threads } from './zh/threads';
import { money } from './zh/money';
import { plugins } from './zh/plugins';
import { community } from './zh/community';
import { threadParts } from './zh/thread-parts';
import { anonymous } from './zh/anonymous';
import { topics } from './zh/topics';
import { emoji } from './zh/emoji';

/** Chinese (the default locale). Every user-visible text of the web app lives here and in en.ts. */
export const zh = {
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
} as const;

export type Messages = Catalogue<typeof zh>;

import type { Texts } from '../texts.js';
import type { posts as zh } from '../zh/posts.js';

/** The server's English messages: posts (the keys of zh/posts.ts). */
export const posts = {
  threadNotPublishedYet: 'The thread is not published yet',
  commentAnsweredNotUnder: 'The comment answered is not under this reply',
  commentNeedsReplyOn: 'A comment needs the reply it is on',
  firstPostGoesThread: 'The first post goes with its thread: delete the thread',
  historyNotAllowed: 'Only the author, moderators and administrators may see the edit history',
  versionNotFound: 'There is no such version',
} as const satisfies Texts<typeof zh>;

import type { Texts } from '../texts.js';
import type { threads as zh } from '../zh/threads.js';

/** The server's English messages: threads (the keys of zh/threads.ts). */
export const threads = {
  youNotPostPaid: 'You may not post paid content in this category',
  anonymous: 'Anonymous',
  anonymousUser: 'Anonymous',
  mayNotPostAnonymously: 'You may not post anonymously in this category',
  memberDoesNotShow: 'This member does not show what they liked',
  threadChangedMeanwhileTry: 'The thread changed meanwhile, please try again',
  threadNotFound: 'thread not found',
  postNotFound: 'post not found',
  publishedThreadCannotBecome: 'A published thread cannot become a draft again',
  threadNotPublishedYet: 'The thread is not published yet',
  noPositionPermission: 'You may not add a position in this category',
  typeVideo: 'Video',
  typeImage: 'Images',
  typeAudio: 'Audio',
  typeRedPacket: 'Red packet',
  typeVote: 'Vote',
  typeReward: 'Bounty Q&A',
  typeFiles: 'Files',
  pinOwnThreadsOnly: 'You may pin only your own threads',
  pinnedIsAnotherThread: 'The thread pinned on your profile is another one',
  pinned: 'Pinned to your profile',
  unpinned: 'Unpinned from your profile',
} as const satisfies Texts<typeof zh>;

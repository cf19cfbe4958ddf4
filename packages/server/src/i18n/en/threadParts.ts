import type { Texts } from '../texts.js';
import type { threadParts as zh } from '../zh/threadParts.js';

/** The server's English messages: threadParts (the keys of zh/threadParts.ts). */
export const threadParts = {
  images: 'images',
  audio: 'audio',
  video: 'videos',
  goods: 'goods',
  redPacket: 'red packets',
  reward: 'bounty questions',
  files: 'files',
  vote: 'votes',
  notSupported: 'This kind of thread part is not supported',
  noPermission: 'You may not insert {{part}} in this category',
} as const satisfies Texts<typeof zh>;

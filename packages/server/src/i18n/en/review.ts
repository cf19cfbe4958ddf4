import type { Texts } from '../texts.js';
import type { review as zh } from '../zh/review.js';

/** The server's English messages: review (the keys of zh/review.ts). */
export const review = {
  threadNotHeld: 'Thread {{id}} is not held for review',
  postNotHeld: 'Post {{id}} is not held for review',
  threadMissing: 'Thread {{id}} does not exist',
  postMissing: 'Post {{id}} does not exist',
} as const satisfies Texts<typeof zh>;

import type { Texts } from '../texts.js';
import type { votes as zh } from '../zh/votes.js';

/** The server's English messages: votes (the keys of zh/votes.ts). */
export const votes = {
  endPassed: 'The end time must be later than now',
  endTooFar: 'The end time may be at most one year ahead',
  choiceLocked: 'Members have voted already: the choice type can no longer change',
  noSuchOption: 'This vote has no such option',
  notFound: 'No such vote',
  ended: 'This vote has ended',
  singleChoice: 'This vote takes a single choice',
  alreadyVoted: 'You have voted already',
  notPublished: 'Voting opens once the thread is published',
} as const satisfies Texts<typeof zh>;

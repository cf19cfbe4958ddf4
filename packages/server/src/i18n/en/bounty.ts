import type { Texts } from '../texts.js';
import type { bounty as zh } from '../zh/bounty.js';

/** The server's English messages: bounty (bounty questions, part 107; the keys of zh/bounty.ts). */
export const bounty = {
  notAuthor: "A bounty can be frozen only from its author's own wallet",
  onlyNewThread: 'A bounty cannot be added to a published thread',
  tooSoon: 'The bounty deadline must be at least 24 hours ahead',
  tooLate: 'The bounty deadline may be at most 30 days ahead',
  notEnoughMoney: 'There is not enough money in the wallet: the bounty needs {{amount}}',
  cannotChange: 'A posted bounty cannot be changed',
  cannotRemove: 'A posted bounty cannot be removed',
  notFound: 'This thread has no bounty',
  onlyAuthor: "Only the bounty's author can award answers",
  over: 'The bounty has ended',
  notEnoughLeft: 'Not that much is left of the bounty ({{remaining}} left)',
  replyNotFound: 'The reply does not exist or is not in this thread',
  ownReply: 'You cannot award your own reply',
  ledgerFreeze: 'Bounty frozen: {{title}}',
  ledgerExpense: 'Bounty awarded: {{title}}',
  ledgerIncome: 'Bounty received: {{title}}',
  ledgerRefund: 'Bounty returned at its deadline: {{title}}',
} as const satisfies Texts<typeof zh>;

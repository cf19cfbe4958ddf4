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
  redPacketOnlyAuthor: "Only the thread's author can give a red packet",
  redPacketCannotChange: 'A red packet that was paid cannot be changed or removed',
  redPacketNone: 'This thread has no red packet',
  redPacketLedgerFreeze: 'Red packet of thread {{threadId}} frozen',
  redPacketLedgerIncome: 'Red packet from thread {{threadId}}',
  redPacketLedgerRefund: 'Rest of the red packet of thread {{threadId}} returned',
  redPacketLedgerExpense: 'Red packet of thread {{threadId}} taken',
  redPacketLedgerPaid: 'Red packet of thread {{threadId}} paid online, into frozen money',
  redPacketLedgerReturned: 'Red packet order of thread {{threadId}} no longer needed: payment returned',
  redPacketNoProvider: 'This site takes no online payment: pay the red packet from the wallet',
  redPacketProviderPublished: 'A published thread can only get a red packet paid from the wallet',
} as const satisfies Texts<typeof zh>;

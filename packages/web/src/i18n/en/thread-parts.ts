import type { Catalogue } from '../catalogue';
import type { threadParts as zh } from '../zh/thread-parts';

/** English messages: thread parts (the same keys as zh/thread-parts.ts). */
export const threadParts: Catalogue<typeof zh> = {
  threadParts: {
    title: 'Thread parts',
    add: 'Insert',
    remove: 'Remove',
    notReady: 'Please complete: {{parts}}',
    names: {
      101: 'Images',
      102: 'Audio',
      103: 'Video',
      104: 'Goods',
      106: 'Red packet',
      107: 'Bounty',
      108: 'Files',
      109: 'Vote',
    },
    goods: {
      link: 'Product link',
      name: 'Product name',
      price: 'Price',
      picture: 'Picture address',
      open: 'View the product',
    },
    bounty: {
      amount: 'Bounty amount',
      deadline: 'Deadline',
      hint: 'The amount is frozen in your wallet when you post; the deadline is 24 hours to 30 days ahead, and what is not awarded by then returns to your wallet.',
      title: 'Bounty question',
      remaining: 'Left',
      endsAt: 'Ends',
      ended: 'Ended',
      awardedTo: '{{name}} received ¥{{amount}}',
      answerHint: 'Answer the question for a chance at the bounty',
      award: 'Award',
      awardTitle: "Award {{name}}'s answer",
      awardAmount: 'Award amount',
      payPassword: 'Pay password',
      left: '¥{{remaining}} left of the bounty',
      badAmount: 'Enter an amount above 0 with at most two decimals',
      tooMuch: 'At most ¥{{remaining}} can be awarded',
      awarded: 'Awarded: {{name}} received ¥{{amount}}',
      awardedMark: 'Awarded ¥{{amount}}',
      cancel: 'Cancel',
    },
  },
};

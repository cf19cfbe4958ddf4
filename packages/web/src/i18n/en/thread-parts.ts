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
    redPacket: {
      rule: 'Split',
      equal: 'Equal amounts',
      random: 'Random amounts',
      number: 'Number of packets',
      each: 'Amount of each',
      total: 'Total amount',
      condition: 'How to get one',
      byReply: 'Reply',
      byLikes: 'Collect likes',
      likenum: 'Likes needed',
      password: 'Password text (optional)',
      passwordHint: 'Text a reply must contain',
      payPassword: 'Pay password',
      pay: 'You pay ¥{{amount}} from your wallet',
      left: '{{remain}}/{{number}} left, ¥{{remainMoney}}/¥{{money}}',
      hintReply: 'Reply to this thread to get a red packet',
      hintLikes: 'Get {{count}} likes on your reply to get a red packet',
      withPassword: '(your reply must contain "{{password}}")',
      mine: 'You got ¥{{amount}}',
      done: 'All packets have been taken',
      expired: 'Expired: the rest went back to the author',
    },
    goods: {
      link: 'Product link',
      name: 'Product name',
      price: 'Price',
      picture: 'Picture address',
      open: 'View the product',
    },
  },
};

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
    vote: {
      title: 'Vote title',
      options: 'Options',
      option: 'Option {{n}}',
      addOption: 'Add an option',
      removeOption: 'Remove option {{n}}',
      choiceType: 'Choice',
      single: 'Single choice',
      multiple: 'Multiple choice',
      endsAt: 'End time',
      limits: '{{min}} to {{max}} options, each at most {{chars}} characters',
      ends: 'Ends {{time}}',
      ended: 'Ended',
      voters_one: '{{count}} voter',
      voters_other: '{{count}} voters',
      votes_one: '{{count}} vote',
      votes_other: '{{count}} votes',
      submit: 'Vote',
      voted: 'Voted',
      mine: ' (my choice)',
      hidden: 'Results show once you have voted or the vote has ended',
      signIn: 'Sign in to vote',
    },
  },
};

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
    files: {
      upload: 'Upload files',
      price: 'Price of the files (optional, sold apart)',
      title: 'Files ({{count}})',
      download: 'Download',
      locked: 'The files are sold apart: ¥{{amount}}',
      buy: 'Buy the files for ¥{{amount}}',
      loginToBuy: 'Log in to buy the files',
      noDownload: 'You may not download files',
      hidden: 'You may not see the files',
    },
    media: {
      upload: { audio: 'Upload audio', video: 'Upload a video' },
      formats: 'Accepted formats: {{formats}}',
      noVideo: 'You may not view videos here, or the thread must be bought first',
      noAudio: 'Buy the thread to listen',
    },
    images: {
      upload: 'Upload images',
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

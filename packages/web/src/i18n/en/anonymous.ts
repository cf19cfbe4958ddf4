import type { Catalogue } from '../catalogue';
import type { anonymous as zh } from '../zh/anonymous';

/** English messages: anonymous threads (the same keys as zh/anonymous.ts). */
export const anonymous: Catalogue<typeof zh> = {
  anonymous: {
    user: 'Anonymous',
    mark: 'Anonymous',
    markTitle: 'Posted anonymously: others see the author as “Anonymous”',
    checkbox: 'Post anonymously',
    hint: 'Others will not see that you wrote it; your replies under it still show your name.',
  },
};

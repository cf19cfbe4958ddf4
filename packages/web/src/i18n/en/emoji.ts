import type { Catalogue } from '../catalogue';
import type { emoji as zh } from '../zh/emoji';

/** English messages: the emoji picker (the same keys as zh/emoji.ts). */
export const emoji: Catalogue<typeof zh> = {
  emoji: {
    button: 'Emoji',
    panel: 'Choose an emoji',
    search: 'Search emoji',
    noResults: 'No emoji found',
    loading: 'Loading emoji…',
    loadFailed: 'The emoji could not be loaded',
    close: 'Close',
    categories: {
      recent: 'Recently used',
      site: 'This site',
      'smileys-emotion': 'Smileys & emotion',
      'people-body': 'People & body',
      'animals-nature': 'Animals & nature',
      'food-drink': 'Food & drink',
      'travel-places': 'Travel & places',
      activities: 'Activities',
      objects: 'Objects',
      symbols: 'Symbols',
      flags: 'Flags',
    },
  },
};

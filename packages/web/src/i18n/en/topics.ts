import type { Catalogue } from '../catalogue';
import type { topics as zh } from '../zh/topics';

/** English messages: topics (`#name#`). */
export const topics: Catalogue<typeof zh> = {
  topics: {
    title: 'Topics',
    hot: 'Hot topics',
    all: 'All topics',
    more: 'More topics',
    none: 'No topics yet',
    searchLabel: 'Search topics',
    searchPlaceholder: 'Topic name',
    search: 'Search',
    noMatch: 'No topic found',
    threadCount_one: '{{count}} thread',
    threadCount_other: '{{count}} threads',
    viewCount_one: '{{count}} view',
    viewCount_other: '{{count}} views',
    threads: 'Threads',
    empty: 'No thread under this topic that you can see yet',
    notFound: 'Topic not found',
    suggestions: 'Topic suggestions',
    newTopic: 'New topic',
    hint: 'Type #topic# to join a topic',
  },
};

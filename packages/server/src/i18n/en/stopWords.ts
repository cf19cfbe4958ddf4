import type { Texts } from '../texts.js';
import type { stopWords as zh } from '../zh/stopWords.js';

/** The server's English messages: stopWords (the keys of zh/stopWords.ts). */
export const stopWords = {
  line: 'Line {{value}}: {{parsedEn}}',
  noWordGiven: 'No word given',
  noSuchStopWord: 'No such stop word',
} as const satisfies Texts<typeof zh>;

import { z } from 'zod';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '../constants.js';
import { STOP_WORD_BATCH_MAX, type StopWordAction } from '../stop-words.js';
import { labeled } from './field-labels.js';
import { idList } from './groups.js';
import { PAGE_MAX } from './threads.js';

/** GET /api/stop-words.v2: `filter` is a part of the word (any case). */
export const stopWordsQuery = z.object({
  page: z.coerce.number().int().min(1).max(PAGE_MAX).default(1),
  perPage: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
  filter: labeled(z.string().trim().max(100), { zh: '搜索词', en: 'Search words' }).optional(),
});
export type StopWordsQuery = z.infer<typeof stopWordsQuery>;

/** POST /api/stop-words/batch.v2: at most 10,000 lines; see packages/shared/src/stop-words.ts for the formats. */
export const stopWordsBatchBody = z.object({
  data: z.object({
    /** The resource type name of the family's JSON:API days; only "stop-words". */
    type: z.literal('stop-words'),
    words: labeled(
      z
        .array(labeled(z.string().max(1000), { zh: '敏感词', en: 'Stop word' }))
        .min(1)
        .max(STOP_WORD_BATCH_MAX),
      { zh: '敏感词列表', en: 'The word list' },
    ),
    /** true: words that exist take the new actions (updated); false: they are left as they are (skipped). */
    overwrite: labeled(z.boolean(), { zh: '覆盖已有的词', en: 'Overwrite' }).default(false),
  }),
});
export type StopWordsBatchBody = z.infer<typeof stopWordsBatchBody>;

/** DELETE /api/stop-words.v2: `id` ("3" or "3,4") in the query string or the JSON body. */
const stopWordIds = labeled(idList(), { zh: '敏感词编号', en: 'Stop word IDs' });
export const stopWordsDeleteQuery = z.object({ id: stopWordIds.optional() });
export const stopWordsDeleteBody = z.object({ id: stopWordIds }).nullish();

export interface StopWordItem {
  id: number;
  find: string;
  replacement: string;
  ugc: StopWordAction;
  username: StopWordAction;
  signature: StopWordAction;
  dialog: StopWordAction;
  nickname: StopWordAction;
  createdAt: string;
  updatedAt: string;
}

export interface StopWordsBatchResult {
  created: number;
  updated: number;
  skipped: number;
}

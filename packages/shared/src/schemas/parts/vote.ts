import { z } from 'zod';
import { labeled } from '../field-labels.js';
import { bodyId } from '../categories.js';
import { problem } from '../../validation-messages.js';
import { partLine } from './common.js';
import { VOTE_OPTION_MAX, VOTE_OPTIONS_MAX, VOTE_OPTIONS_MIN, VOTE_TITLE_MAX } from '../../thread-part-limits.js';

/** The family's choice types. */
export const VoteChoice = { SINGLE: 1, MULTIPLE: 2 } as const;
export type VoteChoiceType = (typeof VoteChoice)[keyof typeof VoteChoice];

/** An ISO-8601 time with its zone ("2026-12-01T10:00:00+08:00", "…Z"); stored and answered in UTC. */
const zonedTime = z
  .string()
  .trim()
  .refine(
    (s) =>
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(s) && !Number.isNaN(Date.parse(s)),
    problem({
      kind: 'sentence',
      zh: '结束时间需要是带时区的 ISO-8601 时间，如 2026-12-01T10:00:00+08:00',
      en: 'The end time must be an ISO-8601 time with its zone, like 2026-12-01T10:00:00+08:00',
    }),
  );

/** One option: `id` when it is an option the vote already holds (thread.update), none for a new one. */
export const voteOptionInput = z.object({
  id: labeled(bodyId, { zh: '投票选项编号', en: 'Option id' }).optional(),
  content: labeled(partLine(VOTE_OPTION_MAX), { zh: '投票选项', en: 'Vote option' }),
});

/**
 * A vote (part 109, thread.insertVote), in the family's shape: a title, single (1) or multiple (2) choice, an end
 * time and 2 to 20 distinct options. Whether the end time lies ahead (at most a year) is checked by the server when
 * the vote is created or its end time changed, so that editing a thread whose vote has ended still works.
 * `voteId` (the family's clients send it on update) is accepted and not needed: a thread holds one vote.
 */
export const votePartBody = z.object({
  voteId: bodyId.optional(),
  voteTitle: labeled(partLine(VOTE_TITLE_MAX), { zh: '投票标题', en: 'Vote title' }),
  choiceType: labeled(z.union([z.literal(1), z.literal(2)]), { zh: '选择类型', en: 'Choice type' }),
  expiredAt: labeled(zonedTime, { zh: '结束时间', en: 'End time' }),
  subitems: labeled(
    z
      .array(voteOptionInput)
      .min(VOTE_OPTIONS_MIN)
      .max(VOTE_OPTIONS_MAX)
      .refine(
        (items) => new Set(items.map((i) => i.content)).size === items.length,
        problem({ kind: 'sentence', zh: '投票选项不能重复', en: 'The vote options must differ from each other' }),
      ),
    { zh: '投票选项', en: 'Vote options' },
  ),
});
export type VotePartBody = z.infer<typeof votePartBody>;

/**
 * POST /api/v3/vote.thread: a member's ballot. The family's clients send `{ threadId, vote: { id, subitemIds } }`;
 * `{ threadId, voteId, subitemIds }` is taken too and means the same.
 */
export const voteThreadBody = z.preprocess(
  (v) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
    const flat = v as { threadId?: unknown; voteId?: unknown; subitemIds?: unknown; vote?: unknown };
    if (flat.vote !== undefined || flat.voteId === undefined) return v;
    return { threadId: flat.threadId, vote: { id: flat.voteId, subitemIds: flat.subitemIds } };
  },
  z.object({
    threadId: labeled(bodyId, { zh: '主题编号', en: 'Thread id' }),
    vote: labeled(
      z.object({
        id: labeled(bodyId, { zh: '投票编号', en: 'Vote id' }),
        subitemIds: labeled(
          z
            .array(bodyId)
            .min(1)
            .max(VOTE_OPTIONS_MAX)
            .refine((ids) => new Set(ids).size === ids.length, problem({ kind: 'distinct' })),
          { zh: '所选选项', en: 'Chosen options' },
        ),
      }),
      { zh: '投票', en: 'Vote' },
    ),
  }),
);
export type VoteThreadBody = z.infer<typeof voteThreadBody>;

/** One option as a viewer sees it; counts and rates are null while the viewer may not see results (showResults). */
export interface VoteOptionView {
  id: number;
  content: string;
  voteCount: number | null;
  /** This viewer chose it. */
  isVoted: boolean;
  /** Its share of all the votes cast, "33.33%" (the family's form), null while results are hidden. */
  voteRate: string | null;
}

/** Part 109 as thread.detail answers it: the family's select(), a list holding the thread's vote. */
export interface VotePart {
  voteId: number;
  voteTitle: string;
  choiceType: VoteChoiceType;
  /** ISO-8601 UTC. */
  expiredAt: string;
  isExpired: boolean;
  /** Whether this viewer has voted. */
  isVoted: boolean;
  /** How many members voted (always shown). */
  voteUsers: number;
  /**
   * Whether counts and rates are shown: once the viewer voted, once the vote ended, and always to the thread's
   * author and administrators. Until then the options come without them (null), so seeing them cannot sway a vote.
   */
  showResults: boolean;
  /** Whether this viewer may vote now (signed in, not voted yet, not ended). */
  canVote: boolean;
  subitems: VoteOptionView[];
}

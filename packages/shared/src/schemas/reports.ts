import { z } from 'zod';
import { bodyId, queryId } from './categories.js';
import { charsBetween, CONTROL_CHARS, noControlCharsInLines } from './common.js';
import { labeled } from './field-labels.js';
import { idListString } from './groups.js';
import { pageQuery } from './threads.js';

/** What a report is about (the family's numbers): 0 a user, 1 a thread, 2 a reply or comment. */
export const ReportType = { USER: 0, THREAD: 1, POST: 2 } as const;
export type ReportTypeValue = (typeof ReportType)[keyof typeof ReportType];

/** A report's state: 0 open, 1 handled, 2 ignored. A decided report is never decided again. */
export const ReportStatus = { OPEN: 0, HANDLED: 1, IGNORED: 2 } as const;

export const REPORT_REASON_MAX = 200;
export const REPORT_REMARK_MAX = 200;

/** The reasons the report dialog offers; the member may also write their own. */
export const REPORT_REASONS = ['spam', 'abuse', 'porn', 'illegal', 'other'] as const;

const reasonText = labeled(
  z.string().trim().superRefine(charsBetween(1, REPORT_REASON_MAX)).refine(noControlCharsInLines, CONTROL_CHARS),
  { zh: '举报理由', en: 'Reason' },
);

/**
 * POST /api/v3/reports: type 0 needs userId, 1 threadId, 2 postId (threadId may come along, as the family's client
 * sent it, and must then be the reply's thread).
 */
export const reportCreateBody = z.object({
  type: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  threadId: bodyId.optional(),
  postId: bodyId.optional(),
  userId: bodyId.optional(),
  reason: reasonText,
});
export type ReportCreateBody = z.infer<typeof reportCreateBody>;

/** GET /api/backAdmin/reports: newest first; filter[status] (default 0, open) and filter[type]. */
export const reportListQuery = z.object({
  ...pageQuery,
  filter: z
    .object({
      status: z.enum(['0', '1', '2']).default('0').transform(Number),
      type: z.enum(['0', '1', '2']).transform(Number).optional(),
    })
    .default({ status: 0 }),
});
export type ReportListQuery = z.infer<typeof reportListQuery>;

/** POST /api/backAdmin/reports/batch: handle (1) or ignore (2) one or many open reports. */
export const reportBatchBody = z.object({
  ids: z.union([z.array(bodyId).min(1).max(100), idListString]),
  status: z.union([z.literal(1), z.literal(2)]),
  remark: labeled(
    z.string().trim().superRefine(charsBetween(0, REPORT_REMARK_MAX)).refine(noControlCharsInLines, CONTROL_CHARS),
    { zh: '处理备注', en: 'Remark' },
  ).optional(),
});
export type ReportBatchBody = z.infer<typeof reportBatchBody>;

export const reportIdQuery = z.object({ id: queryId });

export interface ReportPerson {
  userId: number;
  username: string;
  nickname: string;
  avatar: string;
}

/** One report as the back office lists it, with what it is about. */
export interface ReportItem {
  id: number;
  type: ReportTypeValue;
  status: number;
  reason: string;
  remark: string;
  reporter: ReportPerson | null;
  /** The reported user (type 0), or the author of the thread or reply. */
  target: {
    userId: number | null;
    username: string;
    nickname: string;
    threadId: number | null;
    postId: number | null;
    /** The thread's title (types 1 and 2). */
    title: string;
    /** The start of the reply's text (type 2) or of the thread's first post (type 1). */
    excerpt: string;
    /** Whether the thread or reply is deleted now. */
    deleted: boolean;
  };
  handler: ReportPerson | null;
  handledAt: string | null;
  createdAt: string;
}

export interface ReportBatchResult {
  /** The reports this call decided (ids that were already decided, or missing, are left out). */
  updated: number[];
}

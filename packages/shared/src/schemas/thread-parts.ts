import { z } from 'zod';
import { queryId } from './categories.js';
import { labeled } from './field-labels.js';
import { problem } from '../validation-messages.js';
import { goodsPartBody } from './parts/goods.js';
import { redPacketPartBody } from './parts/red-packet.js';
import { votePartBody } from './parts/vote.js';
import { bountyPartBody } from './parts/bounty.js';
import { filesPartBody } from './parts/files.js';
import { audioPartBody, videoPartBody } from './parts/media.js';
import { imagesPartBody } from './parts/images.js';
import type { ThreadPartType } from '../thread-part-limits.js';

/*
 * A thread's parts, in the family's shape (Discuz! Q's "thread_tom"): beside its Markdown text a thread may hold
 * parts, each of a type numbered as the family numbers them. A request carries them in `content.indexes`, keyed by
 * the type: `{ "104": { tomId: "104", operation: "create", body: {…} } }`; thread.detail answers them the same way
 * with `operation: "select"` and the body as the viewer may see it. A thread holds at most one part of each type.
 */

/**
 * Each part type's body schema: the one source for the server's checks and the clients' types. A part type is
 * accepted only once its schema is here (and its server handler is registered).
 */
export const THREAD_PART_BODIES = {
  104: goodsPartBody,
  106: redPacketPartBody,
  109: votePartBody,
  107: bountyPartBody,
  108: filesPartBody,
  102: audioPartBody,
  103: videoPartBody,
  101: imagesPartBody,
} as const satisfies Partial<Record<ThreadPartType, z.ZodType>>;
export type SupportedThreadPartType = keyof typeof THREAD_PART_BODIES;
export const SUPPORTED_THREAD_PARTS = Object.keys(THREAD_PART_BODIES).map(Number) as SupportedThreadPartType[];

/** What to do with a part: create or update it (the server decides by what the thread holds), or delete it. */
export const threadPartOperation = z.enum(['create', 'update', 'delete']);
export type ThreadPartOperation = z.infer<typeof threadPartOperation>;

const PART_LABEL = { zh: '帖子组件', en: 'Thread part' };
const unknownPart = problem({
  kind: 'sentence',
  zh: '不支持的帖子组件类型',
  en: 'This kind of thread part is not supported',
});

function partInput<T extends SupportedThreadPartType>(type: T) {
  return z
    .object({
      tomId: z.literal(String(type)),
      operation: threadPartOperation.optional(),
      body: THREAD_PART_BODIES[type].optional(),
    })
    .superRefine((part, ctx) => {
      if (part.operation !== 'delete' && part.body === undefined) {
        ctx.addIssue({ code: 'custom', path: ['body'], ...problem({ kind: 'required' }) });
      }
    });
}

const partInputs = SUPPORTED_THREAD_PARTS.map((type) => partInput(type));
type PartSchema = ReturnType<typeof partInput>;

/** One part of `content.indexes` in a request; `tomId` may come as a number, as the family's clients send it. */
export const threadPartInput = labeled(
  z.preprocess(
    (v) => {
      if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
      const tomId = (v as { tomId?: unknown }).tomId;
      return typeof tomId === 'number' ? { ...v, tomId: String(tomId) } : v;
    },
    z
      .object({ tomId: z.string() })
      .passthrough()
      .superRefine((part, ctx) => {
        if (!SUPPORTED_THREAD_PARTS.map(String).includes(part.tomId)) {
          ctx.addIssue({ code: 'custom', path: ['tomId'], ...unknownPart });
        }
      })
      .pipe(z.discriminatedUnion('tomId', partInputs as unknown as [PartSchema, ...PartSchema[]])),
  ),
  PART_LABEL,
) as unknown as z.ZodType<ThreadPartInput>;

/** One part in a request, typed by its type. */
export type ThreadPartInput = {
  [T in SupportedThreadPartType]: {
    tomId: `${T}`;
    operation?: ThreadPartOperation | undefined;
    body?: z.output<(typeof THREAD_PART_BODIES)[T]> | undefined;
  };
}[SupportedThreadPartType];

/** `content.indexes` of thread.create and thread.update: keyed by the part's type; the key and tomId must agree. */
export const contentIndexes = labeled(
  z.record(z.string().max(20), threadPartInput).superRefine((indexes, ctx) => {
    for (const [key, part] of Object.entries(indexes)) {
      if (part.tomId !== key) {
        ctx.addIssue({
          code: 'custom',
          path: [key, 'tomId'],
          ...problem({
            kind: 'sentence',
            zh: '帖子组件的键需要与其类型（tomId）一致',
            en: "A thread part's key must be its type (tomId)",
          }),
        });
      }
    }
  }),
  PART_LABEL,
);
export type ContentIndexes = Record<string, ThreadPartInput>;

/** One part as thread.detail answers it (the family's shape): the body as this viewer may see it. */
export interface ThreadPartView<B = unknown> {
  tomId: string;
  operation: 'select';
  threadId: number;
  body: B;
}

/** GET /api/v3/tom.permissions: without categoryId, whether the viewer may use each anywhere; with it, there. */
export const tomPermissionsQuery = z.object({
  categoryId: labeled(queryId, { zh: '分类', en: 'Category' }).optional(),
});

/**
 * tom.permissions' answer, the family's shape: keyed by the permission's name without its `thread.` prefix
 * (createThread, insertImage...), each whether the viewer holds it and its name; `tomId` (ours) is the part type it
 * lets a thread carry, when it is one.
 */
export type TomPermissions = Record<string, { enable: boolean; desc: string; tomId?: string }>;

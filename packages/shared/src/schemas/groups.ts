import { z } from 'zod';
import { queryInt } from './common.js';

export const permissionUpdateBody = z.object({
  groupId: z.number().int().positive(),
  permissions: z.array(z.string().min(1).max(150)).max(5000),
});
export type PermissionUpdateBody = z.infer<typeof permissionUpdateBody>;

export const groupResourceQuery = z.object({
  id: queryInt.positive(),
  include: z.string().max(100).optional(),
});

export const groupSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  type: z.string(),
  color: z.string(),
  icon: z.string(),
  default: z.boolean(),
  isDisplay: z.boolean(),
  isPaid: z.boolean(),
  fee: z.number(),
  days: z.number().int(),
  scale: z.number(),
  isSubordinate: z.boolean(),
  isCommission: z.boolean(),
  permissions: z.array(z.string()).optional(),
});
export type GroupData = z.infer<typeof groupSchema>;

/** No control characters (NUL among them, which neither database stores). */
const noControl = (s: string) => !/\p{Cc}/u.test(s);
const line = (max: number, min = 0) =>
  z.string().trim().min(min).max(max).refine(noControl, { message: 'control characters are not allowed' });

export const GROUP_NAME_MAX = 30;
/** A group's fee, in yuan (stored as cents). */
export const GROUP_FEE_MAX = 1_000_000;

const groupFields = {
  name: line(GROUP_NAME_MAX, 1),
  type: line(64),
  color: line(32),
  icon: line(500),
  isPaid: z.union([z.boolean(), z.literal(0), z.literal(1)]).transform((v) => v === true || v === 1),
  fee: z
    .number()
    .min(0)
    .max(GROUP_FEE_MAX)
    .refine((n) => Number.isInteger(Math.round(n * 100 * 1e6) / 1e6), { message: 'fee has at most 2 decimals' }),
  days: z.number().int().min(0).max(36_500),
  /** The family's commission ratio, 0 to 10 (whole numbers). */
  scale: z.number().int().min(0).max(10),
};

/** POST /api/groups.create.v2: a new group, holding no permissions until permission.v2 gives it some. */
export const groupCreateBody = z.object({
  name: groupFields.name,
  type: groupFields.type.optional(),
  color: groupFields.color.optional(),
  icon: groupFields.icon.optional(),
  isPaid: groupFields.isPaid.optional(),
  fee: groupFields.fee.optional(),
  days: groupFields.days.optional(),
});
export type GroupCreateBody = z.infer<typeof groupCreateBody>;

/** POST /api/groups/batchupdate.v2: every entry applies, or none. */
export const groupBatchUpdateBody = z.object({
  data: z
    .array(
      z.object({
        id: z.number().int().min(1).max(2_147_483_647),
        name: groupFields.name,
        type: groupFields.type,
        scale: groupFields.scale,
        isSubordinate: z.boolean().optional(),
        isCommission: z.boolean().optional(),
        color: groupFields.color.optional(),
        icon: groupFields.icon.optional(),
        isPaid: groupFields.isPaid.optional(),
        fee: groupFields.fee.optional(),
        days: groupFields.days.optional(),
      }),
    )
    .min(1)
    .max(100),
});
export type GroupBatchUpdateBody = z.infer<typeof groupBatchUpdateBody>;

/** Ids as the family sent them: "3,4" (a single number is accepted too). */
export const idListString = z
  .union([z.string().max(2000), z.number().int()])
  .transform((v) => String(v))
  .pipe(
    z
      .string()
      .regex(/^\s*\d{1,10}\s*(,\s*\d{1,10}\s*)*$/, { message: 'expected ids separated by commas, e.g. "3,4"' })
      .transform((s) => [...new Set(s.split(',').map((p) => Number(p.trim())))])
      .pipe(z.array(z.number().int().min(1).max(2_147_483_647)).min(1).max(500)),
  );

/** POST /api/groups.batchdelete.v2 */
export const groupBatchDeleteBody = z.object({ ids: idListString });

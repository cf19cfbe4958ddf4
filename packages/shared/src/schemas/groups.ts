import { z } from 'zod';
import { CONTROL_CHARS, noControlChars, queryInt } from './common.js';
import { labeled } from './field-labels.js';
import { problem } from '../validation-messages.js';

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

const line = (max: number, min = 0) => z.string().trim().min(min).max(max).refine(noControlChars, CONTROL_CHARS);

export const GROUP_NAME_MAX = 30;
/** A group's fee, in yuan (stored as cents). */
export const GROUP_FEE_MAX = 1_000_000;

const groupFields = {
  name: labeled(line(GROUP_NAME_MAX, 1), { zh: '用户组名称', en: 'Group name' }),
  type: labeled(line(64), { zh: '用户组类型', en: 'Group type' }),
  color: line(32),
  icon: line(500),
  isPaid: labeled(
    z.union([z.boolean(), z.literal(0), z.literal(1)]).transform((v) => v === true || v === 1),
    { zh: '付费', en: 'Paid' },
  ),
  fee: labeled(
    z
      .number()
      .min(0)
      .max(GROUP_FEE_MAX)
      .refine((n) => Number.isInteger(Math.round(n * 100 * 1e6) / 1e6), problem({ kind: 'decimals', digits: 2 })),
    { zh: '费用', en: 'Fee' },
  ),
  days: labeled(z.number().int().min(0).max(36_500), { zh: '有效天数', en: 'Days of validity' }),
  /** The family's commission ratio, 0 to 10 (whole numbers). */
  scale: labeled(z.number().int().min(0).max(10), { zh: '分成比例', en: 'Commission ratio' }),
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
  data: labeled(
    z
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
    { zh: '用户组', en: 'The group list' },
  ),
});
export type GroupBatchUpdateBody = z.infer<typeof groupBatchUpdateBody>;

const ID_LIST = /^\s*\d{1,10}\s*(,\s*\d{1,10}\s*)*$/;

/** Ids as the family sent them: "3,4" (a single number is accepted too). A new schema each, to be labeled. */
export const idList = () =>
  z
    .union([z.string().max(2000), z.number().int()])
    .transform((v) => String(v))
    .pipe(
      z
        .string()
        .refine((s) => ID_LIST.test(s), problem({ kind: 'idList' }))
        .transform((s) => [...new Set(s.split(',').map((p) => Number(p.trim())))])
        .pipe(z.array(z.number().int().min(1).max(2_147_483_647)).min(1).max(500)),
    );
export const idListString = idList();

/** POST /api/groups.batchdelete.v2 */
export const groupBatchDeleteBody = z.object({ ids: labeled(idList(), { zh: '用户组编号', en: 'Group IDs' }) });

/**
 * GET /apiv3/upgrade.group, the family's ListPayGroupsController: the paid groups in the family's fields, and what
 * the member's upgrade page shows on each one's button.
 */
export interface UpgradeGroupItem {
  groupId: number;
  name: string;
  color: string;
  icon: string;
  /** The price ("12.50"). */
  fee: string;
  /** The price as a number (12.5). */
  amount: number;
  /** Its rank among the paid groups, cheapest first (from 1): the family's `level`. */
  level: number;
  /** How many days a purchase lasts (0: for ever). */
  days: number;
  description: string;
  notice: string;
  /** 1: the member holds it now; 2: an upgrade (ranked above what they hold); 0: ranked below it. */
  button: 0 | 1 | 2;
}

/**
 * GET /api/v3/groups.paid.list: a paid group a member may buy (order.create type 4 with groupId), and whether the
 * viewer holds it now and until when.
 */
export interface PaidGroupItem {
  id: number;
  name: string;
  /** The price ("12.50"). */
  fee: string;
  /** How many days a purchase lasts (0: for ever). */
  days: number;
  /** Whether the viewer is in the group now (a membership that has not expired). */
  held: boolean;
  /** Until when the viewer's membership lasts (ISO time), null when held for ever or not held. */
  expiresAt: string | null;
}

/**
 * GET /api/v3/group.permission.list, the family's shape (its spelling `myPermissons` kept): the viewer's group card
 * and what the group may do, `general` site-wide and every other key per category id.
 */
export interface GroupPermissionList {
  myGroup: { nickname: string; avatar: string; groupName: string; createdAt: string };
  myPermissons: { general: Record<string, boolean> } & Record<string, Record<string, boolean>>;
}

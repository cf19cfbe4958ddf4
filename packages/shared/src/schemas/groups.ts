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

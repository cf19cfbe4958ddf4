import {
  Code,
  GroupId,
  groupResourceQuery,
  parsePermission,
  formatPermission,
  permissionUpdateBody,
  type GroupData,
} from '@luntan/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Group } from '../../db/schema.js';
import { AppError, invalid, notFound } from '../../core/errors.js';
import { ok } from '../../core/envelope.js';
import { adminOnly } from '../auth/guards.js';
import { findGroup, listGroups, permissionsOfGroups, replaceGroupPermissions } from './groups.repository.js';

export function presentGroup(g: Group, permissions?: string[]): GroupData {
  return {
    id: g.id,
    name: g.name,
    type: g.type,
    color: g.color,
    icon: g.icon,
    default: g.isDefault === 1,
    isDisplay: g.isDisplay === 1,
    isPaid: g.isPaid === 1,
    fee: g.feeCents / 100,
    days: g.days,
    scale: g.scale,
    isSubordinate: g.isSubordinate === 1,
    isCommission: g.isCommission === 1,
    ...(permissions ? { permissions } : {}),
  };
}

const groupNotFound = () => notFound({ zh: '用户组不存在', en: 'user group not found' });

export async function groupsRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;

  api.get(
    '/groups.list.v2',
    { onRequest: adminOnly, schema: { tags: ['groups', 'admin'], summary: 'List user groups' } },
    async (request) =>
      ok(
        request,
        (await listGroups(db)).map((g) => presentGroup(g)),
      ),
  );

  api.get(
    '/group.resource.v2',
    {
      onRequest: adminOnly,
      schema: {
        tags: ['groups', 'admin'],
        summary: 'Read a user group (include=permission adds its permission keys)',
        querystring: groupResourceQuery,
      },
    },
    async (request) => {
      const group = await findGroup(db, request.query.id);
      if (!group) throw groupNotFound();
      const include = (request.query.include ?? '').split(',').map((s) => s.trim());
      const permissions = include.includes('permission')
        ? (await permissionsOfGroups(db, [group.id])).sort()
        : undefined;
      return ok(request, presentGroup(group, permissions));
    },
  );

  api.post(
    '/permission.v2',
    {
      onRequest: adminOnly,
      schema: {
        tags: ['groups', 'admin'],
        summary: "Replace a group's permission list (keys, or category<ID>.<key> for one category)",
        body: permissionUpdateBody,
      },
    },
    async (request) => {
      const { groupId, permissions } = request.body;
      const canonical = new Set<string>();
      for (const [i, raw] of permissions.entries()) {
        const parsed = parsePermission(raw);
        if (!parsed) throw invalid(`permissions.${i}: unknown permission "${raw}"`);
        canonical.add(formatPermission(parsed));
      }
      const group = await findGroup(db, groupId);
      if (!group) throw groupNotFound();
      if (group.id === GroupId.ADMINISTRATOR) {
        throw new AppError(Code.INVALID_PARAMETER, {
          zh: 'groupId: 管理员组拥有全部权限，无需设置',
          en: 'groupId: the administrator group holds every permission',
        });
      }
      const list = [...canonical].sort();
      await db.transaction().execute((trx) => replaceGroupPermissions(trx, groupId, list));
      return ok(request, { groupId, permissions: list });
    },
  );
}

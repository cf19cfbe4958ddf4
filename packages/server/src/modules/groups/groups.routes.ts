import {
  GroupId,
  groupBatchDeleteBody,
  groupBatchUpdateBody,
  groupCreateBody,
  groupResourceQuery,
  parsePermission,
  formatPermission,
  permissionUpdateBody,
} from '@luntan/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { invalidField } from '../../core/errors.js';
import { ok } from '../../core/envelope.js';
import { adminOnly, loginRequired } from '../../access/guards.js';
import { permissionsOfGroups } from '../../access/permissions.repository.js';
import { findGroup, listGroups, replaceGroupPermissions } from './groups.repository.js';
import {
  batchDeleteGroups,
  batchUpdateGroups,
  createGroup,
  groupNotFound,
  groupPermissionList,
  paidGroupsFor,
  upgradeGroupsFor,
  presentGroup,
} from './groups.service.js';
import { msg } from '../../i18n/index.js';

export async function groupsRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;

  api.get(
    '/v3/groups.paid.list',
    {
      config: { guestCache: true },
      schema: {
        tags: ['groups'],
        summary: 'The paid groups a member may buy (order.create type 4): fee, days, and whether the viewer holds each',
        description:
          'held: the viewer is in the group now; expiresAt: until when (null: for ever, or not held). A membership ' +
          'that has run out no longer counts; a member left in no group counts as the default group.',
      },
    },
    async (request) => ok(request, await paidGroupsFor(db, request.viewer.user?.id ?? null)),
  );

  api.get(
    '/v3/upgrade.group',
    {
      onRequest: loginRequired,
      schema: {
        tags: ['groups'],
        summary: 'The paid groups for the member’s upgrade page, in the family’s fields (the client calls /apiv3/)',
        description:
          'level: rank among the paid groups, cheapest first. button: 1 held now, 2 an upgrade (ranked above the ' +
          'highest one held), 0 ranked below it. Bought as groups.paid.list’s are: order.create type 4.',
      },
    },
    async (request) => ok(request, await upgradeGroupsFor(db, request.viewer)),
  );

  api.get(
    '/v3/group.permission.list',
    {
      onRequest: loginRequired,
      schema: {
        tags: ['groups'],
        summary: 'Your group and what it may do (the family’s group.permission.list)',
        description:
          '`myGroup`: your nickname, avatar, group name and joining time. `myPermissons` (the family’s spelling): ' +
          '`general`, the site-wide keys; then each category-scoped key (the family’s names, thread.viewThreads for ' +
          'our viewThreads) as `{categoryId: held}`, held site-wide or in that category. Administrators hold all ' +
          'but the restrictions createThreadWithCaptcha and publishNeedBindPhone.',
      },
    },
    async (request) => ok(request, await groupPermissionList(db, request.viewer)),
  );

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
        if (!parsed) {
          throw invalidField(`permissions.${i}`, msg('groups.unknownPermission', { raw }));
        }
        canonical.add(formatPermission(parsed));
      }
      const group = await findGroup(db, groupId);
      if (!group) throw groupNotFound();
      if (group.id === GroupId.ADMINISTRATOR) {
        throw invalidField('groupId', msg('groups.administratorGroupHoldsEvery'));
      }
      const list = [...canonical].sort();
      await db.transaction().execute((trx) => replaceGroupPermissions(trx, groupId, list));
      return ok(request, { groupId, permissions: list });
    },
  );

  api.post(
    '/groups.create.v2',
    {
      onRequest: adminOnly,
      schema: {
        tags: ['groups', 'admin'],
        summary: 'Create a user group (it holds no permission until permission.v2 gives some); -4003 for a taken name',
        body: groupCreateBody,
      },
    },
    async (request) => ok(request, await createGroup(db, request.body)),
  );

  api.post(
    '/groups/batchupdate.v2',
    {
      onRequest: adminOnly,
      schema: {
        tags: ['groups', 'admin'],
        summary: 'Change several user groups at once (all or none): name, type, scale, isSubordinate, isCommission',
        body: groupBatchUpdateBody,
      },
    },
    async (request) => ok(request, await batchUpdateGroups(db, request.body)),
  );

  api.post(
    '/groups.batchdelete.v2',
    {
      onRequest: adminOnly,
      schema: {
        tags: ['groups', 'admin'],
        summary:
          'Delete user groups, ids as "3,4" (all or none); not the administrator (1), guest (7) or default group. ' +
          'Members left in no group join the default group.',
        body: groupBatchDeleteBody,
      },
    },
    async (request) => ok(request, await batchDeleteGroups(db, request.body.ids)),
  );
}

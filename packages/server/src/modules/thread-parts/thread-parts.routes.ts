import {
  PERMISSIONS,
  THREAD_PART_PERMISSIONS,
  tomPermissionsQuery,
  type ThreadPartType,
  type TomPermissions,
} from '@luntan/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '../../core/envelope.js';
import { requestLocale } from '../../core/i18n.js';
import { loginRequired } from '../../access/guards.js';
import { can, canAnywhere } from '../../access/viewer.js';

/** The permissions the family's tom.permissions answers, in its order (Permission::THREAD_PERMISSION). */
const TOM_PERMISSION_KEYS = [
  'createThread',
  'thread.insertImage',
  'thread.insertVideo',
  'thread.insertAudio',
  'thread.insertAttachment',
  'thread.insertGoods',
  'thread.insertPay',
  'thread.insertReward',
  'thread.insertRedPacket',
  'thread.insertPosition',
  'thread.allowAnonymous',
  'thread.insertVote',
] as const;

const TOM_OF_PERMISSION = new Map(
  Object.entries(THREAD_PART_PERMISSIONS).map(([type, key]) => [key, type as `${ThreadPartType}`]),
);

/** What a member may put in a thread: the family's tom.permissions. */
export async function threadPartsRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/v3/tom.permissions',
    {
      onRequest: loginRequired,
      schema: {
        tags: ['threads'],
        summary: 'Which thread parts and options the viewer may use when posting (the family’s tom.permissions)',
        description:
          'Keyed as the family keys it (createThread, insertImage, ... allowAnonymous, insertVote), each ' +
          '`{enable, desc, tomId?}`: `tomId` is the part type (101..109) the permission lets a thread carry. ' +
          'Without categoryId, enable says whether the viewer holds it anywhere; with it, in that category. ' +
          'Administrators hold all.',
        querystring: tomPermissionsQuery,
      },
    },
    async (request) => {
      const { viewer } = request;
      const { categoryId } = request.query;
      const locale = requestLocale(request);
      const answer: TomPermissions = {};
      for (const key of TOM_PERMISSION_KEYS) {
        const label = PERMISSIONS.find((p) => p.key === key)!.label;
        const tomId = TOM_OF_PERMISSION.get(key);
        answer[key.replace(/^thread\./, '')] = {
          enable: categoryId === undefined ? canAnywhere(viewer, key) : can(viewer, key, categoryId),
          desc: label[locale],
          ...(tomId ? { tomId } : {}),
        };
      }
      return ok(request, answer);
    },
  );
}

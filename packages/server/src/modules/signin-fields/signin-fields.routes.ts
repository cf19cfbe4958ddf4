import {
  signinAnswersExamineBody,
  signinFieldCreateBody,
  signinFieldResourceQuery,
  signinFieldUpdateBody,
  userSigninFieldsCreateBody,
  userSigninFieldsQuery,
} from '@luntan/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { forbidden } from '../../core/errors.js';
import { ok } from '../../core/envelope.js';
import { adminOnly, loginRequired } from '../../access/guards.js';
import { requireUser } from '../../access/viewer.js';
import {
  answersOf,
  createField,
  examineAnswers,
  listAllFields,
  publicFields,
  readField,
  submitAnswers,
  updateFieldById,
} from './signin-fields.service.js';

/** The calls a user with fields still owed (status 10) may make, besides logout, siteinfo and forum. */
export const SUPPLEMENTARY_CALLS = [
  '/api/v3/user/signinfields.list',
  '/api/v3/user/signinfields.create',
  '/api/user/signinfields.list.v2',
  '/api/v3/attachments',
];

export async function signinFieldsRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;

  api.get(
    '/admin/signinfields.list.v2',
    {
      onRequest: adminOnly,
      schema: { tags: ['signin-fields', 'admin'], summary: 'Every sign-in field (on and off), by sort then id' },
    },
    async (request) => ok(request, await listAllFields(db)),
  );

  api.post(
    '/admin/signinfields.create.v2',
    {
      onRequest: adminOnly,
      schema: {
        tags: ['signin-fields', 'admin'],
        summary: 'Create a sign-in field',
        description:
          'type 0 single line, 1 multi-line, 2 radio, 3 checkbox, 4 image, 5 attachment; a radio or checkbox needs ' +
          'fieldsExt {"options":[{"value":"..."}]} (JSON text or object); status 1 on (default) or -1 off; required 0/1.',
        body: signinFieldCreateBody,
      },
    },
    async (request) => ok(request, await createField(db, request.body)),
  );

  api.post(
    '/admin/signinfields.update.v2',
    {
      onRequest: adminOnly,
      schema: {
        tags: ['signin-fields', 'admin'],
        summary: 'Change a sign-in field: id and status, plus any field to change',
        body: signinFieldUpdateBody,
      },
    },
    async (request) => ok(request, await updateFieldById(db, request.body)),
  );

  api.get(
    '/admin/signinfields.resource.v2',
    {
      onRequest: adminOnly,
      schema: {
        tags: ['signin-fields', 'admin'],
        summary: 'Read a sign-in field',
        querystring: signinFieldResourceQuery,
      },
    },
    async (request) => ok(request, await readField(db, request.query.id)),
  );

  api.post(
    '/admin/signinfields.examine.v2',
    {
      onRequest: adminOnly,
      schema: {
        tags: ['signin-fields', 'admin'],
        summary: "Approve (3) or reject (2, with a remark) users' answers",
        description:
          'Rejecting the answer to an enabled required field sends its user back to answering (status 10, -3007).',
        body: signinAnswersExamineBody,
      },
    },
    async (request) => ok(request, await examineAnswers(db, request.body)),
  );

  api.get(
    '/v3/user/signinfields.list',
    {
      schema: {
        tags: ['signin-fields'],
        summary: "The enabled sign-in fields in order, for registration; signed in, with the viewer's answers",
      },
    },
    async (request) => ok(request, await publicFields(db, request.viewer.user?.id ?? null)),
  );

  api.post(
    '/v3/user/signinfields.create',
    {
      onRequest: loginRequired,
      schema: {
        tags: ['signin-fields'],
        summary: "Answer sign-in fields (answering again replaces the answer); answers the viewer's status",
        description:
          'data: [{id: fieldId, value}], value being text, one option (radio), a list of options (checkbox) or the ' +
          'address of an uploaded file. A user with status 10 gets status 0 (or 2 when registrations are reviewed) ' +
          'once every enabled required field is answered.',
        body: userSigninFieldsCreateBody,
      },
    },
    async (request) => ok(request, await submitAnswers(db, requireUser(request.viewer).id, request.body.data)),
  );

  api.get(
    '/user/signinfields.list.v2',
    {
      onRequest: loginRequired,
      schema: {
        tags: ['signin-fields'],
        summary: "A user's answers (the user and administrators only)",
        querystring: userSigninFieldsQuery,
      },
    },
    async (request) => {
      const viewer = request.viewer;
      if (!viewer.isAdmin && requireUser(viewer).id !== request.query.userId) throw forbidden();
      return ok(request, await answersOf(db, request.query.userId));
    },
  );
}

import { categoryCreateBody, categoryDeleteBody, categoryUpdateBody, Code } from '@luntan/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { fieldError, invalidField } from '../../core/errors.js';
import { ok } from '../../core/envelope.js';
import { now } from '../../core/time.js';
import { adminOnly, loginRequired } from '../../access/guards.js';
import {
  categoryInUse,
  deleteCategory,
  moveCategoryThreads,
  findCategory,
  insertCategory,
  listCategories,
  updateCategory,
} from './categories.repository.js';
import { categoryNotFound, postableCategories, presentCategories } from './categories.service.js';
import { categoriesOf } from './kept-categories.js';
import { msg } from '../../i18n/index.js';

export async function categoriesRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;

  api.get(
    '/v3/categories',
    {
      config: { guestCache: true },
      schema: {
        tags: ['categories'],
        summary: 'The categories the viewer may see (a tree), with what the viewer may do in each',
      },
    },
    async (request) => ok(request, presentCategories(request.viewer, await categoriesOf(app.ctx))),
  );

  api.get(
    '/v3/categories.thread',
    {
      onRequest: loginRequired,
      schema: {
        tags: ['categories'],
        summary: 'The categories in which the member may post a thread (a tree, as /v3/categories presents it)',
      },
    },
    async (request) => ok(request, postableCategories(request.viewer, await categoriesOf(app.ctx))),
  );

  /** A parent must exist, be top-level (two levels, as the family had) and not be the category itself. */
  async function checkParent(parentId: number | undefined, selfId?: number): Promise<void> {
    if (!parentId) return;
    const parent = await findCategory(db, parentId);
    if (!parent || parent.id === selfId || parent.parentId !== 0) {
      throw invalidField('parentId', msg('categories.parentCategoryDoesNot'));
    }
  }

  api.post(
    '/backAdmin/categories.create',
    {
      onRequest: adminOnly,
      schema: { tags: ['categories', 'admin'], summary: 'Create a category', body: categoryCreateBody },
    },
    async (request) => {
      const b = request.body;
      await checkParent(b.parentId);
      const at = now();
      const id = await insertCategory(db, {
        name: b.name,
        description: b.description ?? '',
        icon: b.icon ?? '',
        sort: b.sort ?? 0,
        parentId: b.parentId ?? 0,
        createdAt: at,
        updatedAt: at,
      });
      return ok(request, { categoryId: id });
    },
  );

  api.post(
    '/backAdmin/categories.update',
    {
      onRequest: adminOnly,
      schema: { tags: ['categories', 'admin'], summary: 'Change a category', body: categoryUpdateBody },
    },
    async (request) => {
      const { id, ...changes } = request.body;
      const category = await findCategory(db, id);
      if (!category) throw categoryNotFound();
      await checkParent(changes.parentId, id);
      if (changes.parentId) {
        const child = (await listCategories(db)).find((c) => c.parentId === id);
        if (child) throw invalidField('parentId', msg('categories.categorySubCategoriesCannot'));
      }
      await updateCategory(db, id, { ...changes, updatedAt: now() });
      return ok(request, { categoryId: id });
    },
  );

  api.post(
    '/backAdmin/categories.delete',
    {
      onRequest: adminOnly,
      schema: {
        tags: ['categories', 'admin'],
        summary: 'Delete a category (-4005 while it holds sub-categories, or threads unless moveThreadsTo is given)',
        body: categoryDeleteBody,
      },
    },
    async (request) => {
      const { id, moveThreadsTo } = request.body;
      await db.transaction().execute(async (trx) => {
        const category = await findCategory(trx, id);
        if (!category) throw categoryNotFound();
        if (moveThreadsTo !== undefined) {
          if (moveThreadsTo === id) {
            throw invalidField('moveThreadsTo', msg('categories.threadsCannotMoveCategory'));
          }
          if (!(await findCategory(trx, moveThreadsTo))) throw categoryNotFound();
          await moveCategoryThreads(trx, id, moveThreadsTo, category.threadCount);
        }
        if (await categoryInUse(trx, id)) {
          throw fieldError(Code.RESOURCE_IN_USE, 'id', msg('categories.categoryStillHoldsThreads'));
        }
        await deleteCategory(trx, id);
      });
      return ok(request, { categoryId: id });
    },
  );
}

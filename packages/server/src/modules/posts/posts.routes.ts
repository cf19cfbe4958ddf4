import {
  postCreateBody,
  postHistoryHideBody,
  postsHistoryQuery,
  postsDetailQuery,
  postsListQuery,
  postsPositionQuery,
  postsReplyQuery,
  postUpdateBody,
} from '@luntan/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ok } from '../../core/envelope.js';
import { assertPublishCaptcha } from '../captcha/index.js';
import { loginRequired } from '../../access/guards.js';
import { createPost, listPosts, listReplyComments, postPosition, replyDetail, updatePost } from './posts.service.js';
import { hidePostVersion, postHistory } from './post-history.service.js';

export async function postsRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;

  api.get(
    '/v3/posts.list',
    {
      config: { guestCache: true },
      schema: {
        tags: ['posts'],
        summary: 'The replies of a thread (oldest first; sort=-createdAt for newest), each with its first comments',
        querystring: postsListQuery,
      },
    },
    async (request) => ok(request, await listPosts(ctx, request.viewer, request.query)),
  );

  api.get(
    '/v3/posts.reply',
    {
      config: { guestCache: true },
      schema: {
        tags: ['posts'],
        summary: 'The comments on one reply, oldest first',
        querystring: postsReplyQuery,
      },
    },
    async (request) => ok(request, await listReplyComments(ctx, request.viewer, request.query)),
  );

  api.get(
    '/v3/posts.detail',
    {
      config: { guestCache: true },
      schema: {
        tags: ['posts'],
        summary: 'One reply (not the first post, not a comment), as posts.list presents it, with its first comments',
        querystring: postsDetailQuery,
      },
    },
    async (request) => ok(request, await replyDetail(ctx, request.viewer, request.query.postId)),
  );

  api.get(
    '/v3/posts.postion',
    {
      config: { guestCache: true },
      schema: {
        tags: ['posts'],
        summary: "Where a reply stands in posts.list's pages (page, location), or a comment among its reply's comments",
        querystring: postsPositionQuery,
      },
    },
    async (request) => ok(request, await postPosition(ctx, request.viewer, request.query.filter)),
  );

  api.post(
    '/v3/posts.create',
    {
      onRequest: loginRequired,
      schema: {
        tags: ['posts'],
        summary: 'Reply to a thread (id), or comment on a reply (replyId) or on a comment (commentPostId)',
        body: postCreateBody,
      },
    },
    async (request) => {
      await assertPublishCaptcha(ctx.db, request.viewer, request.body.captcha);
      return ok(request, await createPost(ctx, request.viewer, request.body, request.ip));
    },
  );

  api.post(
    '/v3/posts.update',
    {
      onRequest: loginRequired,
      schema: {
        tags: ['posts'],
        summary: 'Edit a post (content), like or unlike it (isLiked), hide or restore it (isDeleted)',
        description: "A thread's like is the like of its first post: posts.update {id: thread.postId, isLiked}.",
        body: postUpdateBody,
      },
    },
    async (request) => ok(request, await updatePost(ctx, request.viewer, request.body)),
  );

  api.get(
    '/v3/posts.history',
    {
      schema: {
        tags: ['posts'],
        summary: "A post's edit history, newest version first (a thread's first post: its title too)",
        description:
          'For its author, the moderators of its category (thread.edit) and administrators; -4002 for anyone else. ' +
          'Answers [{version, userId, nickname, avatar, createdAt, title?, content, hidden}]; a version an ' +
          'administrator hid has no title or content for others. Empty for a post never edited.',
        querystring: postsHistoryQuery,
      },
    },
    async (request) => ok(request, await postHistory(ctx, request.viewer, request.query.postId)),
  );

  api.post(
    '/v3/posts.history.hide',
    {
      onRequest: loginRequired,
      schema: {
        tags: ['posts'],
        summary: 'Administrators: hide a version of a post from everyone else (hidden: false shows it again)',
        body: postHistoryHideBody,
      },
    },
    async (request) => {
      await hidePostVersion(ctx, request.viewer, request.body);
      return ok(request, {});
    },
  );
}

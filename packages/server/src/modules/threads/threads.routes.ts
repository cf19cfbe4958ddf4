import {
  Code,
  likedUsersQuery,
  paidUsersQuery,
  ThreadPart,
  threadCreateBody,
  threadDeleteBody,
  threadDetailQuery,
  threadListQuery,
  threadOperateBody,
  threadRecommendsQuery,
  threadShareBody,
  userThreadStickBody,
  threadStickQuery,
  threadUpdateBody,
  viewCountBody,
  viewCountQuery,
} from '@luntan/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelope, ok } from '../../core/envelope.js';
import { localize } from '../../core/i18n.js';
import { assertPublishCaptcha } from '../captcha/index.js';
import { requestLocale } from '../../core/i18n.js';
import { loginRequired } from '../../access/guards.js';
import { msg } from '../../i18n/index.js';
import { paidUsers } from './paid-threads.service.js';
import {
  countShare,
  countView,
  createThread,
  deleteThread,
  likedUsers,
  operateThread,
  threadDetail,
  updateThread,
} from './threads.service.js';
import { listThreadsFor, recommendedThreads, stickyThreads } from './thread-list.service.js';
import { stickOwnThread } from './thread-pins.service.js';

/** The family's thread.typelist, in its order (its part types but goods; its plugin types are not ours). */
const THREAD_TYPES = [
  [ThreadPart.VIDEO, 'threads.typeVideo'],
  [ThreadPart.IMAGE, 'threads.typeImage'],
  [ThreadPart.AUDIO, 'threads.typeAudio'],
  [ThreadPart.RED_PACKET, 'threads.typeRedPacket'],
  [ThreadPart.VOTE, 'threads.typeVote'],
  [ThreadPart.REWARD, 'threads.typeReward'],
  [ThreadPart.FILES, 'threads.typeFiles'],
] as const;

export async function threadsRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;

  api.get(
    '/v3/thread.list',
    {
      config: { guestCache: true },
      schema: {
        tags: ['threads'],
        summary: 'List threads',
        description:
          'Each thread tells the viewer its price ("0.00": free), freeWords (the free fraction of the body, 0 to ' +
          '1), paid (bought) and canViewFull; when canViewFull is false the summary holds only the free part. ' +
          'filter[categoryids][] (sub-categories included), filter[sort] 1 created / 2 last reply / 3 hot (views in ' +
          'the last 7 days) / 4 updated, filter[essence] 0|1, filter[search] (every space-separated word, anywhere ' +
          'in the title or the first post, or all in one reply or comment the viewer may read; title matches first, ' +
          'then newest; each item then carries matchedPost: null, or the reply through which it was found, with ' +
          'its excerpt and position among the replies), filter[complex] 1 my drafts / 2 liked / ' +
          '3 favourites / 5 threads of filter[toUserId]. Sticky threads come first unless searching or filtering by ' +
          'complex/toUserId. Threads of authors the viewer blocked are left out.',
        querystring: threadListQuery,
      },
    },
    async (request) => ok(request, await listThreadsFor(ctx, request.viewer, request.query)),
  );

  api.get(
    '/v3/thread.stick',
    {
      config: { guestCache: true },
      schema: {
        tags: ['threads'],
        summary: 'The sticky threads of the home page, or of one category',
        querystring: threadStickQuery,
      },
    },
    async (request) => ok(request, await stickyThreads(ctx, request.viewer, request.query.categoryId)),
  );

  api.get(
    '/v3/thread.detail',
    {
      config: { guestCache: true },
      schema: {
        tags: ['threads'],
        summary: 'A thread with its first post (Markdown source and rendered HTML)',
        description:
          'A paid thread (price above "0.00") is read whole by its author, administrators, holders of ' +
          'thread.freeViewPosts in its category, its editors and its buyers (paid: true); the others ' +
          '(canViewFull: false) get the free part only: the first round(freeWords × length) characters of the ' +
          'plain text (freeWords is a fraction, 0 to 1; thread.create and thread.update also take a whole number ' +
          'above 1 as a legacy character count), as escaped paragraphs ' +
          'in content.html and plain text in content.text, without mentions. paidCount, rewardedCount and ' +
          'rewardedAmount tell what the thread sold and received.',
        querystring: threadDetailQuery,
      },
    },
    async (request) => ok(request, await threadDetail(ctx, request.viewer, request.query.threadId)),
  );

  api.post(
    '/v3/thread.create',
    {
      onRequest: loginRequired,
      schema: {
        tags: ['threads'],
        summary: 'Create a thread (or a draft); answers the thread, Data.threadId being its id',
        body: threadCreateBody,
      },
    },
    async (request) => {
      await assertPublishCaptcha(ctx.db, request.viewer, request.body.captcha);
      return ok(request, await createThread(ctx, request.viewer, request.body, request.ip));
    },
  );

  api.post(
    '/v3/thread.update',
    {
      onRequest: loginRequired,
      schema: {
        tags: ['threads'],
        summary: 'Edit a thread: title, content, category; draft: false publishes a draft',
        body: threadUpdateBody,
      },
    },
    async (request) => ok(request, await updateThread(ctx, request.viewer, request.body)),
  );

  api.post(
    '/v3/thread.delete',
    {
      onRequest: loginRequired,
      schema: { tags: ['threads'], summary: 'Delete (hide) a thread', body: threadDeleteBody },
    },
    async (request) => {
      await deleteThread(ctx, request.viewer, request.body.threadId);
      return ok(request, { threadId: request.body.threadId });
    },
  );

  api.post(
    '/v3/threads/operate',
    {
      onRequest: loginRequired,
      schema: {
        tags: ['threads'],
        summary: 'Sticky, essence, favourite, delete or restore, move to another category (categoriesId)',
        body: threadOperateBody,
      },
    },
    async (request) => ok(request, await operateThread(ctx, request.viewer, request.body)),
  );

  api.get(
    '/v3/thread.likedusers',
    {
      config: { guestCache: true },
      schema: {
        tags: ['threads'],
        summary: "Who liked the thread's first post (or postId, a post of the thread), newest first",
        querystring: likedUsersQuery,
      },
    },
    async (request) => ok(request, await likedUsers(ctx, request.viewer, request.query)),
  );

  api.get(
    '/v3/thread.paidusers',
    {
      config: { guestCache: true },
      schema: {
        tags: ['threads'],
        summary: 'Who bought the thread (type 3, the default) or rewarded it (type 2), newest first',
        description: 'An anonymous reward shows as 匿名 / Anonymous, with userId null and no avatar.',
        querystring: paidUsersQuery,
      },
    },
    async (request) => ok(request, await paidUsers(ctx, request.viewer, request.query, requestLocale(request))),
  );

  api.get(
    '/v3/thread.recommends',
    {
      config: { guestCache: true },
      schema: {
        tags: ['threads'],
        summary: "The hot threads (thread.list's sort 3, the home page's recommend card), in the family's fields",
        querystring: threadRecommendsQuery,
      },
    },
    async (request) => ok(request, await recommendedThreads(ctx, request.viewer, request.query)),
  );

  api.get(
    '/v3/thread.typelist',
    {
      config: { guestCache: true },
      schema: {
        tags: ['threads'],
        summary: "The family's thread types (thread.typelist): the part types a thread can carry, [{name, type}]",
        description: 'type is the part type as text (103 video, 101 images, ...), name in the page language.',
      },
    },
    async (request) => {
      const locale = requestLocale(request);
      return ok(
        request,
        THREAD_TYPES.map(([type, key]) => ({ name: msg(key)[locale], type: String(type) })),
      );
    },
  );

  api.post(
    '/v3/thread.share',
    { schema: { tags: ['threads'], summary: 'Count one share of a thread', body: threadShareBody } },
    async (request) => ok(request, await countShare(ctx, request.viewer, request.body.threadId)),
  );

  api.post(
    '/v3/user/thread.stick',
    {
      onRequest: loginRequired,
      schema: {
        tags: ['threads'],
        summary: 'Pin one of one’s own threads to the top of one’s profile (status 1), or take the pin off (0)',
        description:
          'One pinned thread per member: pinning another replaces it. The profile’s list (thread.list with ' +
          'filter.toUserId) shows it first, and every list marks it (userStickStatus). Another’s thread is -4001.',
        body: userThreadStickBody,
      },
    },
    async (request) => {
      const { data, message } = await stickOwnThread(ctx.db, request.viewer, request.body);
      return envelope(request, Code.SUCCESS, localize(message, requestLocale(request)), data);
    },
  );

  api.post(
    '/v3/view.count',
    { schema: { tags: ['threads'], summary: 'Count one view of a thread', body: viewCountBody } },
    async (request) => ok(request, await countView(ctx, request.viewer, request.body.threadId, request.ip)),
  );

  api.get(
    '/v3/view.count',
    {
      config: { changesState: true },
      schema: {
        tags: ['threads'],
        summary: 'Count one view of a thread (the family sent it as a GET)',
        querystring: viewCountQuery,
      },
    },
    async (request) => ok(request, await countView(ctx, request.viewer, request.query.threadId, request.ip)),
  );
}

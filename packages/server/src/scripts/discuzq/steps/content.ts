import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { AttachmentType, topicKey } from '@luntan/shared';
import pino from 'pino';
import { extensionOfName, sniffImage, storeFile, storeImage } from '../../../modules/attachments/index.js';
import {
  freeCharCount,
  freeFractionOf,
  indexedBody,
  plainLength,
  renderMarkdown,
  summarize,
  type TopicRef,
} from '../../../modules/content/index.js';
import { imageEmojiIn } from '../../../modules/emoji/index.js';
import { insertReplyIndex, insertThreadIndex } from '../../../modules/search/index.js';
import { convertPostContent } from '../content.js';
import type { DzqRow, DzqValue } from '../source.js';
import { insertChunks, type BatchContext, type TableStep } from '../steps.js';
import { cents, int, num, ref, str, time, timeOr } from '../values.js';

/*
 * Attachments (files copied byte for byte, display sizes made anew), topics, threads, posts (HTML converted to our
 * Markdown and rendered again), likes, favourites, thread topics.
 */

const log = pino({ level: 'silent' });

/** Where an imported attachment is now, by its old id (a COS one: its address), kept in legacy_redirects. */
export const attachmentKey = (id: number): string => `dzq:attachment:${id}`;

/** A thread's threads.attachment_price in cents, kept in legacy_redirects until the parts step reads it. */
export const attachmentPriceKey = (threadId: number): string => `dzq:attachment-price:${threadId}`;

/** Where the messages step finds a message's picture (people.ts reads it): our attachment id. */
export const messageImageKey = (messageId: number): string => `dzq:message-image:${messageId}`;

/** At most this many missing files are named in the report's notes (all are counted). */
const NAMED_MISSING_MAX = 50;

function missingFile(ctx: BatchContext, what: string): void {
  const named = (ctx.run.memo.get('namedMissing') as number | undefined) ?? 0;
  if (named < NAMED_MISSING_MAX) ctx.run.note(`Missing file: ${what}`);
  ctx.run.memo.set('namedMissing', named + 1);
}

/** Our file key for an old attachment: its random stored name when it fits, else a digest of its uuid and id. */
function fileKeyOf(r: DzqRow): string {
  const stored = str(r.attachment).replace(/\.[^.]*$/, '');
  if (/^[A-Za-z0-9_-]{16,64}$/.test(stored)) return stored;
  return createHash('sha256')
    .update(`${str(r.uuid)}:${int(r.id)}`)
    .digest('base64url')
    .slice(0, 32);
}

/** The COS address of a remote attachment, when the old site's settings told us the bucket. */
function remoteUrl(ctx: BatchContext, r: DzqRow): string | null {
  const base = ctx.run.memo.get('cosBase') as string | undefined;
  if (!base) return null;
  return `${base}/${str(r.file_path).replace(/^\/+/, '')}${str(r.attachment)}`;
}

const attachmentsStep: TableStep = {
  kind: 'table',
  table: 'attachments',
  key: ['id'],
  async write(rows, ctx) {
    const users = await ctx.run.ids('users');
    const ids = await ctx.run.ids('attachments');
    const { storageDir, files, dryRun } = ctx.run.options;
    for (const r of rows) {
      const id = int(r.id);
      const userId = int(r.user_id);
      if (!users.has(userId)) {
        ctx.skip('user missing');
        continue;
      }
      const oldType = int(r.type);
      if (int(r.is_remote) === 1) {
        const url = remoteUrl(ctx, r);
        if (url) {
          await ctx.db
            .insertInto('legacyRedirects')
            .values({ path: attachmentKey(id), target: url })
            .onConflict((oc) => oc.column('path').doUpdateSet({ target: url }))
            .execute();
          ctx.skip('remote (COS) file: kept as its address', 1);
        } else {
          ctx.skip('remote (COS) file with no bucket address known');
        }
        continue;
      }
      const relative = `${str(r.file_path).replace(/^\/+/, '')}${str(r.attachment)}`;
      const file = storageDir && !relative.includes('..') ? path.join(storageDir, 'app', relative) : null;
      let bytes: Buffer | null = null;
      if (file) bytes = await fs.readFile(file).catch(() => null);
      if (!bytes) {
        ctx.skip('file missing');
        missingFile(ctx, file ?? relative);
        continue;
      }
      const fileKey = fileKeyOf(r);
      const created = timeOr(r.created_at, ctx.run.startedAt);
      const fileDir = `attachments/dzq/${created.slice(0, 4)}/${created.slice(5, 7)}`;
      const type = oldType === 4 ? AttachmentType.IMAGE : oldType;
      let values;
      if (type === AttachmentType.IMAGE) {
        let image;
        try {
          image = await sniffImage(bytes);
        } catch {
          ctx.skip('image file is no image we show');
          continue;
        }
        const stored = dryRun
          ? { fileDir, fileKey, sizes: [] }
          : await storeImage(files, bytes, image, log, { fileDir, fileKey });
        values = {
          format: image.format,
          width: image.width,
          height: image.height,
          isAnimated: image.pages > 1 ? 1 : 0,
          sizes: JSON.stringify(stored.sizes),
          url: `/api/v3/attachments/${fileKey}.${image.format === 'jpeg' ? 'jpg' : image.format}`,
        };
      } else {
        const format = (extensionOfName(str(r.file_name)) || extensionOfName(str(r.attachment)) || 'bin').slice(0, 16);
        if (!dryRun) await storeFile(files, bytes, format, { fileDir, fileKey });
        values = {
          format,
          width: 0,
          height: 0,
          isAnimated: 0,
          sizes: type === AttachmentType.FILE ? '[]' : '{}',
          url: '',
        };
      }
      await ctx.db
        .insertInto('attachments')
        .values({
          id,
          fileKey,
          userId,
          postId: oldType === 4 ? null : ref(r.type_id),
          type,
          fileDir,
          fileName: str(r.file_name).slice(0, 255),
          format: values.format,
          fileSize: bytes.length,
          width: values.width,
          height: values.height,
          isAnimated: values.isAnimated,
          sizes: values.sizes,
          createdAt: created,
        })
        .execute();
      const target = values.url || `/api/v3/attachment.download?attachmentsId=${id}`;
      const links = [
        { path: attachmentKey(id), target },
        { path: `/storage/${relative.replace(/^public\//, '')}`.slice(0, 500), target },
      ];
      // A message's picture names its message only through type_id: the messages step finds it by this key.
      if (oldType === 4 && ref(r.type_id) !== null)
        links.push({ path: messageImageKey(int(r.type_id)), target: String(id) });
      await ctx.db
        .insertInto('legacyRedirects')
        .values(links)
        .onConflict((oc) => oc.column('path').doUpdateSet((eb) => ({ target: eb.ref('excluded.target') })))
        .execute();
      ids.add(id);
      ctx.wrote();
    }
  },
};

const topicsStep: TableStep = {
  kind: 'table',
  table: 'topics',
  key: ['id'],
  optional: true,
  async write(rows, ctx) {
    const ids = await ctx.run.ids('topics');
    const keys = (ctx.run.memo.get('topicKeys') as Set<string> | undefined) ?? new Set<string>();
    ctx.run.memo.set('topicKeys', keys);
    if (keys.size === 0 && ids.size > 0) {
      for (const t of await ctx.db.selectFrom('topics').select('contentKey').execute()) keys.add(t.contentKey);
    }
    const values = [];
    for (const r of rows) {
      const name = str(r.content).trim().slice(0, 100);
      const key = topicKey(name);
      if (name === '') {
        ctx.skip('topic without a name');
        continue;
      }
      if (keys.has(key)) {
        ctx.skip('topic name already taken');
        continue;
      }
      keys.add(key);
      const created = timeOr(r.created_at, ctx.run.startedAt);
      values.push({
        id: int(r.id),
        userId: int(r.user_id),
        content: name,
        contentKey: key,
        recommended: int(r.recommended),
        recommendedAt: time(r.recommended_at),
        createdAt: created,
        updatedAt: timeOr(r.updated_at, created),
      });
    }
    await insertChunks(values, (chunk) => ctx.db.insertInto('topics').values(chunk).execute());
    for (const v of values) ids.add(v.id);
    ctx.wrote(values.length);
  },
};

/** A position of 0,0 is the family's "none". */
const coordinate = (v: DzqValue | undefined) => {
  const n = num(v);
  return n === null || n === 0 ? null : n;
};

const threadsStep: TableStep = {
  kind: 'table',
  table: 'threads',
  key: ['id'],
  async write(rows, ctx) {
    const [ids, users, categories] = await Promise.all([
      ctx.run.ids('threads'),
      ctx.run.ids('users'),
      ctx.run.ids('categories'),
    ]);
    const values = [];
    const prices: { path: string; target: string }[] = [];
    for (const r of rows) {
      const userId = ref(r.user_id);
      const categoryId = ref(r.category_id);
      if (userId === null || !users.has(userId)) {
        ctx.skip('author missing');
        continue;
      }
      if (categoryId === null || !categories.has(categoryId)) {
        ctx.skip('category missing');
        continue;
      }
      const created = timeOr(r.created_at, ctx.run.startedAt);
      const longitude = coordinate(r.longitude);
      const latitude = coordinate(r.latitude);
      const lastPoster = ref(r.last_posted_user_id);
      const deletedBy = ref(r.deleted_user_id);
      values.push({
        id: int(r.id),
        categoryId,
        userId,
        title: str(r.title).slice(0, 200),
        summary: '',
        firstPostId: null,
        isSticky: int(r.is_sticky) ? 1 : 0,
        isEssence: int(r.is_essence) ? 1 : 0,
        isApproved: int(r.is_approved) === 1 ? 1 : 0,
        isDraft: int(r.is_draft) ? 1 : 0,
        viewCount: int(r.view_count),
        createdAt: created,
        updatedAt: timeOr(r.updated_at, created),
        lastPostedAt: timeOr(r.posted_at, created),
        lastPostedUserId: lastPoster !== null && users.has(lastPoster) ? lastPoster : null,
        deletedAt: time(r.deleted_at),
        deletedUserId: deletedBy !== null && users.has(deletedBy) ? deletedBy : null,
        priceCents: cents(r.price),
        // A fraction of the body; above 1 the family's legacy character count, made a fraction with the body.
        freeWordsFraction: Math.min(1, Math.max(0, num(r.free_words) ?? 0)),
        freeWords: Math.max(0, Math.trunc(num(r.free_words) ?? 0)),
        isAnonymous: int(r.is_anonymous) ? 1 : 0,
        longitude: longitude !== null && latitude !== null ? longitude : null,
        latitude: longitude !== null && latitude !== null ? latitude : null,
        address: str(r.address).slice(0, 100),
        location: str(r.location).slice(0, 100),
        shareCount: int(r.share_count),
      });
      const attachmentPrice = cents(r.attachment_price);
      if (attachmentPrice > 0) prices.push({ path: attachmentPriceKey(int(r.id)), target: String(attachmentPrice) });
    }
    await insertChunks(values, (chunk) => ctx.db.insertInto('threads').values(chunk).execute());
    // The thread's files sold apart: kept for the parts step (steps/parts.ts), which removes the memo when done.
    await insertChunks(prices, (chunk) =>
      ctx.db
        .insertInto('legacyRedirects')
        .values(chunk)
        .onConflict((oc) => oc.column('path').doUpdateSet((eb) => ({ target: eb.ref('excluded.target') })))
        .execute(),
    );
    for (const v of values) ids.add(v.id);
    ctx.wrote(values.length);
  },
};

/** The rendering inputs of one batch of posts: inline images, mentioned members, topics, image emoji. */
async function batchRefs(ctx: BatchContext, rows: DzqRow[]) {
  const attachmentIds = new Set<number>();
  for (const r of rows) {
    for (const m of str(r.content ?? null).matchAll(/attachmentId-(\d{1,12})/g)) attachmentIds.add(Number(m[1]));
  }
  const images = new Map<number, string>();
  if (attachmentIds.size > 0) {
    const found = await ctx.db
      .selectFrom('legacyRedirects')
      .select(['path', 'target'])
      .where('path', 'in', [...attachmentIds].map(attachmentKey))
      .execute();
    for (const f of found) images.set(Number(f.path.slice(f.path.lastIndexOf(':') + 1)), f.target);
  }
  return images;
}

const emojiCache = new Map<string, Map<string, string>>();

async function emojiFor(ctx: BatchContext, text: string): Promise<Map<string, string>> {
  const codes = [...new Set(text.match(/:[a-z0-9_+-]{1,32}:/gi) ?? [])].sort().join(' ');
  if (codes === '') return new Map();
  let map = emojiCache.get(codes);
  if (!map) {
    map = await imageEmojiIn(ctx.db, codes);
    if (emojiCache.size > 10_000) emojiCache.clear();
    emojiCache.set(codes, map);
  }
  return map;
}

const postsStep: TableStep = {
  kind: 'table',
  table: 'posts',
  key: ['id'],
  async write(rows, ctx) {
    const [ids, users, threads, topicIds] = await Promise.all([
      ctx.run.ids('posts'),
      ctx.run.ids('users'),
      ctx.run.ids('threads'),
      ctx.run.ids('topics'),
    ]);
    const images = await batchRefs(ctx, rows);
    const converted = rows.map((r) =>
      convertPostContent(str(r.content), { imageUrl: (id: number) => images.get(id) ?? null }),
    );
    const mentionIds = [...new Set(converted.flatMap((c) => c.mentions))].filter((id) => users.has(id));
    const nicknames = new Map<number, { id: number; nickname: string }>();
    for (let i = 0; i < mentionIds.length; i += 500) {
      const found = await ctx.db
        .selectFrom('users')
        .select(['id', 'nickname'])
        .where('id', 'in', mentionIds.slice(i, i + 500))
        .execute();
      for (const u of found) nicknames.set(u.id, u);
    }
    const topicRefIds = [...new Set(converted.flatMap((c) => c.topics))].filter((id) => topicIds.has(id));
    const topics = new Map<string, TopicRef>();
    if (topicRefIds.length > 0) {
      const found = await ctx.db
        .selectFrom('topics')
        .select(['id', 'contentKey'])
        .where('id', 'in', topicRefIds)
        .execute();
      for (const t of found) topics.set(t.contentKey, { id: t.id });
    }
    const firstOf = new Map<number, number>();
    const threadRows = await ctx.db
      .selectFrom('threads')
      .select(['id', 'title', 'priceCents', 'freeWords', 'freeWordsFraction', 'firstPostId'])
      .where('id', 'in', [...new Set(rows.map((r) => int(r.thread_id)))].filter((id) => threads.has(id)).concat([0]))
      .execute();
    const threadById = new Map(threadRows.map((t) => [t.id, t]));

    const posts = [];
    const mentions: { postId: number; userId: number }[] = [];
    const threadIndex = [];
    const replyIndex = [];
    for (const [i, r] of rows.entries()) {
      const id = int(r.id);
      const threadId = ref(r.thread_id);
      const userId = ref(r.user_id);
      const thread = threadId === null ? undefined : threadById.get(threadId);
      if (!thread) {
        ctx.skip('thread missing');
        continue;
      }
      if (userId === null || !users.has(userId)) {
        ctx.skip('author missing');
        continue;
      }
      const isFirst = int(r.is_first) === 1 && thread.firstPostId === null && !firstOf.has(thread.id);
      const { markdown } = converted[i]!;
      const linked = new Map<number, { id: number; nickname: string }>();
      for (const m of converted[i]!.mentions) {
        const user = nicknames.get(m);
        if (user) linked.set(m, user);
      }
      const rendered = renderMarkdown(markdown, new Map(), linked, await emojiFor(ctx, markdown), topics);
      const known = (v: DzqValue | undefined) => {
        const n = ref(v);
        return n !== null && ids.has(n) ? n : null;
      };
      const knownUser = (v: DzqValue | undefined) => {
        const n = ref(v);
        return n !== null && users.has(n) ? n : null;
      };
      const created = timeOr(r.created_at, ctx.run.startedAt);
      posts.push({
        id,
        threadId: thread.id,
        userId,
        replyPostId: known(r.reply_post_id),
        replyUserId: knownUser(r.reply_user_id),
        commentPostId: known(r.comment_post_id),
        commentUserId: knownUser(r.comment_user_id),
        content: markdown,
        contentHtml: rendered.html,
        ip: str(r.ip).slice(0, 45),
        isFirst: isFirst ? 1 : 0,
        isComment: int(r.is_comment) ? 1 : 0,
        isApproved: int(r.is_approved) === 1 ? 1 : 0,
        createdAt: created,
        updatedAt: timeOr(r.updated_at, created),
        deletedAt: time(r.deleted_at),
        deletedUserId: knownUser(r.deleted_user_id),
      });
      for (const m of rendered.mentions) mentions.push({ postId: id, userId: m });
      if (isFirst) {
        firstOf.set(thread.id, id);
        const title = thread.title || summarize(rendered.plain, 30);
        const length = plainLength(rendered.html);
        const fraction = thread.freeWords > 1 ? freeFractionOf(thread.freeWords, length) : thread.freeWordsFraction;
        const free = freeCharCount(fraction, length);
        await ctx.db
          .updateTable('threads')
          .set({
            firstPostId: id,
            title,
            freeWordsFraction: fraction,
            freeWords: free,
            summary: summarize(rendered.plain),
          })
          .where('id', '=', thread.id)
          .execute();
        threadIndex.push({
          threadId: thread.id,
          title,
          content: indexedBody(rendered.plain, { priceCents: thread.priceCents, freeWordsFraction: fraction }),
        });
      } else {
        replyIndex.push({ postId: id, content: rendered.plain });
      }
    }
    await insertChunks(posts, (chunk) => ctx.db.insertInto('posts').values(chunk).execute());
    await insertChunks(mentions, (chunk) =>
      ctx.db
        .insertInto('postMentions')
        .values(chunk)
        .onConflict((oc) => oc.doNothing())
        .execute(),
    );
    await insertThreadIndex(ctx.db, ctx.run.dialect, threadIndex);
    await insertReplyIndex(ctx.db, ctx.run.dialect, replyIndex);
    for (const p of posts) ids.add(p.id);
    ctx.wrote(posts.length);
  },
};

/** A pair table (likes, favourites, thread topics): both ends must have come over. */
function pairStep(options: {
  table: string;
  key: [string, string];
  kinds: ['posts' | 'threads', 'users' | 'topics'];
  insert: (ctx: BatchContext, rows: { a: number; b: number; createdAt: string }[]) => Promise<void>;
  optional?: boolean;
}): TableStep {
  return {
    kind: 'table',
    table: options.table,
    key: options.key,
    optional: options.optional,
    async write(rows, ctx) {
      const [as, bs] = await Promise.all([ctx.run.ids(options.kinds[0]), ctx.run.ids(options.kinds[1])]);
      const values = [];
      for (const r of rows) {
        const a = int(r[options.key[0]]);
        const b = int(r[options.key[1]]);
        if (!as.has(a)) ctx.skip(`${options.kinds[0].slice(0, -1)} missing`);
        else if (!bs.has(b)) ctx.skip(`${options.kinds[1].slice(0, -1)} missing`);
        else values.push({ a, b, createdAt: timeOr(r.created_at, ctx.run.startedAt) });
      }
      await options.insert(ctx, values);
      ctx.wrote(values.length);
    },
  };
}

const likesStep = pairStep({
  table: 'post_user',
  key: ['post_id', 'user_id'],
  kinds: ['posts', 'users'],
  insert: (ctx, rows) =>
    insertChunks(rows, (chunk) =>
      ctx.db
        .insertInto('postLikes')
        .values(chunk.map((r) => ({ postId: r.a, userId: r.b, createdAt: r.createdAt })))
        .onConflict((oc) => oc.doNothing())
        .execute(),
    ),
});

const favouritesStep = pairStep({
  table: 'thread_user',
  key: ['thread_id', 'user_id'],
  kinds: ['threads', 'users'],
  insert: (ctx, rows) =>
    insertChunks(rows, (chunk) =>
      ctx.db
        .insertInto('threadFavorites')
        .values(chunk.map((r) => ({ threadId: r.a, userId: r.b, createdAt: r.createdAt })))
        .onConflict((oc) => oc.doNothing())
        .execute(),
    ),
});

const threadTopicStep = pairStep({
  table: 'thread_topic',
  key: ['thread_id', 'topic_id'],
  kinds: ['threads', 'topics'],
  optional: true,
  insert: (ctx, rows) =>
    insertChunks(rows, (chunk) =>
      ctx.db
        .insertInto('threadTopic')
        .values(chunk.map((r) => ({ threadId: r.a, topicId: r.b, createdAt: r.createdAt })))
        .onConflict((oc) => oc.doNothing())
        .execute(),
    ),
});

export const contentSteps: TableStep[] = [
  attachmentsStep,
  topicsStep,
  threadsStep,
  postsStep,
  likesStep,
  favouritesStep,
  threadTopicStep,
];

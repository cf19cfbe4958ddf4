import { base, en, Faker, zh_CN } from '@faker-js/faker';
import { sql, type Insertable, type Kysely } from 'kysely';
import type { DialectName } from '../db/database.js';
import { syncIdentity } from '../db/migration-helpers.js';
import type { DB, PostsTable } from '../db/schema.js';
import { mentionCandidates, renderMarkdown, summarize, type MentionTarget } from '../modules/content/index.js';
import {
  DEMO_CATEGORIES,
  DEMO_TOPICS,
  demoBody,
  demoReply,
  demoTitle,
  type DemoTopic,
  type Lang,
} from './demo-content.js';
import {
  ensureCategories,
  ensureUsers,
  mentionDirectory,
  splitExactly,
  weightedPicker,
  writeBatch,
  type Batch,
} from './demo-seed-rows.js';

/**
 * Fills a forum with demo threads, replies, comments, likes, favourites and views, written in batches straight to
 * the database but exactly as the API would have left them: Markdown rendered by the same renderer (mentions
 * resolved as `renderContent` does), the search indexes written for every thread that is not deleted and every reply
 * or comment that is not hidden, and every
 * counter (thread, post, category, user) set to what the API's increments would have added up to. Ids continue
 * after the largest existing ones, so a second run adds more. Run it while no one else writes to the forum.
 */

export interface DemoSeedOptions {
  threads: number;
  /** Replies and comments (each thread's first post comes on top). */
  posts: number;
  /** Size of the demo user pool (created once, reused by later runs). */
  users: number;
  /** Threads are spread over this many days up to now. */
  days: number;
  /** Threads per transaction. */
  batch: number;
  /** Random seed; by default derived from what the forum already holds, so reruns differ. */
  seed?: number | undefined;
}

export interface DemoSeedProgress {
  threads: number;
  posts: number;
}

/** The password of every demo user. */
export { DEMO_PASSWORD } from './demo-seed-rows.js';

const DAY_MS = 86_400_000;

const iso = (ms: number) => new Date(ms).toISOString();

export interface DemoSeedResult {
  threads: number;
  posts: number;
  firstThreadId: number;
  lastThreadId: number;
  seconds: number;
}

export async function seedDemo(
  db: Kysely<DB>,
  dialect: DialectName,
  options: DemoSeedOptions,
  onProgress: (p: DemoSeedProgress) => void = () => {},
): Promise<DemoSeedResult> {
  const started = Date.now();
  const categoryIds = await ensureCategories(db);
  const users = await ensureUsers(db, options.users);
  const directory = await mentionDirectory(db);
  const maxIds = await Promise.all(
    (['threads', 'posts'] as const).map((t) =>
      db
        .selectFrom(t)
        .select((eb) => eb.fn.max<number | null>('id').as('m'))
        .executeTakeFirstOrThrow(),
    ),
  );
  let nextThreadId = Number(maxIds[0]!.m ?? 0) + 1;
  let nextPostId = Number(maxIds[1]!.m ?? 0) + 1;
  const firstThreadId = nextThreadId;

  const f = new Faker({ locale: [zh_CN, en, base] });
  f.seed(options.seed ?? 20261121 + nextThreadId);

  // Categories by share; sub-category-less parents borrow a child's topic.
  const topicOf = new Map<number, DemoTopic[]>();
  for (const c of DEMO_CATEGORIES) {
    const own = DEMO_TOPICS.filter((t) => t.category === c.name);
    const children = DEMO_TOPICS.filter((t) =>
      DEMO_CATEGORIES.some((d) => d.parent === c.name && d.name === t.category),
    );
    topicOf.set(categoryIds.get(c.name)!, own.length > 0 ? own : children);
  }
  const pickCategory = weightedPicker(
    f,
    DEMO_CATEGORIES.map((c) => c.weight),
  );
  const categoryList = DEMO_CATEGORIES.map((c) => categoryIds.get(c.name)!);
  // A few users write most posts, as on every forum.
  const pickUser = weightedPicker(
    f,
    users.map((_, i) => 1 / (i + 1) ** 0.8),
  );

  // The plan: creation times (ids follow time), states, and how many replies and comments each thread gets.
  const end = Date.now() - 60_000;
  const start = end - options.days * DAY_MS;
  const created = Array.from({ length: options.threads }, () => f.number.int({ min: start, max: end })).sort(
    (a, b) => a - b,
  );
  const state = created.map(() => {
    const r = f.number.float();
    return r < 0.003 ? 'draft' : r < 0.013 ? 'deleted' : 'listed';
  });
  const replyCounts = splitExactly(
    f,
    options.posts,
    state.map((s) => (s === 'draft' ? 0 : (-Math.log(1 - f.number.float({ max: 0.999999 }))) ** 1.5)),
  );
  // About eight sticky threads, whatever the size.
  const stickyChance = 8 / options.threads;

  let done = { threads: 0, posts: 0 };
  for (let from = 0; from < options.threads; from += options.batch) {
    const b: Batch = {
      threads: [],
      posts: [],
      likes: [],
      favorites: [],
      mentions: [],
      views: [],
      index: [],
      replyIndex: [],
      categories: new Map(),
      users: new Map(),
    };
    const userDelta = (id: number) => {
      let d = b.users.get(id);
      if (!d) b.users.set(id, (d = { threadCount: 0, postCount: 0, likedCount: 0 }));
      return d;
    };
    const render = (text: string, postId: number) => {
      const targets = new Map<string, MentionTarget>();
      for (const name of mentionCandidates(text)) {
        const u = directory.get(name);
        if (u) targets.set(name, u);
      }
      const rendered = renderMarkdown(text, targets);
      for (const userId of rendered.mentions) b.mentions.push({ postId, userId });
      return rendered;
    };
    /** `count` distinct users other than `except`, with when each liked (between `after` and now). */
    const likers = (count: number, except: number, after: number) => {
      const chosen = new Set<number>();
      const limit = Math.min(count, users.length - 1);
      while (chosen.size < limit) {
        const u = users[pickUser()]!.id;
        if (u !== except) chosen.add(u);
      }
      return [...chosen].map((userId) => ({ userId, at: f.number.int({ min: after, max: end }) }));
    };

    const to = Math.min(options.threads, from + options.batch);
    for (let i = from; i < to; i += 1) {
      const threadId = nextThreadId++;
      const firstPostId = nextPostId++;
      const categoryId = categoryList[pickCategory()]!;
      const topic = f.helpers.arrayElement(topicOf.get(categoryId)!);
      const author = users[pickUser()]!;
      const lang: Lang = f.number.int(9) === 0 ? (author.lang === 'zh' ? 'en' : 'zh') : author.lang;
      const title = demoTitle(f, topic, lang);
      const text = demoBody(f, topic, lang);
      const createdAt = created[i]!;
      const rendered = render(text, firstPostId);
      const isDraft = state[i] === 'draft' ? 1 : 0;

      // Replies and comments, oldest first; most come in the first days.
      const span = Math.min(end - createdAt, 30 * DAY_MS);
      const times = Array.from(
        { length: replyCounts[i]! },
        () => createdAt + 1000 + Math.floor(span * f.number.float() ** 3),
      )
        .map((t) => Math.min(t, end))
        .sort((x, y) => x - y);
      /** The replies so far that are not hidden (comments go under these), each with its row and comments. */
      const open: { row: Insertable<PostsTable>; comments: { id: number; userId: number }[] }[] = [];
      let visibleReplies = 0;
      let lastPostedAt = createdAt;
      let lastPostedUserId = author.id;
      const participants = [author];
      for (const at of times) {
        const id = nextPostId++;
        const poster = f.number.int(6) === 0 ? author : users[pickUser()]!;
        const under = open.length > 0 && f.number.int(3) === 0 ? f.helpers.arrayElement(open) : undefined;
        const answering =
          under && under.comments.length > 0 && f.number.int(1) === 0
            ? f.helpers.arrayElement(under.comments)
            : undefined;
        const mentioned = f.number.int(12) === 0 ? f.helpers.arrayElement(participants).username : null;
        const postLang: Lang = f.number.int(9) === 0 ? (poster.lang === 'zh' ? 'en' : 'zh') : poster.lang;
        const body = demoReply(f, topic, postLang, mentioned === poster.username ? null : mentioned);
        const html = render(body, id);
        const hidden = f.number.int(49) === 0;
        const likes = hidden || f.number.int(3) !== 0 ? [] : likers(f.number.int({ min: 1, max: 3 }), poster.id, at);
        const row: Insertable<PostsTable> = {
          id,
          threadId,
          userId: poster.id,
          replyPostId: under ? (under.row.id ?? null) : null,
          replyUserId: under?.row.userId ?? null,
          commentPostId: answering?.id ?? null,
          commentUserId: answering?.userId ?? null,
          content: body,
          contentHtml: html.html,
          ip: '127.0.0.1',
          isFirst: 0,
          isComment: under ? 1 : 0,
          isApproved: 1,
          likeCount: likes.length,
          replyCount: 0,
          createdAt: iso(at),
          updatedAt: iso(at),
          deletedAt: hidden ? iso(Math.min(end, at + 3_600_000)) : null,
          deletedUserId: hidden ? poster.id : null,
        };
        b.posts.push(row);
        for (const l of likes) b.likes.push({ postId: id, userId: l.userId, createdAt: iso(l.at) });
        userDelta(poster.id).likedCount += likes.length;
        // What the API's increments add up to: a hidden post was counted when written and uncounted when hidden.
        if (!hidden) {
          b.replyIndex.push({ postId: id, content: html.plain });
          userDelta(poster.id).postCount += 1;
          if (under) {
            under.comments.push({ id, userId: poster.id });
            under.row.replyCount = (under.row.replyCount ?? 0) + 1;
          } else {
            visibleReplies += 1;
            open.push({ row, comments: [] });
          }
        }
        if (!participants.includes(poster)) participants.push(poster);
        lastPostedAt = at;
        lastPostedUserId = poster.id;
      }

      const listedOrDeleted = isDraft === 0;
      const firstLikes = listedOrDeleted
        ? likers(
            Math.floor(-Math.log(1 - f.number.float({ max: 0.999 })) * (2 + replyCounts[i]! / 4)),
            author.id,
            createdAt,
          )
        : [];
      for (const l of firstLikes) b.likes.push({ postId: firstPostId, userId: l.userId, createdAt: iso(l.at) });
      userDelta(author.id).likedCount += firstLikes.length;
      const favorites =
        listedOrDeleted && f.number.int(7) === 0 ? likers(f.number.int({ min: 1, max: 4 }), -1, createdAt) : [];
      for (const fv of favorites) b.favorites.push({ threadId, userId: fv.userId, createdAt: iso(fv.at) });

      // Views: most on the day the thread appeared, the rest on one later day (the API counts them per UTC day).
      let viewCount = 0;
      if (listedOrDeleted) {
        viewCount = 1 + firstLikes.length * 15 + replyCounts[i]! * 8 + f.number.int(60);
        const firstDay = iso(createdAt).slice(0, 10);
        const laterDay = iso(f.number.int({ min: createdAt, max: end })).slice(0, 10);
        const early = laterDay === firstDay ? viewCount : Math.ceil(viewCount * 0.7);
        b.views.push({ threadId, day: firstDay, views: early });
        if (early < viewCount) b.views.push({ threadId, day: laterDay, views: viewCount - early });
      }

      const deleted = state[i] === 'deleted';
      const deletedAt = deleted ? Math.min(end, lastPostedAt + f.number.int({ min: 60_000, max: 7 * DAY_MS })) : null;
      b.threads.push({
        id: threadId,
        categoryId,
        userId: author.id,
        title,
        summary: summarize(rendered.plain),
        firstPostId,
        isSticky: !deleted && !isDraft && f.number.float() < stickyChance ? 1 : 0,
        isEssence: !deleted && !isDraft && f.number.int(32) === 0 ? 1 : 0,
        isApproved: 1,
        isDraft,
        viewCount,
        postCount: visibleReplies,
        likeCount: firstLikes.length,
        favoriteCount: favorites.length,
        createdAt: iso(createdAt),
        updatedAt: iso(createdAt),
        lastPostedAt: iso(lastPostedAt),
        lastPostedUserId,
        deletedAt: deletedAt === null ? null : iso(deletedAt),
        deletedUserId: deleted ? author.id : null,
      });
      b.posts.push({
        id: firstPostId,
        threadId,
        userId: author.id,
        replyPostId: null,
        replyUserId: null,
        commentPostId: null,
        commentUserId: null,
        content: text,
        contentHtml: rendered.html,
        ip: '127.0.0.1',
        isFirst: 1,
        isComment: 0,
        isApproved: 1,
        likeCount: firstLikes.length,
        replyCount: 0,
        createdAt: iso(createdAt),
        updatedAt: iso(createdAt),
        deletedAt: null,
        deletedUserId: null,
      });
      // Deleting a thread removes its index entry; drafts are indexed (as thread.create does).
      if (!deleted) b.index.push({ threadId, title, content: rendered.plain });
      if (state[i] === 'listed') {
        b.categories.set(categoryId, (b.categories.get(categoryId) ?? 0) + 1);
        userDelta(author.id).threadCount += 1;
      }
    }
    await writeBatch(db, dialect, b);
    done = { threads: done.threads + b.threads.length, posts: done.posts + b.posts.length - b.threads.length };
    onProgress(done);
    // better-sqlite3 answers synchronously: let timers (the progress bar's) run between batches.
    await new Promise((resolve) => setImmediate(resolve));
  }

  await syncIdentity(db as unknown as Kysely<unknown>, 'threads');
  await syncIdentity(db as unknown as Kysely<unknown>, 'posts');
  // Fresh statistics for the planner after a bulk load (autovacuum would get there too, later).
  if (dialect === 'postgres') await sql`analyze`.execute(db);
  return {
    threads: done.threads,
    posts: done.posts,
    firstThreadId,
    lastThreadId: nextThreadId - 1,
    seconds: (Date.now() - started) / 1000,
  };
}

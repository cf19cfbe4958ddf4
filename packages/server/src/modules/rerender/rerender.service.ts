import type { DomainEventPayload } from '@luntan/shared';
import type { AppContext } from '../../context.js';
import { renameMentions, renderContent, replaceLiterally, summarize, type RenderedContent } from '../content/index.js';
import { replaceMentions } from '../threads/index.js';
import { existingTopicsNamedIn } from '../topics/index.js';
import {
  postsByIds,
  postsContaining,
  postsMentioning,
  updatePostText,
  updateThreadText,
  type StoredPost,
} from './rerender.repository.js';

/*
 * Posts are rendered once, when written or edited (posts.service, threads.service): every read serves the stored
 * HTML. When a rule that went into that HTML changes, the posts it touches are rendered again here, from their
 * stored Markdown, in batches heard as events: a member renamed (their mentions show their nickname and username),
 * a {REPLACE} stop word added or changed (it is put into the text as a new post would have it).
 */

type RerenderJob = DomainEventPayload<'post.rerender_due'>;

/** Posts looked at per batch (one delivery, one transaction). */
const RERENDER_BATCH = 100;

type Ctx = Pick<AppContext, 'db' | 'events' | 'stopWords' | 'guestCache'>;

/** The literal part a stop word is found by (its text before any `{n}` wildcard), lower-cased. */
export function searchKey(find: string): string {
  return (
    find
      .split(/\{\d{1,2}\}/)
      .find((part) => part !== '')
      ?.toLowerCase() ?? ''
  );
}

/**
 * Renders one batch again and, when the batch was full, announces the next in the same transaction: so the work
 * goes on after a restart from the last batch written (the outbox delivers the pending event), and a request that
 * changed a rule never waits for it.
 */
export async function rerenderBatch(ctx: Ctx, job: RerenderJob): Promise<void> {
  const words = job.words.filter((w) => w !== '');
  if (job.userId === null && words.length === 0) return;
  const rows =
    job.userId !== null
      ? await postsMentioning(ctx.db, job.userId, job.afterPostId, RERENDER_BATCH)
      : await postsContaining(ctx.db, words, job.afterPostId, RERENDER_BATCH);
  const matcher = job.userId === null ? await ctx.stopWords.get(ctx.db) : null;
  const changed: { row: StoredPost; content: string; title: string | null; rendered: RenderedContent }[] = [];
  for (const row of rows) {
    let content = row.content;
    let title = row.title;
    if (matcher) {
      // Only the replacements: a post holding a word since made {BANNED} or {MOD} stays as it is (see
      // docs/architecture.md, "Rendering once").
      content = matcher.check(content, 'ugc', replaceLiterally).text;
      if (title !== null) title = matcher.check(title, 'ugc').text;
    } else {
      content = renameMentions(content, job.oldUsername, job.newUsername);
    }
    const rendered = await renderContent(ctx.db, content, row.userId, await existingTopicsNamedIn(ctx.db, content));
    if (rendered.html === row.contentHtml && content === row.content && title === row.title) continue;
    changed.push({ row, content, title, rendered });
  }
  const last = rows.at(-1)?.id;
  const more = rows.length === RERENDER_BATCH && last !== undefined;
  await ctx.db.transaction().execute(async (trx) => {
    for (const { row, content, title, rendered } of changed) {
      // Edited since it was read: the edit rendered it under the rules of now.
      if (!(await updatePostText(trx, row.id, row.content, { content, contentHtml: rendered.html }))) continue;
      await replaceMentions(trx, row.id, rendered.mentions);
      if (row.isFirst === 1) {
        const summary = summarize(rendered.plain);
        await updateThreadText(trx, row.threadId, title !== null ? { summary, title } : { summary });
      }
      await ctx.events.emit(trx, 'post.rerendered', { postId: row.id, threadId: row.threadId });
    }
    if (more) await ctx.events.emit(trx, 'post.rerender_due', { ...job, afterPostId: last });
  });
  // What guests were served holds the old HTML (core/guest-cache.ts): a write request would clear it, this is none.
  if (changed.length > 0) await ctx.guestCache.invalidateEverywhere();
  if (more || changed.length > 0) ctx.events.wake();
}

/**
 * Renders these posts again from their Markdown as it is (something their HTML shows changed outside them: a link's
 * preview arrived, modules/link-previews), and announces each one whose HTML changed.
 */
export async function renderPostsAgain(ctx: Ctx, postIds: readonly number[]): Promise<number> {
  if (postIds.length === 0) return 0;
  const changed: { row: StoredPost; rendered: RenderedContent }[] = [];
  for (const row of await postsByIds(ctx.db, postIds)) {
    const rendered = await renderContent(
      ctx.db,
      row.content,
      row.userId,
      await existingTopicsNamedIn(ctx.db, row.content),
    );
    if (rendered.html !== row.contentHtml) changed.push({ row, rendered });
  }
  if (changed.length === 0) return 0;
  await ctx.db.transaction().execute(async (trx) => {
    for (const { row, rendered } of changed) {
      if (!(await updatePostText(trx, row.id, row.content, { content: row.content, contentHtml: rendered.html })))
        continue;
      await ctx.events.emit(trx, 'post.rerendered', { postId: row.id, threadId: row.threadId });
    }
  });
  await ctx.guestCache.invalidateEverywhere();
  ctx.events.wake();
  return changed.length;
}

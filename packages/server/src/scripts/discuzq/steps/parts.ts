import { AttachmentType, ThreadPart, topicKey } from '@luntan/shared';
import { sql } from 'kysely';
import { renderMarkdown, topicNames, type TopicRef } from '../../../modules/content/index.js';
import { imageEmojiIn } from '../../../modules/emoji/index.js';
import type { DzqRow, DzqValue } from '../source.js';
import { inTransaction, insertChunks, type BatchContext, type FinalStep, type Step, type TableStep } from '../steps.js';
import { cents, int, json, str, timeOr } from '../values.js';
import { attachmentKey, attachmentPriceKey } from './content.js';
import {
  goodsKey,
  goodsOf,
  isHttp,
  MEMO_PREFIXES,
  partDetailSteps,
  recall,
  videoKey,
  type GoodsValue,
} from './part-details.js';

/*
 * A thread's parts (the family's thread_tom, our thread_parts, docs/thread-parts.md), with the detail tables they
 * point at. Runs after the content steps (threads, first posts, attachments and their legacy_redirects rows).
 *
 * thread_tom names its details by id only (a video by its thread_video id, a product by its post_goods id), and a
 * step sees nothing but its own table's rows. So the detail tables come first and leave what the parts need in the
 * database, where a resumed run finds it: votes in our own vote tables (ids kept), the address of a VOD video and a
 * product's fields as memo rows of legacy_redirects (`dzq:…` paths, which no /storage/ request can reach, as the
 * accounts step keeps the COS address), and threads.attachment_price likewise (written by the threads step). The
 * final step recounts the votes and removes these memo rows.
 *
 * The money rows of red packets (106) and bounties (107) are written by the money step: their parts only carry what
 * our handlers keep in thread_parts.value (the red packet's id, kept from thread_red_packets.id; the bounty's offer).
 */

/** A thread_parts row to write (its times come from the thread_tom row). */
interface PartRow {
  threadId: number;
  type: number;
  value: unknown;
  priceIds: number[];
}

/** At most this many threads are named in the report for their question part (all are counted). */
const NAMED_QUESTIONS_MAX = 20;

/** What one batch of thread_tom needs from the database, looked up once. */
interface BatchFacts {
  threads: Map<number, { firstPostId: number | null; priceCents: number }>;
  attachments: Map<number, { type: number }>;
  memos: Map<string, string>;
  votes: Map<number, number>;
  held: Set<string>;
}

const idList = (v: unknown): number[] =>
  (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]).map((x) => int(scalar(x))).filter((x) => x > 0);

/** A JSON value as a column value (numbers and text; anything else is none). */
const scalar = (v: unknown): DzqValue => (typeof v === 'number' || typeof v === 'string' ? v : null);

const asRecord = (v: unknown): Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** The last segment of an address, decoded, as a link's text. */
function fileNameOf(url: string): string {
  const last = url.split(/[?#]/)[0]!.split('/').pop() ?? '';
  let name = last;
  try {
    name = decodeURIComponent(last);
  } catch {
    // A malformed escape: the segment as it is.
  }
  return name.replace(/[[\]\\]/g, '');
}

/** A Markdown destination that survives spaces and parentheses in an address. */
const destination = (url: string): string => url.replace(/[ ()<>]/g, (c) => encodeURIComponent(c));

async function factsOf(ctx: BatchContext, rows: { threadId: number; type: number; value: Record<string, unknown> }[]) {
  const threadIds = [...new Set(rows.map((r) => r.threadId))];
  const threads = new Map<number, { firstPostId: number | null; priceCents: number }>();
  const held = new Set<string>();
  if (threadIds.length > 0) {
    const found = await ctx.db
      .selectFrom('threads')
      .select(['id', 'firstPostId', 'priceCents'])
      .where('id', 'in', threadIds)
      .execute();
    for (const t of found) threads.set(t.id, { firstPostId: t.firstPostId, priceCents: Number(t.priceCents) });
    const parts = await ctx.db
      .selectFrom('threadParts')
      .select(['threadId', 'type'])
      .where('threadId', 'in', threadIds)
      .execute();
    for (const p of parts) held.add(`${p.threadId}:${p.type}`);
  }
  const attachmentIds = [
    ...new Set(
      rows.flatMap((r) => [
        ...idList(r.value.imageIds),
        ...idList(r.value.docIds),
        ...idList(r.value.audioId),
        ...idList(r.value.videoId),
      ]),
    ),
  ];
  const attachments = new Map<number, { type: number }>();
  for (let i = 0; i < attachmentIds.length; i += 500) {
    const found = await ctx.db
      .selectFrom('attachments')
      .select(['id', 'type'])
      .where('id', 'in', attachmentIds.slice(i, i + 500))
      .execute();
    for (const a of found) attachments.set(a.id, { type: a.type });
  }
  const memos = await recall(ctx, [
    ...attachmentIds.map(attachmentKey),
    ...rows.flatMap((r) => [...idList(r.value.audioId), ...idList(r.value.videoId)].map(videoKey)),
    ...rows
      .filter((r) => r.type === ThreadPart.GOODS)
      .flatMap((r) => idList(r.value.goodsId ?? r.value.id).map(goodsKey)),
    ...threadIds.map(attachmentPriceKey),
  ]);
  const voteIds = [...new Set(rows.filter((r) => r.type === ThreadPart.VOTE).flatMap((r) => idList(r.value.voteIds)))];
  const votes = new Map<number, number>();
  if (voteIds.length > 0) {
    for (const v of await ctx.db
      .selectFrom('threadVotes')
      .select(['id', 'threadId'])
      .where('id', 'in', voteIds)
      .execute()) {
      votes.set(v.id, v.threadId);
    }
  }
  return { threads, attachments, memos, votes, held } satisfies BatchFacts;
}

/** A part to write and Markdown for the thread's first post (what no part of ours can hold), or why nothing. */
type Mapped = { part?: PartRow; markdown?: string[] } | string;

/**
 * Images (101) and files (108): the attachments that came over, by their kept ids. Our parts hold uploads only, never
 * an address, so a COS file (not copied: its legacy_redirects row points at the bucket) goes into the thread's text
 * instead (appended to its first post as a Markdown image, or a link for a file, and rendered again); a file that
 * came over in neither way is dropped from the part, and a part left with nothing is not written.
 */
function attachmentsPart(facts: BatchFacts, threadId: number, type: number, ids: number[], priceIds: number[]): Mapped {
  const kept: number[] = [];
  const markdown: string[] = [];
  for (const id of [...new Set(ids)]) {
    if (facts.attachments.has(id)) {
      kept.push(id);
      continue;
    }
    const url = facts.memos.get(attachmentKey(id));
    if (url && isHttp(url)) {
      const name = fileNameOf(url);
      markdown.push(type === ThreadPart.IMAGE ? `![](${destination(url)})` : `[${name || url}](${destination(url)})`);
    }
  }
  if (kept.length === 0 && markdown.length === 0) return 'attachments missing';
  if (kept.length === 0) return { markdown };
  const paid = priceIds.filter((id) => kept.includes(id));
  if (type === ThreadPart.IMAGE)
    return { part: { threadId, type, value: { imageIds: kept }, priceIds: paid }, markdown };
  const price = int(facts.memos.get(attachmentPriceKey(threadId)));
  return { part: { threadId, type, value: { docIds: kept, priceCents: price }, priceIds: paid }, markdown };
}

/**
 * Audio (102) and video (103): the family's value names a thread_video row (Tencent VOD), played from its address;
 * an id that is an attachment of ours instead (older rows) plays the copied file, or its COS address.
 */
function mediaPart(
  facts: BatchFacts,
  threadId: number,
  type: number,
  id: number | undefined,
  priceIds: number[],
): Mapped {
  if (id === undefined) return 'media missing';
  const vod = facts.memos.get(videoKey(id));
  const value = { attachmentId: null as number | null, mediaUrl: '', posterId: null };
  if (vod) value.mediaUrl = vod;
  else if (
    facts.attachments.get(id)?.type === (type === ThreadPart.AUDIO ? AttachmentType.AUDIO : AttachmentType.VIDEO)
  ) {
    value.attachmentId = id;
  } else {
    const url = facts.memos.get(attachmentKey(id));
    if (!url || !isHttp(url)) return 'media missing';
    value.mediaUrl = url;
  }
  const paid = value.attachmentId !== null && priceIds.includes(value.attachmentId) ? [value.attachmentId] : [];
  return { part: { threadId, type, value, priceIds: paid } };
}

function partOf(
  facts: BatchFacts,
  threadId: number,
  type: number,
  v: Record<string, unknown>,
  priceIds: number[],
): Mapped {
  const part = (value: unknown): Mapped => ({ part: { threadId, type, value, priceIds: [] } });
  switch (type) {
    case ThreadPart.IMAGE:
      return attachmentsPart(facts, threadId, type, idList(v.imageIds), priceIds);
    case ThreadPart.FILES:
      return attachmentsPart(facts, threadId, type, idList(v.docIds), priceIds);
    case ThreadPart.AUDIO:
      return mediaPart(facts, threadId, type, idList(v.audioId)[0], priceIds);
    case ThreadPart.VIDEO:
      return mediaPart(facts, threadId, type, idList(v.videoId)[0], priceIds);
    case ThreadPart.GOODS: {
      // The client may have sent the product's fields themselves; else the value names the post_goods row.
      const inline = goodsOf(v);
      if (typeof inline !== 'string') return part(inline);
      const id = idList(v.goodsId ?? v.id)[0];
      const memo = id === undefined ? undefined : facts.memos.get(goodsKey(id));
      return memo ? part(JSON.parse(memo) as GoodsValue) : 'goods missing';
    }
    case ThreadPart.VOTE: {
      const ids = idList(v.voteIds).filter((id) => facts.votes.get(id) === threadId);
      return ids.length > 0 ? part({ voteIds: ids.slice(0, 1) }) : 'vote missing';
    }
    case ThreadPart.RED_PACKET: {
      // The red packet keeps its id (thread_red_packets.id, written by the money step); the value the family stored
      // is that row, so its id is the one to name.
      const id = idList(v.id)[0];
      return id === undefined ? 'red packet without its id' : part({ redPacketId: id });
    }
    case ThreadPart.REWARD: {
      // The family's value is its thread_rewards row (money in yuan); the money step keeps that row's state.
      return part({ amountCents: cents(scalar(v.money ?? v.price)), type: int(scalar(v.type)) === 1 ? 1 : 0 });
    }
    default:
      return 'part type unknown';
  }
}

/** Appends Markdown blocks to first posts and renders them again as the posts step renders (steps/content.ts). */
async function appendToFirstPosts(ctx: BatchContext, additions: Map<number, string[]>): Promise<void> {
  for (const [postId, blocks] of additions) {
    const post = await ctx.db.selectFrom('posts').select(['content']).where('id', '=', postId).executeTakeFirst();
    if (!post) continue;
    const markdown = [post.content, ...blocks].filter((b) => b !== '').join('\n\n');
    const linkedIds = [...new Set([...markdown.matchAll(/\]\(\/user\/(\d{1,12})\)/g)].map((m) => Number(m[1])))];
    const linked = new Map<number, { id: number; nickname: string }>();
    if (linkedIds.length > 0) {
      const users = await ctx.db.selectFrom('users').select(['id', 'nickname']).where('id', 'in', linkedIds).execute();
      for (const u of users) linked.set(u.id, u);
    }
    const keys = [...new Set(topicNames(markdown).map(topicKey))];
    const topics = new Map<string, TopicRef>();
    if (keys.length > 0) {
      const found = await ctx.db
        .selectFrom('topics')
        .select(['id', 'contentKey'])
        .where('contentKey', 'in', keys)
        .execute();
      for (const t of found) topics.set(t.contentKey, { id: t.id });
    }
    const rendered = renderMarkdown(markdown, new Map(), linked, await imageEmojiIn(ctx.db, markdown), topics);
    // Pictures and links add no words: the thread's summary, free part and search text stay as they are.
    await ctx.db
      .updateTable('posts')
      .set({ content: markdown, contentHtml: rendered.html })
      .where('id', '=', postId)
      .execute();
  }
}

/**
 * The family sold a thread's images, audio and video with its files (attachment_price, price_ids); we sell only the
 * files apart (order type 7). On a thread not paid as a whole they are free now: the report says so.
 */
function soldApartNote(ctx: BatchContext, facts: BatchFacts, threadId: number, type: number, priceIds: number[]): void {
  if (type === ThreadPart.FILES || priceIds.length === 0 || facts.threads.get(threadId)?.priceCents !== 0) return;
  if (int(facts.memos.get(attachmentPriceKey(threadId))) <= 0) return;
  ctx.run.note(
    `Thread ${threadId}: its part ${type} was sold with its attachments; only files are sold apart here, so it is free now.`,
  );
}

const PLUGIN_NOTED = 'notedPluginParts';
const QUESTIONS_NOTED = 'notedQuestionParts';

const threadTomStep: TableStep = {
  kind: 'table',
  table: 'thread_tom',
  key: ['id'],
  optional: true,
  async write(rows, ctx) {
    const known = await ctx.run.ids('threads');
    const live: { r: DzqRow; threadId: number; type: number; value: Record<string, unknown> }[] = [];
    for (const r of rows) {
      const threadId = int(r.thread_id);
      const tomType = str(r.tom_type).trim();
      const type = /^\d{1,9}$/.test(tomType) ? Number(tomType) : NaN;
      if (int(r.status) === -1) ctx.skip('part removed');
      else if (!known.has(threadId)) ctx.skip('thread missing');
      else if (type === 105) {
        ctx.skip('question part (no counterpart)');
        const named = (ctx.run.memo.get(QUESTIONS_NOTED) as number | undefined) ?? 0;
        ctx.run.memo.set(QUESTIONS_NOTED, named + 1);
        if (named < NAMED_QUESTIONS_MAX) {
          ctx.run.note(`Thread ${threadId}: its question part (105, 问答) has no counterpart here and was left out.`);
        }
      } else if (!Object.values(ThreadPart).includes(type as (typeof ThreadPart)[keyof typeof ThreadPart])) {
        ctx.skip('plugin part (no counterpart)');
        const noted = (ctx.run.memo.get(PLUGIN_NOTED) as Set<string> | undefined) ?? new Set<string>();
        ctx.run.memo.set(PLUGIN_NOTED, noted);
        if (!noted.has(tomType)) {
          noted.add(tomType);
          ctx.run.note(`Thread parts of type "${tomType}" (a plugin's) have no counterpart here and were left out.`);
        }
      } else live.push({ r, threadId, type, value: asRecord(json(r.value)) });
    }
    const facts = await factsOf(ctx, live);
    const parts: { part: PartRow; r: DzqRow }[] = [];
    const additions = new Map<number, string[]>();
    const links = new Map<number, number>();
    for (const { r, threadId, type, value } of live) {
      const key = `${threadId}:${type}`;
      if (facts.held.has(key)) {
        ctx.skip('second part of the same type');
        continue;
      }
      const priceIds = idList(json(r.price_ids));
      const mapped = partOf(facts, threadId, type, value, priceIds);
      if (typeof mapped === 'string') {
        ctx.skip(mapped);
        continue;
      }
      soldApartNote(ctx, facts, threadId, type, priceIds);
      const firstPostId = facts.threads.get(threadId)?.firstPostId ?? null;
      if (mapped.markdown && mapped.markdown.length > 0) {
        if (firstPostId === null) {
          if (!mapped.part) {
            ctx.skip('thread without its first post');
            continue;
          }
        } else additions.set(firstPostId, [...(additions.get(firstPostId) ?? []), ...mapped.markdown]);
      }
      if (mapped.part) {
        facts.held.add(key);
        parts.push({ part: mapped.part, r });
        // A part's uploads belong to the thread's first post, as a part written here links them (media/own-attachments).
        if (firstPostId !== null) {
          const v = asRecord(mapped.part.value);
          for (const id of [...idList(v.imageIds), ...idList(v.docIds), ...idList(v.attachmentId)])
            links.set(id, firstPostId);
        }
      }
      ctx.wrote();
    }
    await insertChunks(parts, (chunk) =>
      ctx.db
        .insertInto('threadParts')
        .values(
          chunk.map(({ part, r }) => {
            const created = timeOr(r.created_at, ctx.run.startedAt);
            return {
              threadId: part.threadId,
              type: part.type,
              value: JSON.stringify(part.value),
              priceIds: JSON.stringify(part.priceIds),
              createdAt: created,
              updatedAt: timeOr(r.updated_at, created),
            };
          }),
        )
        .execute(),
    );
    const byPost = new Map<number, number[]>();
    for (const [id, postId] of links) byPost.set(postId, [...(byPost.get(postId) ?? []), id]);
    for (const [postId, ids] of byPost) {
      await ctx.db.updateTable('attachments').set({ postId }).where('id', 'in', ids).execute();
    }
    await appendToFirstPosts(ctx, additions);
  },
};

/** Vote counts from the ballots that came over; the memo rows the parts needed go. */
const partsFinal: FinalStep = {
  kind: 'final',
  name: 'parts',
  async run(db) {
    await inTransaction(db, async (trx) => {
      await sql`update thread_vote_subitems set
        vote_count = (select count(*) from thread_vote_users u where u.thread_vote_subitem_id = thread_vote_subitems.id)`.execute(
        trx,
      );
      await sql`update thread_votes set
        vote_users = (select count(distinct u.user_id) from thread_vote_users u where u.thread_vote_id = thread_votes.id)`.execute(
        trx,
      );
      for (const prefix of MEMO_PREFIXES) {
        await trx.deleteFrom('legacyRedirects').where('path', 'like', `${prefix}%`).execute();
      }
    });
  },
};

/**
 * In IMPORT_STEPS after contentSteps (threads, posts, attachments) and before countersStep; the money step (red
 * packets, bounties) may run before or after: the parts name its rows by their kept ids only.
 */
export const partsSteps: Step[] = [...partDetailSteps, threadTomStep, partsFinal];

import { GOODS_PRICE_MAX_CENTS } from '@luntan/shared';
import { insertChunks, type BatchContext, type TableStep } from '../steps.js';
import { cents, int, str, time, timeOr } from '../values.js';

/*
 * The detail tables thread_tom names by id (steps/parts.ts explains why they come first): Tencent VOD media and
 * products as memo rows of legacy_redirects, votes with their options and ballots in our vote tables (ids kept).
 */

/** The memo of a thread_video row: its playing address. */
export const videoKey = (id: number): string => `dzq:thread_video:${id}`;
/** The memo of a post_goods row: the product card's fields (JSON). */
export const goodsKey = (id: number): string => `dzq:goods:${id}`;
/** Memo rows the final step removes. */
export const MEMO_PREFIXES = ['dzq:thread_video:', 'dzq:goods:', 'dzq:attachment-price:'];

export const isHttp = (url: string): boolean => /^https?:\/\/[^\s]+$/i.test(url);

async function remember(ctx: BatchContext, memos: { path: string; target: string }[]): Promise<void> {
  await insertChunks(memos, (chunk) =>
    ctx.db
      .insertInto('legacyRedirects')
      .values(chunk)
      .onConflict((oc) => oc.column('path').doUpdateSet((eb) => ({ target: eb.ref('excluded.target') })))
      .execute(),
  );
}

/** legacy_redirects targets by path. */
export async function recall(ctx: BatchContext, paths: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const unique = [...new Set(paths)];
  for (let i = 0; i < unique.length; i += 500) {
    const found = await ctx.db
      .selectFrom('legacyRedirects')
      .select(['path', 'target'])
      .where('path', 'in', unique.slice(i, i + 500))
      .execute();
    for (const f of found) out.set(f.path, f.target);
  }
  return out;
}

/**
 * Tencent VOD audio and video (thread_video): we cannot fetch the media (the VOD account is the old site's), so the
 * part plays it from its address. The cover (cover_url) is left: our poster is an uploaded image, never an address.
 */
const threadVideoStep: TableStep = {
  kind: 'table',
  table: 'thread_video',
  key: ['id'],
  optional: true,
  async write(rows, ctx) {
    const memos = [];
    for (const r of rows) {
      const url = str(r.media_url).trim();
      if (!isHttp(url) || url.length > 1000) {
        ctx.skip('no playing address (not transcoded)');
        continue;
      }
      memos.push({ path: videoKey(int(r.id)), target: url });
    }
    await remember(ctx, memos);
    ctx.wrote(memos.length);
  },
};

export interface GoodsValue {
  title: string;
  priceCents: number | null;
  imagePath: string;
  detailContent: string;
  type: number;
}

/** A product card's fields from a post_goods row or a part's value (snake or camel case), or why not. */
export function goodsOf(v: Record<string, unknown>): GoodsValue | string {
  const text = (...names: string[]) => {
    for (const n of names) if (typeof v[n] === 'string' || typeof v[n] === 'number') return String(v[n]).trim();
    return '';
  };
  const title = text('title').slice(0, 200);
  const detailContent = text('detail_content', 'detailContent');
  if (title === '') return 'goods without a title';
  if (!isHttp(detailContent)) return 'goods without a product address';
  const imagePath = text('image_path', 'imagePath');
  const price = text('price');
  const priceCents = /^\d+(\.\d*)?$/.test(price) ? Math.min(cents(price), GOODS_PRICE_MAX_CENTS) : null;
  const type = int(text('type'), 99);
  return {
    title,
    priceCents,
    imagePath: isHttp(imagePath) ? imagePath : '',
    detailContent,
    type: type >= 0 && type <= 99 ? type : 99,
  };
}

const postGoodsStep: TableStep = {
  kind: 'table',
  table: 'post_goods',
  key: ['id'],
  optional: true,
  async write(rows, ctx) {
    const memos = [];
    for (const r of rows) {
      if (time(r.deleted_at) !== null) {
        ctx.skip('goods deleted');
        continue;
      }
      const goods = goodsOf(r);
      if (typeof goods === 'string') {
        ctx.skip(goods);
        continue;
      }
      const target = JSON.stringify(goods);
      if (target.length > 1000) {
        ctx.skip('goods address too long');
        continue;
      }
      memos.push({ path: goodsKey(int(r.id)), target });
    }
    await remember(ctx, memos);
    ctx.wrote(memos.length);
  },
};

const threadVotesStep: TableStep = {
  kind: 'table',
  table: 'thread_votes',
  key: ['id'],
  optional: true,
  async write(rows, ctx) {
    const [threads, votes] = await Promise.all([ctx.run.ids('threads'), ctx.run.ids('votes')]);
    const values = [];
    for (const r of rows) {
      const threadId = int(r.thread_id);
      if (time(r.deleted_at) !== null) ctx.skip('vote deleted');
      else if (!threads.has(threadId)) ctx.skip('thread missing');
      else {
        const created = timeOr(r.created_at, ctx.run.startedAt);
        values.push({
          id: int(r.id),
          threadId,
          voteTitle: str(r.vote_title).slice(0, 255),
          choiceType: int(r.choice_type) === 2 ? 2 : 1,
          // Counted again from the ballots by the final step.
          voteUsers: 0,
          // A vote with no end (never written by v3) ends when the site moved.
          expiredAt: timeOr(r.expired_at, ctx.run.startedAt),
          createdAt: created,
          updatedAt: timeOr(r.updated_at, created),
        });
      }
    }
    await insertChunks(values, (chunk) => ctx.db.insertInto('threadVotes').values(chunk).execute());
    for (const v of values) votes.add(v.id);
    ctx.wrote(values.length);
  },
};

const voteSubitemsStep: TableStep = {
  kind: 'table',
  table: 'thread_vote_subitems',
  key: ['id'],
  optional: true,
  async write(rows, ctx) {
    const votes = await ctx.run.ids('votes');
    const values = [];
    for (const r of rows) {
      if (time(r.deleted_at) !== null) ctx.skip('option deleted');
      else if (!votes.has(int(r.thread_vote_id))) ctx.skip('vote missing');
      else {
        const created = timeOr(r.created_at, ctx.run.startedAt);
        values.push({
          id: int(r.id),
          threadVoteId: int(r.thread_vote_id),
          content: str(r.content).slice(0, 255),
          voteCount: 0,
          createdAt: created,
          updatedAt: timeOr(r.updated_at, created),
        });
      }
    }
    await insertChunks(values, (chunk) => ctx.db.insertInto('threadVoteSubitems').values(chunk).execute());
    ctx.wrote(values.length);
  },
};

/** Ballots: one row per option a member chose, numbered per member and vote in the order they were written. */
const voteUsersStep: TableStep = {
  kind: 'table',
  table: 'thread_vote_users',
  key: ['id'],
  optional: true,
  async write(rows, ctx) {
    const users = await ctx.run.ids('users');
    const subitemIds = [...new Set(rows.map((r) => int(r.thread_vote_subitem_id)))];
    const options = new Map<number, { voteId: number; threadId: number; choiceType: number }>();
    for (let i = 0; i < subitemIds.length; i += 500) {
      const found = await ctx.db
        .selectFrom('threadVoteSubitems as s')
        .innerJoin('threadVotes as v', 'v.id', 's.threadVoteId')
        .select(['s.id', 's.threadVoteId', 'v.threadId', 'v.choiceType'])
        .where('s.id', 'in', subitemIds.slice(i, i + 500))
        .execute();
      for (const f of found)
        options.set(f.id, { voteId: f.threadVoteId, threadId: f.threadId, choiceType: f.choiceType });
    }
    // Choices already written for these members and votes (an earlier batch), so positions continue.
    const taken = new Map<string, number>();
    const chosen = new Set<string>();
    const voteIds = [...new Set([...options.values()].map((o) => o.voteId))];
    const userIds = [...new Set(rows.map((r) => int(r.user_id)))].filter((id) => users.has(id));
    if (voteIds.length > 0 && userIds.length > 0) {
      const earlier = await ctx.db
        .selectFrom('threadVoteUsers')
        .select(['threadVoteId', 'userId', 'threadVoteSubitemId'])
        .where('threadVoteId', 'in', voteIds)
        .where('userId', 'in', userIds)
        .execute();
      for (const e of earlier) {
        const k = `${e.threadVoteId}:${e.userId}`;
        taken.set(k, (taken.get(k) ?? 0) + 1);
        chosen.add(`${e.userId}:${e.threadVoteSubitemId}`);
      }
    }
    const values = [];
    for (const r of rows) {
      const userId = int(r.user_id);
      const subitemId = int(r.thread_vote_subitem_id);
      const option = options.get(subitemId);
      const k = option ? `${option.voteId}:${userId}` : '';
      if (!option) ctx.skip('option missing');
      else if (!users.has(userId)) ctx.skip('user missing');
      else if (chosen.has(`${userId}:${subitemId}`)) ctx.skip('same choice twice');
      else if (option.choiceType === 1 && (taken.get(k) ?? 0) > 0) ctx.skip('second choice on a single-choice vote');
      else {
        const position = taken.get(k) ?? 0;
        taken.set(k, position + 1);
        chosen.add(`${userId}:${subitemId}`);
        values.push({
          id: int(r.id),
          userId,
          threadId: option.threadId,
          threadVoteId: option.voteId,
          threadVoteSubitemId: subitemId,
          position,
          createdAt: timeOr(r.created_at, ctx.run.startedAt),
        });
      }
    }
    await insertChunks(values, (chunk) => ctx.db.insertInto('threadVoteUsers').values(chunk).execute());
    ctx.wrote(values.length);
  },
};

/** In this order, before thread_tom. */
export const partDetailSteps: TableStep[] = [
  threadVideoStep,
  postGoodsStep,
  threadVotesStep,
  voteSubitemsStep,
  voteUsersStep,
];

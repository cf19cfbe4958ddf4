import type { Faker } from '@faker-js/faker';
import { UserStatus } from '@luntan/shared';
import type { Insertable, Kysely } from 'kysely';
import { now } from '../core/time.js';
import type { DialectName } from '../db/database.js';
import type {
  DB,
  PostLikesTable,
  PostMentionsTable,
  PostsTable,
  ThreadFavoritesTable,
  ThreadsTable,
  ThreadViewsDailyTable,
} from '../db/schema.js';
import { hashPassword } from '../modules/users/index.js';
import { insertCategory, listCategories } from '../modules/categories/index.js';
import { addUserToGroup, findDefaultGroup } from '../modules/groups/index.js';
import type { MentionTarget } from '../modules/content/index.js';
import { insertReplyIndex, type ReplyIndexEntry } from '../modules/search/index.js';
import { insertThreadIndex, type ThreadIndexEntry } from '../modules/search/index.js';
import { insertUser, normalizeUsername } from '../modules/users/index.js';
import { DEMO_CATEGORIES, type Lang } from './demo-content.js';
import { demoUserProfiles } from './demo-users.js';

/*
 * What the demo seeder stands on: the demo categories and user pool (made once, reused by later runs), weighted
 * random picks, and the writing of one batch of rows with its index entries and counter increments in a transaction.
 * What the rows are: demo-seeder.ts.
 */

export const DEMO_PASSWORD = 'luntan-demo';

const SQLITE_MAX_PARAMS = 30_000;
const POSTGRES_MAX_PARAMS = 60_000;

export interface DemoUser {
  id: number;
  username: string;
  lang: Lang;
}

export interface UserDelta {
  threadCount: number;
  postCount: number;
  likedCount: number;
}

export interface Batch {
  threads: Insertable<ThreadsTable>[];
  posts: Insertable<PostsTable>[];
  likes: Insertable<PostLikesTable>[];
  favorites: Insertable<ThreadFavoritesTable>[];
  mentions: Insertable<PostMentionsTable>[];
  views: Insertable<ThreadViewsDailyTable>[];
  index: ThreadIndexEntry[];
  replyIndex: ReplyIndexEntry[];
  categories: Map<number, number>;
  users: Map<number, UserDelta>;
}

/** Picks an index with probability proportional to its weight (binary search over the running sums). */
export function weightedPicker(f: Faker, weights: number[]): () => number {
  const sums: number[] = [];
  let total = 0;
  for (const w of weights) sums.push((total += w));
  return () => {
    const x = f.number.float({ min: 0, max: total });
    let lo = 0;
    let hi = sums.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sums[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/** Splits `total` over `weights` exactly: proportional shares, the rounding left-overs to random entries. */
export function splitExactly(f: Faker, total: number, weights: number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum === 0) return weights.map(() => 0);
  const counts = weights.map((w) => Math.floor((total * w) / sum));
  let left = total - counts.reduce((a, b) => a + b, 0);
  const eligible = weights.flatMap((w, i) => (w > 0 ? [i] : []));
  while (left > 0) {
    counts[f.helpers.arrayElement(eligible)]! += 1;
    left -= 1;
  }
  return counts;
}

export async function ensureCategories(db: Kysely<DB>): Promise<Map<string, number>> {
  const at = now();
  const ids = new Map((await listCategories(db)).map((c) => [c.name, c.id]));
  for (const [sort, c] of DEMO_CATEGORIES.entries()) {
    if (ids.has(c.name)) continue;
    const parentId = c.parent ? (ids.get(c.parent) ?? 0) : 0;
    const id = await insertCategory(db, {
      name: c.name,
      description: c.description,
      icon: '',
      sort: sort + 1,
      parentId,
      createdAt: at,
      updatedAt: at,
    });
    ids.set(c.name, id);
  }
  return ids;
}

export async function ensureUsers(db: Kysely<DB>, count: number): Promise<DemoUser[]> {
  const profiles = demoUserProfiles(count);
  const existing = new Map(
    (await db.selectFrom('users').select(['id', 'usernameNormalized']).execute()).map((u) => [
      u.usernameNormalized,
      u.id,
    ]),
  );
  const missing = profiles.filter((p) => !existing.has(normalizeUsername(p.username)));
  if (missing.length > 0) {
    const passwordHash = await hashPassword(DEMO_PASSWORD);
    const group = await findDefaultGroup(db);
    const at = now();
    await db.transaction().execute(async (trx) => {
      for (const p of missing) {
        const id = await insertUser(trx, {
          username: p.username,
          usernameNormalized: normalizeUsername(p.username),
          nickname: p.nickname,
          passwordHash,
          avatar: '',
          signature: '',
          status: UserStatus.NORMAL,
          rejectReason: '',
          registerIp: '127.0.0.1',
          lastLoginIp: '',
          lastLoginAt: null,
          createdAt: at,
          updatedAt: at,
        });
        if (group) await addUserToGroup(trx, id, group.id);
        existing.set(normalizeUsername(p.username), id);
      }
    });
  }
  return profiles.map((p) => ({
    id: existing.get(normalizeUsername(p.username))!,
    username: p.username,
    lang: p.lang,
  }));
}

/** Every user name → user, for resolving mentions exactly as `findMentionTargets` would. */
export async function mentionDirectory(db: Kysely<DB>): Promise<Map<string, MentionTarget>> {
  const rows = await db.selectFrom('users').select(['id', 'username', 'usernameNormalized']).execute();
  return new Map(rows.map((r) => [r.usernameNormalized, { id: r.id, username: r.username }]));
}

export async function insertChunked<T extends keyof DB & string>(
  db: Kysely<DB>,
  dialect: DialectName,
  table: T,
  rows: Insertable<DB[T]>[],
): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]!).length;
  const size = Math.max(1, Math.floor((dialect === 'postgres' ? POSTGRES_MAX_PARAMS : SQLITE_MAX_PARAMS) / columns));
  for (let i = 0; i < rows.length; i += size) {
    // The table's row type is generic here; Kysely checks the concrete calls.
    await db
      .insertInto(table)
      .values(rows.slice(i, i + size) as never)
      .execute();
  }
}

export async function writeBatch(db: Kysely<DB>, dialect: DialectName, b: Batch): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await insertChunked(trx, dialect, 'threads', b.threads);
    await insertChunked(trx, dialect, 'posts', b.posts);
    await insertChunked(trx, dialect, 'postLikes', b.likes);
    await insertChunked(trx, dialect, 'threadFavorites', b.favorites);
    await insertChunked(trx, dialect, 'postMentions', b.mentions);
    await insertChunked(trx, dialect, 'threadViewsDaily', b.views);
    await insertThreadIndex(trx, dialect, b.index);
    await insertReplyIndex(trx, dialect, b.replyIndex);
    for (const [id, delta] of [...b.categories].sort((x, y) => x[0] - y[0])) {
      await trx
        .updateTable('categories')
        .set((eb) => ({ threadCount: eb('threadCount', '+', delta) }))
        .where('id', '=', id)
        .execute();
    }
    for (const [id, d] of [...b.users].sort((x, y) => x[0] - y[0])) {
      await trx
        .updateTable('users')
        .set((eb) => ({
          threadCount: eb('threadCount', '+', d.threadCount),
          postCount: eb('postCount', '+', d.postCount),
          likedCount: eb('likedCount', '+', d.likedCount),
        }))
        .where('id', '=', id)
        .execute();
    }
  });
}

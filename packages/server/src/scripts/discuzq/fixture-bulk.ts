/*
 * A large Discuz! Q site for the import bench (100k threads / 1M posts): INSERT statements produced as a stream of
 * extended inserts of about 1000 rows each, so memory stays flat however large the site. Ids start at BULK_ID_BASE + 1
 * so the rows can sit beside the small fixture's (ids below 1000) in the same database.
 */
import bcrypt from 'bcryptjs';
import { mysqlDate, renderRow, type SqlRow } from './fixture-sql.js';

export const BULK_ID_BASE = 1000;
export const BULK_PASSWORD = 'bench-pass-123';
const ROWS_PER_INSERT = 1000;

export interface BulkOptions {
  threads: number;
  postsPerThread: number;
  users: number;
  seed?: number;
}

/** mulberry32: a small seeded generator, so two runs with one seed produce the same site. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PHRASES = [
  '今天天气不错，出去扫街拍了几张',
  '新手求助，光圈和快门怎么配合',
  '分享一组旅行照片:weixiao:',
  '这个镜头的焦外真的很柔和',
  '后期调色用的是 Lightroom 预设',
  '周末有没有一起去拍日出的',
  '三脚架推荐哪个牌子比较稳',
  '感谢楼主分享，学到了',
  '构图再往左一点会更好',
  '顶一下，期待更多作品:guzhang:',
];

/** Rows of one table as extended INSERT statements of ROWS_PER_INSERT rows, built lazily. */
async function* inserts(table: string, count: number, row: (i: number) => SqlRow): AsyncGenerator<string> {
  for (let start = 0; start < count; start += ROWS_PER_INSERT) {
    const end = Math.min(count, start + ROWS_PER_INSERT);
    const values: string[] = [];
    for (let i = start; i < end; i++) values.push(renderRow(table, row(i)));
    yield `INSERT INTO \`${table}\` VALUES\n${values.join(',\n')};\n`;
  }
}

/**
 * The bench site: `users` members (password BULK_PASSWORD), `threads` threads in the default category, each with a
 * first post and `postsPerThread - 1` replies, and a like on every third post. Yields chunks of SQL text.
 */
export async function* generateBulkSql(opts: BulkOptions): AsyncGenerator<string> {
  const { threads, users } = opts;
  const postsPerThread = Math.max(1, opts.postsPerThread);
  const rand = random(opts.seed ?? 1);
  const hash = `$2y$${(await bcrypt.hash(BULK_PASSWORD, 10)).slice(4)}`;
  const start = Date.UTC(2021, 0, 1);
  const date = (minutes: number) => mysqlDate(new Date(start + minutes * 60_000));
  const userId = (i: number) => BULK_ID_BASE + 1 + (i % Math.max(1, users));
  const text = () => `<p>${PHRASES[Math.floor(rand() * PHRASES.length)] ?? ''}</p>`;

  yield '/*!40101 SET NAMES utf8mb4 */;\n/*!40014 SET FOREIGN_KEY_CHECKS=0, UNIQUE_CHECKS=0 */;\n';
  yield* inserts('users', users, (i) => ({
    id: BULK_ID_BASE + 1 + i,
    username: `bench_${i + 1}`,
    nickname: `测试用户${i + 1}`,
    password: hash,
    created_at: date(i),
    updated_at: date(i),
  }));
  yield* inserts('group_user', users, (i) => ({ group_id: 10, user_id: BULK_ID_BASE + 1 + i }));
  yield* inserts('threads', threads, (i) => ({
    id: BULK_ID_BASE + 1 + i,
    user_id: userId(i),
    last_posted_user_id: userId(i + postsPerThread - 1),
    category_id: 1,
    title: `${(PHRASES[i % PHRASES.length] ?? '').replace(/:\w+:/g, '')} #${i + 1}`,
    post_count: postsPerThread - 1,
    view_count: Math.floor(rand() * 500),
    address: '',
    location: '',
    posted_at: date(i * 10 + postsPerThread),
    created_at: date(i * 10),
    updated_at: date(i * 10),
    issue_at: date(i * 10),
  }));
  const totalPosts = threads * postsPerThread;
  yield* inserts('posts', totalPosts, (i) => {
    const threadIndex = Math.floor(i / postsPerThread);
    const n = i % postsPerThread;
    return {
      id: BULK_ID_BASE + 1 + i,
      user_id: userId(threadIndex + n),
      thread_id: BULK_ID_BASE + 1 + threadIndex,
      content: text(),
      ip: '127.0.0.1',
      like_count: i % 3 === 0 ? 1 : 0,
      is_first: n === 0 ? 1 : 0,
      created_at: date(threadIndex * 10 + n),
      updated_at: date(threadIndex * 10 + n),
    };
  });
  yield* inserts('post_user', Math.ceil(totalPosts / 3), (i) => ({
    post_id: BULK_ID_BASE + 1 + i * 3,
    user_id: userId(i + 1),
    created_at: date(i),
  }));
  yield '/*!40014 SET FOREIGN_KEY_CHECKS=1, UNIQUE_CHECKS=1 */;\n';
}

/*
 * A realistic Discuz! Q v3 site to import, for tests and the bench: rows added to a fresh install database (fixed ids,
 * Chinese text, values as v3 stores them), a fake site directory with the files those rows name, and what an import
 * must produce from them. Also the helpers that load it into MariaDB or write it as a dump file.
 */
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import bcrypt from 'bcryptjs';
import mysql from 'mysql2/promise';
import sharp from 'sharp';
import type { FixtureExpectations } from './fixture-expect.js';
import { pdfBytes, writeBytes, writeImages, type FixtureImage } from './fixture-files.js';
import { ATTACHMENT_DIR, ATTACHMENT_NAMES, FIXTURE_SETTINGS, STORAGE, fixtureRows, thumbName } from './fixture-rows.js';
import { readInstallSql, renderInsert, withPrefix } from './fixture-sql.js';

export type { FixtureExpectations } from './fixture-expect.js';
export { readInstallSql, withPrefix } from './fixture-sql.js';
export { generateBulkSql } from './fixture-bulk.js';

export interface DzqFixture {
  /** INSERT statements (MySQL syntax, backticked table names, no prefix) that add rows to a fresh install database. */
  sql: string;
  /**
   * The fake site's `storage` directory (`<dir>/site/storage`): it holds `app/public/{attachments,avatars,background}/...`
   * as a v3 site's does, so a local attachment is `storageDir/app/` + `file_path` + `attachment`.
   */
  storageDir: string;
  expect: FixtureExpectations;
}

/** PHP's password_hash writes `$2y$`; bcryptjs writes `$2b$` for the same algorithm. */
export async function phpBcrypt(plain: string): Promise<string> {
  const hash = await bcrypt.hash(plain, 10);
  return `$2y$${hash.slice(4)}`;
}

const PASSWORDS = ['admin-pass-123', 'alice-pass-123', 'bob-pass-123', 'carol-pass-123', 'dave-pass-123', '135790'];

const PUBLIC = `${STORAGE}public/`;
const IMAGES: FixtureImage[] = [
  {
    path: `${STORAGE}${ATTACHMENT_DIR}${ATTACHMENT_NAMES.postImage}`,
    format: 'png',
    width: 64,
    height: 48,
    color: { r: 230, g: 120, b: 40 },
  },
  {
    path: `${STORAGE}${ATTACHMENT_DIR}${thumbName(ATTACHMENT_NAMES.postImage)}`,
    format: 'png',
    width: 32,
    height: 24,
    color: { r: 230, g: 120, b: 40 },
  },
  {
    path: `${STORAGE}${ATTACHMENT_DIR}${ATTACHMENT_NAMES.paidImage}`,
    format: 'jpeg',
    width: 80,
    height: 60,
    color: { r: 20, g: 30, b: 90 },
  },
  {
    path: `${STORAGE}${ATTACHMENT_DIR}${thumbName(ATTACHMENT_NAMES.paidImage)}`,
    format: 'jpeg',
    width: 40,
    height: 30,
    color: { r: 20, g: 30, b: 90 },
  },
  {
    path: `${STORAGE}${ATTACHMENT_DIR}${ATTACHMENT_NAMES.messageImage}`,
    format: 'jpeg',
    width: 80,
    height: 60,
    color: { r: 60, g: 160, b: 90 },
  },
  {
    path: `${STORAGE}${ATTACHMENT_DIR}${thumbName(ATTACHMENT_NAMES.messageImage)}`,
    format: 'jpeg',
    width: 40,
    height: 30,
    color: { r: 60, g: 160, b: 90 },
  },
  { path: `${PUBLIC}avatars/000/00/00/01.png`, format: 'png', width: 48, height: 48, color: { r: 200, g: 40, b: 40 } },
  {
    path: `${PUBLIC}avatars/000/00/00/02.png`,
    format: 'png',
    width: 48,
    height: 48,
    color: { r: 240, g: 180, b: 200 },
  },
  {
    path: `${PUBLIC}background/000/00/00/02.jpg`,
    format: 'jpeg',
    width: 120,
    height: 40,
    color: { r: 90, g: 120, b: 200 },
  },
];
const PDF_PATH = `${STORAGE}${ATTACHMENT_DIR}${ATTACHMENT_NAMES.paidFile}`;

/** Emoji images written under public/emoji/qq/ (the fixture's posts use these codes). */
const EMOJI_FILES: [string, { r: number; g: number; b: number }][] = [
  ['weixiao', { r: 250, g: 200, b: 40 }],
  ['guzhang', { r: 240, g: 120, b: 60 }],
];

const emojiGif = (background: { r: number; g: number; b: number }) =>
  sharp({ create: { width: 24, height: 24, channels: 3, background } })
    .gif()
    .toBuffer();

/** Builds the fixture under `dir` (its site files in `dir/site/storage`) and returns its SQL and expectations. */
export async function buildDzqFixture(dir: string): Promise<DzqFixture> {
  const siteDir = join(dir, 'site');
  await rm(siteDir, { recursive: true, force: true });
  await mkdir(siteDir, { recursive: true });
  const sizes = await writeImages(siteDir, IMAGES);
  sizes.set(PDF_PATH, await writeBytes(siteDir, PDF_PATH, pdfBytes('Night photography cheat sheet')));
  // The emoji images a v3 site ships in its public/ folder (the `emoji` rows name them): two of the 92.
  for (const [code, color] of EMOJI_FILES)
    await writeBytes(siteDir, `public/emoji/qq/${code}.gif`, await emojiGif(color));
  const storageDir = join(siteDir, 'storage');

  const hashes: Record<string, string> = {};
  for (const plain of PASSWORDS) hashes[plain] = await phpBcrypt(plain);

  const tables = fixtureRows({ hashes, sizes, now: new Date() });
  // Orphans point at rows that do not exist, as on a site whose rows were removed by hand: the dump's own
  // FOREIGN_KEY_CHECKS=0 idiom lets them in.
  const sql = [
    '/*!40101 SET NAMES utf8mb4 */;',
    '/*!40014 SET @FIXTURE_FOREIGN_KEY_CHECKS=@@FOREIGN_KEY_CHECKS, FOREIGN_KEY_CHECKS=0 */;',
    ...tables.map(([table, rows, verb]) => renderInsert(table, rows, verb)),
    '/*!40014 SET FOREIGN_KEY_CHECKS=@FIXTURE_FOREIGN_KEY_CHECKS */;',
    '',
  ].join('\n');

  const files = IMAGES.map((i) => i.path)
    .concat(PDF_PATH)
    .map((p) => p.slice('storage/'.length));
  return { sql, storageDir, expect: expectations(files) };
}

function expectations(files: string[]): FixtureExpectations {
  return {
    users: {
      total: 6,
      admin: { id: 1, username: 'admin', nickname: '站长', password: 'admin-pass-123', payPassword: '' },
      alice: { id: 2, username: 'alice', nickname: '爱丽丝', password: 'alice-pass-123', payPassword: '135790' },
      bob: { id: 3, username: 'bob', nickname: '鲍勃', password: 'bob-pass-123', payPassword: '' },
      wechat: {
        id: 4,
        username: 'wx_8f3a2c7d',
        nickname: '微信用户小明',
        password: '',
        payPassword: '',
        mpOpenid: 'oAbCd1234567890EfGhIjKlMnOp',
        unionid: 'o6_bmasdasdsad6_2sgVt7hMZOPfL',
        avatarUrl: 'https://thirdwx.qlogo.cn/mmopen/vi_32/Q0j4TwGTfTKlbnhfDq1Ljd6Hc2ibh4UoTkxjicWg/132',
      },
      banned: { id: 5, username: 'carol', nickname: '卡萝', password: 'carol-pass-123', payPassword: '' },
      pending: {
        id: 6,
        username: 'dave',
        nickname: '大卫',
        password: 'dave-pass-123',
        payPassword: '',
        registerReason: '想和大家交流摄影技巧，我是风光摄影爱好者',
      },
      statusById: { 1: 0, 2: 0, 3: 0, 4: 0, 5: 1, 6: 2 },
      avatars: { local: [1, 2], cos: [3], url: [4] },
      backgrounds: { local: [2] },
    },
    groups: { added: 1, paidGroupId: 11, memberships: 7, paidMemberships: 1 },
    categories: { total: 3, children: [{ id: 3, parentId: 2 }] },
    threads: {
      total: 12,
      visible: 9,
      softDeleted: 1,
      drafts: 1,
      unapproved: 1,
      anonymous: 1,
      sticky: 1,
      essence: 1,
      paid: [{ id: 3, priceCents: 990, attachmentPriceCents: 200, freeWords: 0.3 }],
      withPosition: [
        {
          id: 4,
          longitude: '116.3975220',
          latitude: '39.9087230',
          address: '北京市东城区东长安街',
          location: '天安门广场',
        },
      ],
      partsByType: { '101': 3, '102': 1, '103': 1, '104': 1, '106': 1, '107': 1, '108': 1, '109': 1 },
    },
    posts: { total: 21, firstPosts: 12, replies: 9, comments: 2, softDeleted: 2, unapproved: 2, legacyXml: [6, 19] },
    likes: 6,
    favourites: 3,
    follows: 3,
    mutualFollowPairs: 1,
    blocks: 1,
    dialogs: 2,
    messages: 4,
    topics: 2,
    threadTopics: 2,
    attachments: { total: 6, local: 5, remote: 1, missingFile: [5], files },
    votes: { votes: 1, options: 3, voters: 3 },
    orders: {
      total: 9,
      byStatus: { 0: 1, 1: 6, 2: 1, 10: 1 },
      byType: { 1: 1, 2: 1, 3: 2, 4: 1, 7: 1, 9: 1, 10: 1, 30: 1 },
    },
    wallets: {
      count: 4,
      availableCents: 12_560,
      freezeCents: 3_000,
      byUser: {
        1: { availableCents: 0, freezeCents: 0 },
        2: { availableCents: 12_050, freezeCents: 3_000 },
        3: { availableCents: 510, freezeCents: 0 },
        4: { availableCents: 0, freezeCents: 0 },
      },
      logs: 9,
      // Alice's logs add up to 89.90 available and 30.00 frozen; her wallet holds 120.50 and 30.00.
      openingBalances: [{ userId: 2, availableCents: 3_060, freezeCents: 0 }],
    },
    withdrawals: 2,
    reports: 2,
    invites: 3,
    stopWords: 3,
    signInFields: { admin: 2, user: 2 },
    notifications: { total: 3, last90Days: 2, older: 1 },
    settings: Object.fromEntries(Object.entries(FIXTURE_SETTINGS).map(([key, [value]]) => [key, value])),
    orphans: {
      posts: [30],
      likes: [
        { postId: 1, userId: 99 },
        { postId: 999, userId: 2 },
      ],
      favourites: [{ threadId: 998, userId: 2 }],
      follows: [{ fromUserId: 2, toUserId: 99 }],
      blocks: [{ userId: 2, denyUserId: 99 }],
      dialogs: [3],
      messages: [5],
      threadTopics: [{ threadId: 997, topicId: 1 }],
    },
  };
}

/** `url` with its path set to database `name`. */
function databaseUrl(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/**
 * Loads the install dump and `sql` into a fresh database `name` on the server at `url` (dropping any database of that
 * name first), every table name given `prefix`. Returns the database's URL.
 */
export async function loadIntoMysql(url: string, name: string, sql: string, prefix = ''): Promise<string> {
  if (!/^\w+$/.test(name)) throw new Error(`not a database name: ${name}`);
  const connection = await mysql.createConnection({
    uri: databaseUrl(url, ''),
    multipleStatements: true,
    charset: 'utf8mb4',
  });
  try {
    await connection.query(`DROP DATABASE IF EXISTS \`${name}\``);
    await connection.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    await connection.query(`USE \`${name}\``);
    await connection.query(withPrefix(readInstallSql(), prefix));
    await connection.query(withPrefix(sql, prefix));
  } finally {
    await connection.end();
  }
  return databaseUrl(url, name);
}

/** Drops a database `loadIntoMysql` made. */
export async function dropMysqlDatabase(url: string, name: string): Promise<void> {
  if (!/^\w+$/.test(name)) throw new Error(`not a database name: ${name}`);
  const connection = await mysql.createConnection({ uri: databaseUrl(url, '') });
  try {
    await connection.query(`DROP DATABASE IF EXISTS \`${name}\``);
  } finally {
    await connection.end();
  }
}

/**
 * Writes the install dump followed by `sql` (a string, or chunks such as generateBulkSql's) as one dump file, gzipped
 * when `gzip`, every table name given `prefix`. Chunks are streamed, so a bench-sized dump never sits in memory.
 */
export async function writeDumpFile(
  file: string,
  sql: string | AsyncIterable<string>,
  gzip: boolean,
  prefix = '',
): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  async function* parts(): AsyncGenerator<string> {
    yield withPrefix(readInstallSql(), prefix);
    if (typeof sql === 'string') {
      yield withPrefix(sql, prefix);
      return;
    }
    for await (const chunk of sql) yield withPrefix(chunk, prefix);
  }
  const source = Readable.from(parts());
  if (gzip) await pipeline(source, createGzip(), createWriteStream(file));
  else await pipeline(source, createWriteStream(file));
}

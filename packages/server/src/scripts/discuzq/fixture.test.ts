import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import bcrypt from 'bcryptjs';
import mysql from 'mysql2/promise';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildDzqFixture,
  dropMysqlDatabase,
  generateBulkSql,
  loadIntoMysql,
  readInstallSql,
  withPrefix,
  writeDumpFile,
  type DzqFixture,
} from './fixture.js';
import { addslashes, phpJsonEncode, quoteSql } from './fixture-sql.js';

const MYSQL_URL = process.env.MYSQL_TEST_URL;

let dir: string;
let fixture: DzqFixture;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dzq-fixture-'));
  fixture = await buildDzqFixture(dir);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('buildDzqFixture', () => {
  it('writes the site files the rows name, and leaves out the one that must be missing', async () => {
    for (const file of fixture.expect.attachments.files) {
      expect(existsSync(join(fixture.storageDir, file)), file).toBe(true);
    }
    const avatar = await sharp(join(fixture.storageDir, 'app/public/avatars/000/00/00/02.png')).metadata();
    expect(avatar.format).toBe('png');
    const pdf = await readFile(
      join(fixture.storageDir, fixture.expect.attachments.files.find((f) => f.endsWith('.pdf')) ?? ''),
    );
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(fixture.sql).toContain('M1ss1ngF1l3Qa2Ws3Ed4Rf5Tg6Yh7Uj8Ik9Ol0Pz.png');
    expect(fixture.expect.attachments.files.some((f) => f.includes('M1ss1ng'))).toBe(false);
  });

  it('stores passwords as PHP bcrypt hashes of the expected plain texts', () => {
    const alice = /\(2,'alice','(\$2y\$10\$[./A-Za-z0-9]{53})','爱丽丝','(\$2y\$10\$[./A-Za-z0-9]{53})'/.exec(
      fixture.sql,
    );
    expect(alice).not.toBeNull();
    expect(bcrypt.compareSync(fixture.expect.users.alice.password, alice?.[1] ?? '')).toBe(true);
    expect(bcrypt.compareSync(fixture.expect.users.alice.payPassword, alice?.[2] ?? '')).toBe(true);
    expect(fixture.sql).toContain("(4,'wx_8f3a2c7d','','微信用户小明'");
  });

  it('writes message texts as v3 does: addslashes over json_encode with escaped slashes and unicode', () => {
    const stored = addslashes(phpJsonEncode({ message_text: '<t>你好</t>', image_url: '' }));
    expect(stored).toBe('{\\"message_text\\":\\"<t>\\\\u4f60\\\\u597d<\\\\/t>\\",\\"image_url\\":\\"\\"}');
  });

  it('quotes strings as mysqldump does', () => {
    expect(quoteSql('a\'b"c\\d\ne\0')).toBe("'a\\'b\\\"c\\\\d\\ne\\0'");
  });
});

describe('withPrefix', () => {
  it('prefixes every table name of the install dump and of the fixture', () => {
    const install = withPrefix(readInstallSql(), 'pre_');
    expect(install.match(/CREATE TABLE `pre_/g)).toHaveLength(74);
    expect(install).not.toMatch(
      /(?:CREATE TABLE|DROP TABLE IF EXISTS|INSERT INTO|LOCK TABLES|ALTER TABLE|REFERENCES) `(?!pre_)/,
    );
    expect(install).toContain(
      'CONSTRAINT `pre_group_user_group_id_foreign` FOREIGN KEY (`group_id`) REFERENCES `pre_groups` (`id`)',
    );
    expect(install).toContain('UNIQUE KEY `pre_users_username_unique` (`username`)');
    // Column names and values are not table names.
    expect(install).toContain('`user_id` bigint(20) unsigned');
    expect(install).toContain("'emoji/qq/kelian.gif'");
    const sql = withPrefix(fixture.sql, 'pre_');
    expect(sql).not.toMatch(/(?:INSERT|REPLACE) INTO `(?!pre_)/);
    expect(sql).toContain('REPLACE INTO `pre_settings`');
    expect(withPrefix(fixture.sql, '')).toBe(fixture.sql);
  });
});

describe('generateBulkSql', () => {
  it('streams extended inserts of at most 1000 rows', async () => {
    let chunks = 0;
    let postRows = 0;
    for await (const chunk of generateBulkSql({ threads: 700, postsPerThread: 3, users: 50, seed: 7 })) {
      chunks++;
      if (chunk.startsWith('INSERT INTO `posts`')) {
        const rows = chunk.trimEnd().split('\n').length - 1;
        expect(rows).toBeLessThanOrEqual(1000);
        postRows += rows;
      }
    }
    expect(postRows).toBe(2100);
    expect(chunks).toBeGreaterThan(5);
  });

  it('writes a gzipped dump file of install + bulk', async () => {
    const file = join(dir, 'bulk.sql.gz');
    await writeDumpFile(file, generateBulkSql({ threads: 20, postsPerThread: 2, users: 5 }), true);
    const text = gunzipSync(await readFile(file)).toString('utf8');
    expect(text).toContain('CREATE TABLE `users`');
    expect(text).toContain("'bench_5'");
    expect((await stat(file)).size).toBeGreaterThan(1000);
  });
});

describe.skipIf(!MYSQL_URL)('loading into MariaDB', () => {
  const url = MYSQL_URL ?? '';
  const suffix = `${process.pid}_${Date.now() % 100_000}`;

  async function count(dbUrl: string, query: string): Promise<number> {
    const connection = await mysql.createConnection({ uri: dbUrl });
    try {
      const [rows] = await connection.query<mysql.RowDataPacket[]>(query);
      return Number(rows[0]?.n);
    } finally {
      await connection.end();
    }
  }

  for (const prefix of ['', 'pre_']) {
    it(`loads install + fixture ${prefix ? `with prefix ${prefix}` : 'without a prefix'}`, async () => {
      const name = `dzq_fixture_${prefix ? 'p' : 'n'}_${suffix}`;
      try {
        const dbUrl = await loadIntoMysql(url, name, fixture.sql, prefix);
        const e = fixture.expect;
        expect(await count(dbUrl, `select count(*) n from ${prefix}users`)).toBe(e.users.total);
        expect(await count(dbUrl, `select count(*) n from ${prefix}threads`)).toBe(e.threads.total);
        expect(
          await count(dbUrl, `select count(*) n from ${prefix}posts p join ${prefix}threads t on t.id = p.thread_id`),
        ).toBe(e.posts.total);
        expect(
          await count(
            dbUrl,
            `select count(*) n from ${prefix}threads where deleted_at is null and is_draft = 0 and is_approved = 1`,
          ),
        ).toBe(e.threads.visible);
        expect(
          await count(
            dbUrl,
            `select count(*) n from ${prefix}post_user l join ${prefix}users u on u.id = l.user_id join ${prefix}posts p on p.id = l.post_id`,
          ),
        ).toBe(e.likes);
        expect(await count(dbUrl, `select count(*) n from ${prefix}thread_tom`)).toBe(
          Object.values(e.threads.partsByType).reduce((a, b) => a + b, 0),
        );
        expect(await count(dbUrl, `select sum(available_amount * 100) n from ${prefix}user_wallets`)).toBe(
          e.wallets.availableCents,
        );
        // The install's settings row was replaced, not duplicated.
        expect(
          await count(dbUrl, `select count(*) n from ${prefix}settings where \`key\` = 'site_mode' and value = 'pay'`),
        ).toBe(1);
        expect(await count(dbUrl, `select count(*) n from ${prefix}groups`)).toBe(6);
        expect(
          await count(
            dbUrl,
            `select count(*) n from ${prefix}notifications where created_at >= now() - interval 90 day`,
          ),
        ).toBe(e.notifications.last90Days);
      } finally {
        await dropMysqlDatabase(url, name);
      }
    });
  }

  it('loads a bulk site beside the fixture', async () => {
    const name = `dzq_fixture_b_${suffix}`;
    let bulk = '';
    for await (const chunk of generateBulkSql({ threads: 300, postsPerThread: 4, users: 20 })) bulk += chunk;
    try {
      const dbUrl = await loadIntoMysql(url, name, fixture.sql + bulk);
      expect(await count(dbUrl, 'select count(*) n from posts')).toBe(22 + 1200);
    } finally {
      await dropMysqlDatabase(url, name);
    }
  });
});

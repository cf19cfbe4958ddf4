import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { createConnection } from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DumpParser } from './dump-parser.js';
import { openDumpSource } from './dump-source.js';
import { openMysqlSource } from './mysql-source.js';
import { SourceError, type DzqRow, type DzqSource, type DzqValue } from './source.js';

/** The database a fresh Discuz! Q v3.0.220113 install creates (a copy of shared/dzq's reference dump). */
const INSTALL_SQL = fileURLToPath(new URL('../../../test-data/discuzq-v3.0.220113-install.sql', import.meta.url));
const MYSQL_URL = process.env.MYSQL_TEST_URL;

/** Every escape MySQL knows, 4-byte emoji, Chinese, raw newlines, NULL, DECIMAL, DOUBLE, BIT, hex, introducers. */
const TRICKY_DUMP = `-- MariaDB dump 10.19
/*!40101 SET NAMES utf8mb4 */;
/*!40103 SET TIME_ZONE='+00:00' */;
DROP TABLE IF EXISTS \`t_escapes\`;
CREATE TABLE \`t_escapes\` (
  \`id\` int(11) NOT NULL,
  \`s\` text DEFAULT NULL COMMENT 'a comment; with a semicolon',
  \`d\` decimal(10,2) DEFAULT NULL,
  \`f\` double DEFAULT NULL,
  \`b\` bit(3) DEFAULT NULL,
  \`raw\` blob DEFAULT NULL,
  \`at\` datetime DEFAULT NULL,
  PRIMARY KEY (\`id\`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;
LOCK TABLES \`t_escapes\` WRITE;
/*!40000 ALTER TABLE \`t_escapes\` DISABLE KEYS */;
INSERT INTO \`t_escapes\` VALUES (1,'a\\0b\\'c\\"d\\be\\nf\\rg\\th\\Zi\\\\j\\%k\\_l',12.50,1.5,b'101',0x616263,'2021-01-30 08:00:00'),
(2,'It''s 😀 中文 /* not a comment */ -- nor this; ',-3.00,-2.5e-3,b'0',_binary 'bin\\'ary',NULL),
(3,'first line
second line',NULL,NULL,NULL,NULL,'0000-00-00 00:00:00');
INSERT INTO \`t_escapes\` (\`s\`, \`id\`) VALUES ('partial',5);
/*!40000 ALTER TABLE \`t_escapes\` ENABLE KEYS */;
UNLOCK TABLES;
CREATE TABLE \`t_keys\` (
  \`name\` varchar(20) NOT NULL,
  \`n\` bigint(20) unsigned NOT NULL,
  PRIMARY KEY (\`name\`,\`n\`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;
INSERT INTO \`t_keys\` VALUES ('b',10),('a',2),('B',1),('a',10),('a',1),('c',9007199254740993);
`;

const TRICKY_ROWS: DzqRow[] = [
  {
    id: 1,
    s: 'a\0b\'c"d\be\nf\rg\th\x1ai\\j\\%k\\_l',
    d: '12.50',
    f: 1.5,
    b: 5,
    raw: 'abc',
    at: '2021-01-30 08:00:00',
  },
  {
    id: 2,
    s: "It's 😀 中文 /* not a comment */ -- nor this; ",
    d: '-3.00',
    f: -0.0025,
    b: 0,
    raw: "bin'ary",
    at: null,
  },
  { id: 3, s: 'first line\nsecond line', d: null, f: null, b: null, raw: null, at: '0000-00-00 00:00:00' },
  { id: 5, s: 'partial', d: null, f: null, b: null, raw: null, at: null },
];

async function allRows(source: DzqSource, table: string, key: readonly string[], size = 7): Promise<DzqRow[]> {
  const rows: DzqRow[] = [];
  for await (const batch of source.batches(table, { key, size })) {
    expect(batch.length).toBeLessThanOrEqual(size);
    rows.push(...batch);
  }
  return rows;
}

async function catchError(promise: Promise<unknown>): Promise<SourceError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SourceError);
  return error as SourceError;
}

/** Each table's primary key, from the reference listing of the v3 schema. */
const KEYS: Record<string, string[]> = {
  settings: ['key', 'tag'],
  groups: ['id'],
  group_permission: ['group_id', 'permission'],
  emoji: ['id'],
  notification_tpls: ['id'],
  categories: ['id'],
};

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'luntan-sources-test-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('dump source', () => {
  it('reads the install dump, plain or gzipped, alike, and leaves nothing behind', async () => {
    const gz = join(dir, 'install.sql.gz');
    await writeFile(gz, gzipSync(await readFile(INSTALL_SQL)));
    const stagingDir = await mkdtemp(join(dir, 'staging-'));
    const progress: number[][] = [];
    const plain = await openDumpSource(INSTALL_SQL, {
      tempDir: stagingDir,
      onProgress: (read, total) => progress.push([read, total]),
    });
    const zipped = await openDumpSource(gz, { tempDir: stagingDir });
    try {
      expect(progress.at(-1)).toEqual([126058, 126058]);
      const names = await plain.tableNames();
      expect(names).toHaveLength(74);
      expect(await zipped.tableNames()).toEqual(names);
      const counts = {
        groups: 5,
        group_permission: 49,
        settings: 28,
        emoji: 92,
        notification_tpls: 102,
        categories: 1,
      };
      for (const [table, count] of Object.entries(counts)) expect(await plain.count(table)).toBe(count);
      for (const table of names) {
        expect(await zipped.columns(table)).toEqual(await plain.columns(table));
        expect(await zipped.count(table)).toBe(await plain.count(table));
      }
      for (const [table, key] of Object.entries(KEYS)) {
        const rows = await allRows(plain, table, key);
        expect(rows).toHaveLength(await plain.count(table));
        expect(await allRows(zipped, table, key, 1000)).toEqual(rows);
      }
      expect(await plain.columns('settings')).toEqual(['key', 'value', 'tag']);
      const [admin] = await allRows(plain, 'groups', ['id'], 1);
      expect(admin).toMatchObject({ id: 1, name: '管理员', fee: '0.00', is_paid: 0 });
      const emoji = await allRows(plain, 'emoji', ['id']);
      expect(emoji.map((e) => e.id)).toEqual([...emoji.map((e) => e.id)].sort((a, b) => Number(a) - Number(b)));
    } finally {
      await plain.close();
      await zipped.close();
    }
    expect(await readdir(stagingDir)).toEqual([]);
  });

  it('parses every escape, literal and statement shape, whatever the chunk boundaries', async () => {
    const file = join(dir, 'tricky.sql');
    await writeFile(file, TRICKY_DUMP);
    const source = await openDumpSource(file);
    try {
      expect(await source.tableNames()).toEqual(['t_escapes', 't_keys']);
      expect(await source.columns('t_escapes')).toEqual(['id', 's', 'd', 'f', 'b', 'raw', 'at']);
      expect(await allRows(source, 't_escapes', ['id'])).toEqual(TRICKY_ROWS);
    } finally {
      await source.close();
    }

    // The same bytes fed a few at a time (splitting escapes, quotes, UTF-8 characters and keywords) give the same rows.
    const parse = (chunkSize: number): DzqValue[][] => {
      const rows: DzqValue[][] = [];
      const parser = new DumpParser({ table: () => undefined, row: (_table, values) => rows.push(values) });
      const bytes = Buffer.from(TRICKY_DUMP);
      for (let i = 0; i < bytes.length; i += chunkSize) parser.write(bytes.subarray(i, i + chunkSize));
      parser.end();
      return rows;
    };
    const whole = parse(1 << 20);
    expect(whole).toHaveLength(10);
    for (const size of [1, 2, 3, 7, 64]) expect(parse(size)).toEqual(whole);

    // A dump saved as UTF-16 (PowerShell's `mysqldump > file`) reads the same.
    const utf16 = join(dir, 'tricky-utf16.sql');
    await writeFile(utf16, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(TRICKY_DUMP, 'utf16le')]));
    const fromUtf16 = await openDumpSource(utf16);
    try {
      expect(await allRows(fromUtf16, 't_escapes', ['id'])).toEqual(TRICKY_ROWS);
    } finally {
      await fromUtf16.close();
    }
  });

  it('pages by key in key order (numbers as numbers, text ignoring case) and resumes after a key', async () => {
    const file = join(dir, 'keys.sql');
    const ids = [12, 3, 1, 10, 2, 11, 5, 4, 9, 8, 7, 6];
    await writeFile(
      file,
      `${TRICKY_DUMP}CREATE TABLE \`t_ids\` (\`id\` int NOT NULL, \`v\` varchar(5), PRIMARY KEY (\`id\`));\n` +
        `INSERT INTO \`t_ids\` VALUES ${ids.map((id) => `(${id},'v${id}')`).join(',')};\n`,
    );
    const source = await openDumpSource(file);
    try {
      const sizes: number[] = [];
      const seen: DzqValue[] = [];
      for await (const batch of source.batches('t_ids', { key: ['id'], after: [4], size: 3 })) {
        sizes.push(batch.length);
        seen.push(...batch.map((r) => r.id ?? null));
      }
      expect(sizes).toEqual([3, 3, 2]);
      expect(seen).toEqual([5, 6, 7, 8, 9, 10, 11, 12]);
      // No key: dump order.
      expect((await allRows(source, 't_ids', [], 5)).map((r) => r.id)).toEqual(ids);

      const keys = (await allRows(source, 't_keys', ['name', 'n'], 2)).map((r) => [r.name, r.n]);
      expect(keys).toEqual([
        ['a', 1],
        ['a', 2],
        ['a', 10],
        ['B', 1],
        ['b', 10],
        ['c', '9007199254740993'],
      ]);
      const after: DzqRow[] = [];
      for await (const batch of source.batches('t_keys', { key: ['name', 'n'], after: ['a', 10], size: 2 }))
        after.push(...batch);
      expect(after.map((r) => [r.name, r.n])).toEqual(keys.slice(3));

      expect((await catchError(source.count('nope'))).code).toBe('no-table');
      expect((await catchError(allRows(source, 't_ids', ['nope']))).code).toBe('no-table');
    } finally {
      await source.close();
    }
  });

  it('refuses what is not a dump, and a dump cut short', async () => {
    const text = join(dir, 'notes.txt');
    await writeFile(text, "Hello, this is not SQL; it's a note.\n");
    expect((await catchError(openDumpSource(text))).code).toBe('not-a-dump');
    const noTables = join(dir, 'no-tables.sql');
    await writeFile(noTables, 'SET NAMES utf8mb4;\nSELECT 1;\n');
    expect((await catchError(openDumpSource(noTables))).code).toBe('not-a-dump');
    const binary = join(dir, 'image.png');
    await writeFile(binary, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]));
    expect((await catchError(openDumpSource(binary))).code).toBe('not-a-dump');
    const zip = join(dir, 'dump.zip');
    await writeFile(zip, Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0]));
    expect((await catchError(openDumpSource(zip))).code).toBe('not-a-dump');

    const cut = join(dir, 'cut.sql');
    await writeFile(cut, TRICKY_DUMP.slice(0, TRICKY_DUMP.indexOf('first line')));
    const stagingDir = await mkdtemp(join(dir, 'staging-'));
    expect((await catchError(openDumpSource(cut, { tempDir: stagingDir }))).code).toBe('bad-dump');
    expect(await readdir(stagingDir)).toEqual([]);
    const brokenGzip = join(dir, 'broken.sql.gz');
    await writeFile(brokenGzip, gzipSync(Buffer.from(TRICKY_DUMP)).subarray(0, 60));
    expect((await catchError(openDumpSource(brokenGzip))).code).toMatch(/^(bad-dump|read)$/);
    expect((await catchError(openDumpSource(join(dir, 'missing.sql')))).code).toBe('read');
  });
});

describe('mysql source', () => {
  it('says which part of the URL or connection is wrong', async () => {
    expect((await catchError(openMysqlSource('not a url'))).code).toBe('url');
    expect((await catchError(openMysqlSource('postgres://root@127.0.0.1/x'))).code).toBe('url');
    expect((await catchError(openMysqlSource('mysql://root@127.0.0.1:3306'))).code).toBe('no-database');
    const refused = await catchError(openMysqlSource('mysql://root@127.0.0.1:1/discuzq'));
    expect(refused.code).toBe('connect');
    expect(refused.message).toContain('127.0.0.1:1');
  });

  describe.skipIf(!MYSQL_URL)('against a server (MYSQL_TEST_URL)', () => {
    const database = `luntan_dzq_src_${Date.now()}_${process.pid}`;
    const urlFor = (db: string, change: (u: URL) => void = () => undefined): string => {
      const u = new URL(MYSQL_URL ?? '');
      u.pathname = `/${db}`;
      change(u);
      return u.toString();
    };
    let mysql: DzqSource;
    let dump: DzqSource;

    beforeAll(async () => {
      const connection = await createConnection({ uri: urlFor(''), multipleStatements: true, charset: 'utf8mb4' });
      try {
        await connection.query(`CREATE DATABASE \`${database}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
        await connection.query(`USE \`${database}\``);
        await connection.query(await readFile(INSTALL_SQL, 'utf8'));
        await connection.query(TRICKY_DUMP);
      } finally {
        await connection.end();
      }
      const file = join(dir, 'both.sql');
      await writeFile(file, `${await readFile(INSTALL_SQL, 'utf8')}\n${TRICKY_DUMP}`);
      mysql = await openMysqlSource(urlFor(database));
      dump = await openDumpSource(file);
    });

    afterAll(async () => {
      await mysql?.close();
      await dump?.close();
      const connection = await createConnection({ uri: urlFor('') });
      await connection.query(`DROP DATABASE IF EXISTS \`${database}\``);
      await connection.end();
    });

    it('agrees with the dump source table for table and row for row', async () => {
      const names = await mysql.tableNames();
      expect(names).toHaveLength(76);
      expect(await dump.tableNames()).toEqual(names);
      for (const table of names) {
        expect(await mysql.columns(table)).toEqual(await dump.columns(table));
        expect(await mysql.count(table)).toBe(await dump.count(table));
      }
      for (const [table, key] of Object.entries({ ...KEYS, t_escapes: ['id'], t_keys: ['name', 'n'] })) {
        const rows = await allRows(mysql, table, key, 5);
        expect(rows).toHaveLength(await mysql.count(table));
        expect(await allRows(dump, table, key, 5)).toEqual(rows);
      }
      expect(await allRows(mysql, 't_escapes', ['id'])).toEqual(TRICKY_ROWS);
      const after: DzqRow[] = [];
      for await (const batch of mysql.batches('group_permission', {
        key: ['group_id', 'permission'],
        after: [10, 'createThread'],
        size: 4,
      })) {
        after.push(...batch);
      }
      const all = await allRows(dump, 'group_permission', ['group_id', 'permission']);
      const at = all.findIndex((r) => r.group_id === 10 && r.permission === 'createThread');
      expect(at).toBeGreaterThan(0);
      expect(after).toEqual(all.slice(at + 1));
      expect((await catchError(mysql.count('nope'))).code).toBe('no-table');
    });

    it('names a wrong password, host or database', async () => {
      const wrongPassword = await catchError(openMysqlSource(urlFor(database, (u) => (u.password = 'surely-wrong'))));
      expect(wrongPassword.code).toBe('auth');
      const unknownHost = await catchError(
        openMysqlSource(urlFor(database, (u) => (u.hostname = 'no-such-host.invalid'))),
      );
      expect(unknownHost.code).toBe('connect');
      expect(unknownHost.message).toContain('no-such-host.invalid');
      const unknownDatabase = await catchError(openMysqlSource(urlFor(`${database}_missing`)));
      expect(unknownDatabase.code).toBe('no-database');
    });
  });
});

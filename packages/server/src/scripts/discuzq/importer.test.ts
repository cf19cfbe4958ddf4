import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importInto } from '../../test/discuzq-fixtures.js';
import { startTestServer, type TestServer } from '../../test/harness.js';
import { buildDzqFixture, dropMysqlDatabase, loadIntoMysql, writeDumpFile, type DzqFixture } from './fixture.js';
import { ImportRefused, type ImportReport } from './importer.js';

/*
 * The whole import of a realistic Discuz! Q site (fixture.ts: the real install database plus awkward rows) into a
 * fresh forum, from a dump file (always) and from a live MariaDB (where MYSQL_TEST_URL is set), with and without a
 * table prefix; then what its members see over HTTP.
 */

let dir: string;
let fixture: DzqFixture;
let dump: string;
let prefixedGz: string;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'dzq-import-'));
  fixture = await buildDzqFixture(dir);
  dump = path.join(dir, 'site.sql');
  prefixedGz = path.join(dir, 'site-pre.sql.gz');
  await writeDumpFile(dump, fixture.sql, false);
  await writeDumpFile(prefixedGz, fixture.sql, true, 'pre_');
}, 60_000);

afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const count = async (t: TestServer, table: string, where = '1 = 1'): Promise<number> => {
  const { sql } = await import('kysely');
  const r = await sql<{
    n: number | string;
  }>`select count(*) as n from ${sql.table(table)} where ${sql.raw(where)}`.execute(t.app.ctx.db);
  return Number(r.rows[0]!.n);
};

const tableOf = (report: ImportReport, table: string) => report.tables.find((x) => x.table === table)!;

/** The checks every variant of the import must pass. */
async function checkImported(t: TestServer, report: ImportReport): Promise<void> {
  const e = fixture.expect;
  expect(await count(t, 'users')).toBe(e.users.total);
  expect(await count(t, 'threads')).toBe(e.threads.total);
  expect(await count(t, 'threads', 'deleted_at is not null')).toBe(e.threads.softDeleted);
  expect(await count(t, 'threads', 'is_draft = 1')).toBe(e.threads.drafts);
  expect(await count(t, 'threads', 'is_anonymous = 1')).toBe(e.threads.anonymous);
  expect(await count(t, 'posts')).toBe(e.posts.total);
  expect(await count(t, 'post_likes')).toBe(e.likes);
  expect(await count(t, 'thread_favorites')).toBe(e.favourites);
  expect(await count(t, 'topics')).toBe(e.topics);
  expect(await count(t, 'thread_topic')).toBe(e.threadTopics);
  expect(await count(t, 'attachments')).toBe(e.attachments.local - e.attachments.missingFile.length);
  expect(await count(t, 'categories')).toBe(e.categories.total);
  expect(tableOf(report, 'posts').skipped['thread missing']).toBe(e.orphans.posts.length);
  expect(tableOf(report, 'post_user').read).toBe(e.likes + e.orphans.likes.length);
  expect(tableOf(report, 'attachments').skipped['file missing']).toBe(e.attachments.missingFile.length);
  // People, messages and money, with the ledger's invariant: every wallet's balances are the sums of its entries.
  expect(await count(t, 'user_follows')).toBe(e.follows);
  expect(await count(t, 'user_denies')).toBe(e.blocks);
  expect(await count(t, 'dialogs')).toBe(e.dialogs);
  expect(await count(t, 'dialog_messages')).toBe(e.messages);
  expect(await count(t, 'orders')).toBe(e.orders.total);
  expect(await count(t, 'wallet_cash')).toBe(e.withdrawals);
  expect(await count(t, 'reports')).toBe(e.reports);
  expect(await count(t, 'invites')).toBe(e.invites);
  expect(await count(t, 'stop_words')).toBe(e.stopWords);
  expect(await count(t, 'signin_fields')).toBe(e.signInFields.admin);
  expect(await count(t, 'user_signin_fields')).toBe(e.signInFields.user);
  expect(await count(t, 'notifications')).toBe(e.notifications.last90Days);
  const db = t.app.ctx.db;
  for (const w of await db.selectFrom('wallets').select(['userId', 'availableCents', 'frozenCents']).execute()) {
    const sums = await db
      .selectFrom('walletLogs')
      .select((eb) => [
        eb.fn.sum<string | number>('changeAvailableCents').as('a'),
        eb.fn.sum<string | number>('changeFrozenCents').as('f'),
      ])
      .where('userId', '=', w.userId)
      .executeTakeFirstOrThrow();
    expect([Number(sums.a ?? 0), Number(sums.f ?? 0)], `wallet of user ${w.userId}`).toEqual([
      w.availableCents,
      w.frozenCents,
    ]);
  }
  const opening = await db
    .selectFrom('walletLogs')
    .select(['userId', 'changeAvailableCents', 'changeFrozenCents'])
    .where('changeType', '=', 190)
    .orderBy('userId')
    .execute();
  expect(
    opening.map((o) => ({
      userId: o.userId,
      availableCents: o.changeAvailableCents,
      freezeCents: o.changeFrozenCents,
    })),
  ).toEqual(e.wallets.openingBalances);
  const alice = await db
    .selectFrom('wallets')
    .select('availableCents')
    .where('userId', '=', e.users.alice.id)
    .executeTakeFirstOrThrow();
  expect(alice.availableCents).toBe(e.wallets.byUser[e.users.alice.id]!.availableCents);
  for (const child of e.categories.children) {
    const row = await t.app.ctx.db
      .selectFrom('categories')
      .select('parentId')
      .where('id', '=', child.id)
      .executeTakeFirst();
    expect(row?.parentId).toBe(child.parentId);
  }
}

describe('importing a Discuz! Q site from a dump file', () => {
  let t: TestServer;
  let report: ImportReport;

  beforeAll(async () => {
    t = await startTestServer();
    report = await importInto(t, dump, { storageDir: fixture.storageDir });
  }, 120_000);
  afterAll(async () => {
    await t.close();
  });

  it('brings every row over, skips and counts the orphans', async () => {
    await checkImported(t, report);
  });

  it("keeps old passwords: a member signs in with the old site's password, which is then replaced by ours", async () => {
    const { alice } = fixture.expect.users;
    const token = await t.login(alice.username, alice.password);
    expect(token).toBeTruthy();
    const row = await t.app.ctx.db
      .selectFrom('users')
      .select('passwordHash')
      .where('id', '=', alice.id)
      .executeTakeFirstOrThrow();
    expect(row.passwordHash.startsWith('$argon2')).toBe(true);
    const wrong = await t.post('/api/v3/users/username.login', { username: alice.username, password: 'not-it-123' });
    expect(wrong.Code).not.toBe(0);
  });

  it('keeps statuses: a banned member is refused, one awaiting review says so', async () => {
    const { banned, pending } = fixture.expect.users;
    const statuses = await t.app.ctx.db.selectFrom('users').select(['id', 'status', 'rejectReason']).execute();
    const byId = new Map(statuses.map((s) => [s.id, s]));
    expect(byId.get(banned.id)?.status).toBe(1);
    expect(byId.get(pending.id)?.status).toBe(2);
  });

  it('links WeChat identities and keeps remote avatars as addresses', async () => {
    const { wechat } = fixture.expect.users;
    const identity = await t.app.ctx.db
      .selectFrom('userIdentities')
      .selectAll()
      .where('userId', '=', wechat.id)
      .executeTakeFirst();
    expect(identity?.kind).toBe('wechat');
    const user = await t.app.ctx.db
      .selectFrom('users')
      .select(['avatar', 'passwordHash'])
      .where('id', '=', wechat.id)
      .executeTakeFirstOrThrow();
    expect(user.passwordHash).toBe('');
    expect(user.avatar).toBe(wechat.avatarUrl);
  });

  it("answers the old site's file addresses with a redirect to the imported file", async () => {
    const file = fixture.expect.attachments.files.find(
      (f) => /attachments\/.*\.(png|jpe?g)$/.test(f) && !f.includes('_thumb'),
    )!;
    const old = `/storage/${file.replace(/^app\/public\//, '')}`;
    const res = await t.app.inject({ method: 'GET', url: old });
    expect(res.statusCode).toBe(301);
    const image = await t.app.inject({ method: 'GET', url: res.headers.location as string });
    expect(image.statusCode).toBe(200);
    expect(String(image.headers['content-type'])).toMatch(/^image\//);
    const original = await fs.readFile(path.join(fixture.storageDir, file));
    expect(image.rawPayload.equals(original)).toBe(true);
    expect((await t.app.inject({ method: 'GET', url: '/storage/attachments/none.png' })).statusCode).toBe(404);
  });

  it('converts post HTML: mentions, topics and emoji link as ours, no script survives', async () => {
    const posts = await t.app.ctx.db.selectFrom('posts').select(['id', 'content', 'contentHtml']).execute();
    const html = posts.map((p) => p.contentHtml).join('\n');
    expect(html).toMatch(/<a [^>]*href="\/user\/\d+"/);
    expect(html).toMatch(/href="\/topic\/\d+"/);
    expect(html).not.toMatch(/<script|onerror=|javascript:/i);
    // The family's emoji images came over from public/emoji beside storage/ and show in posts.
    expect(html).toContain('src="/uploads/emoji/qq/weixiao.gif"');
    expect((await t.app.inject({ method: 'GET', url: '/uploads/emoji/qq/weixiao.gif' })).statusCode).toBe(200);
    // The inline picture points at the imported file.
    expect(posts.find((p) => p.id === 1)?.content).toMatch(/!\[[^\]]*\]\(\/api\/v3\/attachments\/[\w-]+\.png\)/);
    for (const id of fixture.expect.posts.legacyXml) {
      const p = posts.find((x) => x.id === id);
      expect(p?.content).not.toMatch(/<\/?[rt]>|<E>|USERMENTION/);
    }
  });

  it('refuses a second import into the same forum unless forced', async () => {
    await expect(importInto(t, dump, { storageDir: fixture.storageDir })).rejects.toMatchObject({
      reason: 'already-imported',
    });
  });
});

describe('importing with a table prefix from a gzipped dump', () => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer();
  }, 60_000);
  afterAll(async () => {
    await t.close();
  });

  it('names the prefixes the database holds when the prefix is wrong', async () => {
    const error = await importInto(t, prefixedGz, { prefix: 'dzq_' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportRefused);
    expect((error as ImportRefused).reason).toBe('wrong-prefix');
    expect((error as Error).message).toContain('pre_');
  });

  it('checks everything and writes nothing on a dry run', async () => {
    const report = await importInto(t, prefixedGz, { prefix: 'pre_', storageDir: fixture.storageDir, dryRun: true });
    expect(report.dryRun).toBe(true);
    expect(tableOf(report, 'posts').read).toBeGreaterThan(0);
    expect(await count(t, 'threads')).toBe(0);
    expect(await count(t, 'users')).toBe(1);
  });

  it('imports the prefixed tables', async () => {
    const report = await importInto(t, prefixedGz, { prefix: 'pre_', storageDir: fixture.storageDir });
    await checkImported(t, report);
  });
});

describe('what is not a Discuz! Q site', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  }, 60_000);
  afterAll(async () => {
    await t.close();
  });

  it('names the missing tables', async () => {
    const file = path.join(dir, 'other.sql');
    await fs.writeFile(
      file,
      'CREATE TABLE `wp_posts` (`ID` int NOT NULL, PRIMARY KEY (`ID`));\nINSERT INTO `wp_posts` VALUES (1);\n',
    );
    const error = (await importInto(t, file).catch((e: unknown) => e)) as ImportRefused;
    expect(error.reason).toBe('not-discuzq');
    expect(error.message).toContain('users');
  });

  it('refuses a forum that already has content, unless forced', async () => {
    await t.post('/api/v3/users/username.register', {
      username: 'early_bird',
      password: 'early-bird-123',
      nickname: 'early',
    });
    await t.app.ctx.db
      .insertInto('users')
      .values({
        username: 'someone',
        usernameNormalized: 'someone',
        nickname: 'someone',
        passwordHash: '',
        avatar: '',
        signature: '',
        status: 0,
        rejectReason: '',
        registerIp: '',
        lastLoginIp: '',
        lastLoginAt: null,
        mobile: null,
        createdAt: new Date().toISOString(),
        updatedAt: new Date().toISOString(),
      })
      .execute();
    const error = (await importInto(t, dump).catch((e: unknown) => e)) as ImportRefused;
    expect(error.reason).toBe('not-empty');
    const report = await importInto(t, dump, { storageDir: fixture.storageDir, force: true });
    await checkImported(t, report);
  });
});

const mysqlUrl = process.env.MYSQL_TEST_URL;

describe.skipIf(!mysqlUrl)('importing from a live MariaDB database', () => {
  const names = [`luntan_dzq_${process.pid}_a`, `luntan_dzq_${process.pid}_b`];
  afterAll(async () => {
    for (const name of names) await dropMysqlDatabase(mysqlUrl!, name);
  });

  for (const [i, prefix] of ['', 'pre_'].entries()) {
    it(`imports every row ${prefix ? `with the prefix ${prefix}` : 'without a prefix'}`, async () => {
      const url = await loadIntoMysql(mysqlUrl!, names[i]!, fixture.sql, prefix);
      const t = await startTestServer();
      try {
        const report = await importInto(t, url, { prefix, storageDir: fixture.storageDir });
        await checkImported(t, report);
        const { bob } = fixture.expect.users;
        expect(await t.login(bob.username, bob.password)).toBeTruthy();
      } finally {
        await t.close();
      }
    }, 120_000);
  }

  it('says what is wrong with a bad address or password', async () => {
    const t = await startTestServer();
    try {
      const bad = mysqlUrl!.replace('mysql://root@', 'mysql://root:wrong-password@');
      const error = (await importInto(t, `${bad}/nothing`).catch((e: unknown) => e)) as Error;
      expect(error.name).toBe('SourceError');
    } finally {
      await t.close();
    }
  });
});

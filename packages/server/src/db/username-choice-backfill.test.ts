import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/harness.js';
import { up as backfill } from './migrations/2026112604-username-choice-backfill.js';

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

describe('migration 2026112602: members made by SMS before usernames could be chosen', () => {
  it('marks a generated username with a bound number, and nobody else', async () => {
    const db = t.app.ctx.db;
    const at = new Date().toISOString();
    const rows: Array<[string, string | null, boolean]> = [
      ['u_abcd1234', '13800000001', true],
      ['u_abcd1235', null, false],
      ['U_ABCD1236', '13800000002', false],
      ['u_abc', '13800000003', false],
      ['u_abcd12345', '13800000005', false],
      ['alice_bf', '13800000004', false],
    ];
    for (const [username, mobile] of rows) {
      await db
        .insertInto('users')
        .values({
          username,
          usernameNormalized: username.toLowerCase(),
          nickname: username,
          passwordHash: 'x',
          avatar: '',
          signature: '',
          status: 0,
          rejectReason: '',
          registerIp: '',
          lastLoginIp: '',
          createdAt: at,
          updatedAt: at,
          mobile,
        })
        .execute();
    }
    await backfill(db as unknown as Kysely<unknown>);
    const marked = await db
      .selectFrom('users')
      .select(['username', 'usernameGenerated'])
      .where(
        'username',
        'in',
        rows.map(([username]) => username),
      )
      .execute();
    expect(Object.fromEntries(marked.map((r) => [r.username, r.usernameGenerated === 1]))).toEqual(
      Object.fromEntries(rows.map(([username, , generated]) => [username, generated])),
    );
  });
});

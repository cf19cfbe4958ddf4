import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, buildUser, startTestServer, type TestServer } from '../test/harness.js';
import { buildThread } from '../test/factories.js';
import { up as fill } from './migrations/2026112798-free-words-fraction-fill.js';

let t: TestServer;
let admin: string;

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.login(ADMIN.username, ADMIN.password);
});
afterAll(async () => {
  await t.close();
});

/** A thread as one written before 2026112797: a character count in free_words, no fraction yet. */
async function oldThread(text: string, freeWords: number): Promise<number> {
  const made = await buildThread(t, admin, { text });
  await t.app.ctx.db
    .updateTable('threads')
    .set({ priceCents: 100, freeWords, freeWordsFraction: 0 })
    .where('id', '=', made.threadId)
    .execute();
  return made.threadId;
}

describe('migration 2026112798: free character counts become fractions of the body', () => {
  it("divides the count by the body's plain-text length, capped at 1, 0 for an empty body", async () => {
    const db = t.app.ctx.db;
    const cases: Array<[number, number]> = [
      [await oldThread('x'.repeat(100), 30), 0.3],
      [await oldThread('**ab**\n\ncd', 3), 0.6],
      [await oldThread('short', 500), 1],
      [await oldThread('untouched', 0), 0],
    ];
    const empty = await oldThread('was here', 10);
    const first = await db
      .selectFrom('threads')
      .select('firstPostId')
      .where('id', '=', empty)
      .executeTakeFirstOrThrow();
    await db.updateTable('posts').set({ contentHtml: '' }).where('id', '=', first.firstPostId!).execute();
    cases.push([empty, 0]);

    await fill(db as unknown as Kysely<unknown>);
    // Run twice: it derives from free_words, so a second run changes nothing.
    await fill(db as unknown as Kysely<unknown>);

    const rows = await db
      .selectFrom('threads')
      .select(['id', 'freeWords', 'freeWordsFraction'])
      .where(
        'id',
        'in',
        cases.map(([id]) => id),
      )
      .execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const [id, fraction] of cases) {
      expect(byId.get(id)?.freeWordsFraction, String(id)).toBeCloseTo(fraction, 10);
    }
    // The old column stays as it was, for a rollback.
    expect(byId.get(cases[0]![0])?.freeWords).toBe(30);

    // The thread frees the same characters as before the migration.
    const stranger = await buildUser(t);
    const read = await t.get<{ content: { text: string } }>(
      `/api/v3/thread.detail?threadId=${cases[0]![0]}`,
      stranger.token,
    );
    expect(read.Data.content.text).toBe('x'.repeat(30));
  });
});

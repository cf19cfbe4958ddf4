import type { ExpressionBuilder, Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { isUniqueViolation } from '../../db/errors.js';

/** Addresses found in a post: each gets its row (pending when new) and is tied to the post. Answers the new ones. */
export async function notePostLinks(db: Kysely<DB>, postId: number, urls: readonly string[], at: string) {
  let added = 0;
  for (const url of urls) {
    let row = await db.selectFrom('linkPreviews').select(['id']).where('url', '=', url).executeTakeFirst();
    if (!row) {
      try {
        row = await db
          .insertInto('linkPreviews')
          .values({ url, status: 'pending', createdAt: at })
          .returning('id')
          .executeTakeFirstOrThrow();
        added += 1;
      } catch (error) {
        // Another post named it at the same moment.
        if (!isUniqueViolation(error)) throw error;
        row = await db.selectFrom('linkPreviews').select(['id']).where('url', '=', url).executeTakeFirstOrThrow();
      }
    }
    await db
      .insertInto('linkPreviewPosts')
      .values({ previewId: row.id, postId })
      .onConflict((oc) => oc.columns(['previewId', 'postId']).doNothing())
      .execute();
  }
  return added;
}

/**
 * How many times a preview is claimed before it is given up: a fetch that finishes (card or not) takes one claim, and
 * only a process that stopped mid-fetch (or a round that failed) leaves a claim to run out and be taken again. However
 * that happens, no address is fetched more often than this.
 */
export const MAX_PREVIEW_ATTEMPTS = 5;

/** Pending, or fetching with a claim run out (its process stopped or its round failed). */
const isDue = (eb: ExpressionBuilder<DB, 'linkPreviews'>, at: string) =>
  eb.or([eb('status', '=', 'pending'), eb.and([eb('status', '=', 'fetching'), eb('claimedUntil', '<', at)])]);

/** Due previews with claims left, oldest first. */
export function duePreviews(db: Kysely<DB>, at: string, limit: number) {
  return db
    .selectFrom('linkPreviews')
    .select(['id', 'url', 'attempts'])
    .where((eb) => isDue(eb, at))
    .where('attempts', '<', MAX_PREVIEW_ATTEMPTS)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Finishes as failed the due previews that have had all their claims (the link stays plain). */
export async function giveUpPreviews(db: Kysely<DB>, at: string): Promise<void> {
  await db
    .updateTable('linkPreviews')
    .set({
      status: 'failed',
      error: `given up after ${MAX_PREVIEW_ATTEMPTS} attempts`,
      claimedUntil: null,
      fetchedAt: at,
    })
    .where((eb) => isDue(eb, at))
    .where('attempts', '>=', MAX_PREVIEW_ATTEMPTS)
    .execute();
}

/** Claims one for this process until `until` (a conditional update: one process fetches each). */
export async function claimPreview(db: Kysely<DB>, id: number, attempts: number, at: string, until: string) {
  const res = await db
    .updateTable('linkPreviews')
    .set({ status: 'fetching', claimedUntil: until, attempts: attempts + 1 })
    .where('id', '=', id)
    .where('attempts', '=', attempts)
    .where('attempts', '<', MAX_PREVIEW_ATTEMPTS)
    .where((eb) => isDue(eb, at))
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export async function finishPreview(
  db: Kysely<DB>,
  id: number,
  result:
    { ok: true; title: string; description: string; siteName: string; image: string } | { ok: false; error: string },
  at: string,
): Promise<void> {
  await db
    .updateTable('linkPreviews')
    .set(
      result.ok
        ? {
            status: 'ok',
            title: result.title,
            description: result.description,
            siteName: result.siteName,
            image: result.image,
            error: null,
            claimedUntil: null,
            fetchedAt: at,
          }
        : { status: 'failed', error: result.error.slice(0, 500), claimedUntil: null, fetchedAt: at },
    )
    .where('id', '=', id)
    .execute();
}

/** The posts that name a preview. */
export async function postsOfPreview(db: Kysely<DB>, previewId: number): Promise<number[]> {
  const rows = await db.selectFrom('linkPreviewPosts').select('postId').where('previewId', '=', previewId).execute();
  return rows.map((r) => r.postId);
}

import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/** All the SQL of votes (part 109): thread_votes, thread_vote_subitems, thread_vote_users. */

export interface VoteRow {
  id: number;
  threadId: number;
  voteTitle: string;
  choiceType: number;
  voteUsers: number;
  expiredAt: string;
}

export interface OptionRow {
  id: number;
  content: string;
  voteCount: number;
}

export function findVote(db: Kysely<DB>, id: number): Promise<VoteRow | undefined> {
  return db
    .selectFrom('threadVotes')
    .select(['id', 'threadId', 'voteTitle', 'choiceType', 'voteUsers', 'expiredAt'])
    .where('id', '=', id)
    .executeTakeFirst();
}

export function votesByIds(db: Kysely<DB>, ids: readonly number[]): Promise<VoteRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('threadVotes')
    .select(['id', 'threadId', 'voteTitle', 'choiceType', 'voteUsers', 'expiredAt'])
    .where('id', 'in', ids)
    .orderBy('id')
    .execute();
}

/** A vote's options, in the order they were written. */
export function optionsOf(db: Kysely<DB>, voteId: number): Promise<OptionRow[]> {
  return db
    .selectFrom('threadVoteSubitems')
    .select(['id', 'content', 'voteCount'])
    .where('threadVoteId', '=', voteId)
    .orderBy('id')
    .execute();
}

/** The options this member chose in this vote. */
export async function chosenOptionIds(db: Kysely<DB>, voteId: number, userId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('threadVoteUsers')
    .select('threadVoteSubitemId')
    .where('threadVoteId', '=', voteId)
    .where('userId', '=', userId)
    .execute();
  return rows.map((r) => r.threadVoteSubitemId);
}

export async function insertVote(
  trx: Kysely<DB>,
  v: { threadId: number; voteTitle: string; choiceType: number; expiredAt: string; at: string },
): Promise<number> {
  const row = await trx
    .insertInto('threadVotes')
    .values({
      threadId: v.threadId,
      voteTitle: v.voteTitle,
      choiceType: v.choiceType,
      expiredAt: v.expiredAt,
      createdAt: v.at,
      updatedAt: v.at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function insertOptions(trx: Kysely<DB>, voteId: number, contents: string[], at: string): Promise<void> {
  if (contents.length === 0) return;
  await trx
    .insertInto('threadVoteSubitems')
    .values(contents.map((content) => ({ threadVoteId: voteId, content, createdAt: at, updatedAt: at })))
    .execute();
}

export async function updateVote(
  trx: Kysely<DB>,
  id: number,
  v: { voteTitle: string; choiceType: number; expiredAt: string; at: string },
): Promise<void> {
  await trx
    .updateTable('threadVotes')
    .set({ voteTitle: v.voteTitle, choiceType: v.choiceType, expiredAt: v.expiredAt, updatedAt: v.at })
    .where('id', '=', id)
    .execute();
}

export async function renameOption(trx: Kysely<DB>, id: number, content: string, at: string): Promise<void> {
  await trx.updateTable('threadVoteSubitems').set({ content, updatedAt: at }).where('id', '=', id).execute();
}

/** Deletes options and the choices made for them (thread_vote_users go by cascade too; said here for clarity). */
export async function deleteOptions(trx: Kysely<DB>, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await trx.deleteFrom('threadVoteUsers').where('threadVoteSubitemId', 'in', ids).execute();
  await trx.deleteFrom('threadVoteSubitems').where('id', 'in', ids).execute();
}

/** Sets the vote's voter count to the members who still hold a choice in it. */
export async function recountVoters(trx: Kysely<DB>, voteId: number): Promise<void> {
  const row = await trx
    .selectFrom('threadVoteUsers')
    .select((eb) => eb.fn.count<number>('userId').distinct().as('n'))
    .where('threadVoteId', '=', voteId)
    .executeTakeFirstOrThrow();
  await trx
    .updateTable('threadVotes')
    .set({ voteUsers: Number(row.n) })
    .where('id', '=', voteId)
    .execute();
}

export async function deleteVote(trx: Kysely<DB>, id: number): Promise<void> {
  await trx.deleteFrom('threadVoteUsers').where('threadVoteId', '=', id).execute();
  await trx.deleteFrom('threadVoteSubitems').where('threadVoteId', '=', id).execute();
  await trx.deleteFrom('threadVotes').where('id', '=', id).execute();
}

/**
 * A member's ballot: one row per chosen option, numbered from 0. A second ballot by the same member for the same
 * vote breaks the unique index on (vote, user, position) and throws a unique violation, whoever commits first.
 */
export async function insertBallot(
  trx: Kysely<DB>,
  b: { voteId: number; threadId: number; userId: number; optionIds: readonly number[]; at: string },
): Promise<void> {
  await trx
    .insertInto('threadVoteUsers')
    .values(
      b.optionIds.map((optionId, position) => ({
        userId: b.userId,
        threadId: b.threadId,
        threadVoteId: b.voteId,
        threadVoteSubitemId: optionId,
        position,
        createdAt: b.at,
      })),
    )
    .execute();
  await trx
    .updateTable('threadVoteSubitems')
    .set((eb) => ({ voteCount: eb('voteCount', '+', 1) }))
    .where('id', 'in', b.optionIds)
    .execute();
  await trx
    .updateTable('threadVotes')
    .set((eb) => ({ voteUsers: eb('voteUsers', '+', 1) }))
    .where('id', '=', b.voteId)
    .execute();
}

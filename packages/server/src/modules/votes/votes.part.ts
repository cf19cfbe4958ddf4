import { ThreadPart, VOTE_LONGEST_MS, type VoteChoiceType, type VotePart, type VotePartBody } from '@luntan/shared';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { ViewerContext } from '../../access/viewer.js';
import { invalidField } from '../../core/errors.js';
import { msg } from '../../i18n/index.js';
import type { PartThread, ThreadPartHandler } from '../thread-parts/index.js';
import {
  chosenOptionIds,
  deleteOptions,
  deleteVote,
  findVote,
  insertOptions,
  insertVote,
  optionsOf,
  recountVoters,
  renameOption,
  updateVote,
  votesByIds,
  type VoteRow,
} from './votes.repository.js';

/** What a vote part keeps in thread_parts.value: the family's `{ voteIds: [id] }` (one vote per thread). */
export interface VoteValue {
  voteIds: number[];
}

const FIELD = 'content.indexes.109.body';
const utc = (time: string): string => new Date(Date.parse(time)).toISOString();

/** A new end time must lie ahead, and at most a year ahead (ours: the family sets no upper limit). */
function assertEndAhead(expiredAt: string, at: string): void {
  const end = Date.parse(expiredAt);
  const now = Date.parse(at);
  if (end <= now) throw invalidField(`${FIELD}.expiredAt`, msg('votes.endPassed'));
  if (end > now + VOTE_LONGEST_MS) throw invalidField(`${FIELD}.expiredAt`, msg('votes.endTooFar'));
}

async function createVote(trx: Kysely<DB>, threadId: number, body: VotePartBody, at: string): Promise<VoteValue> {
  assertEndAhead(body.expiredAt, at);
  const id = await insertVote(trx, {
    threadId,
    voteTitle: body.voteTitle,
    choiceType: body.choiceType,
    expiredAt: utc(body.expiredAt),
    at,
  });
  await insertOptions(
    trx,
    id,
    body.subitems.map((s) => s.content),
    at,
  );
  return { voteIds: [id] };
}

/**
 * The family's update rules: the choice type cannot change once someone voted; options sent with their id are kept
 * (renamed when their text changed), options left out are deleted with the choices made for them, options without
 * an id are added; the voter count is then taken again. An end time left as it was may lie in the past (editing a
 * thread whose vote ended); a changed one must lie ahead.
 */
async function changeVote(trx: Kysely<DB>, vote: VoteRow, body: VotePartBody, at: string): Promise<void> {
  const expiredAt = utc(body.expiredAt);
  if (expiredAt !== vote.expiredAt) assertEndAhead(body.expiredAt, at);
  if (body.choiceType !== vote.choiceType && vote.voteUsers > 0) {
    throw invalidField(`${FIELD}.choiceType`, msg('votes.choiceLocked'));
  }
  const options = await optionsOf(trx, vote.id);
  const held = new Map(options.map((o) => [o.id, o]));
  body.subitems.forEach((s, i) => {
    if (s.id !== undefined && !held.has(s.id))
      throw invalidField(`${FIELD}.subitems.${i}.id`, msg('votes.noSuchOption'));
  });
  const kept = new Set(body.subitems.flatMap((s) => (s.id === undefined ? [] : [s.id])));
  await deleteOptions(
    trx,
    options.filter((o) => !kept.has(o.id)).map((o) => o.id),
  );
  for (const s of body.subitems) {
    if (s.id !== undefined && held.get(s.id)!.content !== s.content) await renameOption(trx, s.id, s.content, at);
  }
  await insertOptions(
    trx,
    vote.id,
    body.subitems.filter((s) => s.id === undefined).map((s) => s.content),
    at,
  );
  await recountVoters(trx, vote.id);
  await updateVote(trx, vote.id, { voteTitle: body.voteTitle, choiceType: body.choiceType, expiredAt, at });
}

const rate = (count: number, total: number): string =>
  total === 0 ? '0%' : `${Math.round((count / total) * 10_000) / 100}%`;

/**
 * A vote as this viewer sees it (the family's select()): counts and rates only once the viewer voted, once the vote
 * ended, or to the thread's author and administrators; the options and the number of voters always.
 */
export async function presentVote(
  db: Kysely<DB>,
  viewer: ViewerContext,
  thread: Pick<PartThread, 'userId' | 'isDraft'>,
  vote: VoteRow,
): Promise<VotePart> {
  const [options, chosen] = await Promise.all([
    optionsOf(db, vote.id),
    viewer.user ? chosenOptionIds(db, vote.id, viewer.user.id) : Promise.resolve([]),
  ]);
  const isVoted = chosen.length > 0;
  const isExpired = Date.parse(vote.expiredAt) <= Date.now();
  const showResults = isVoted || isExpired || viewer.isAdmin || viewer.user?.id === thread.userId;
  const total = options.reduce((sum, o) => sum + o.voteCount, 0);
  return {
    voteId: vote.id,
    voteTitle: vote.voteTitle,
    choiceType: vote.choiceType as VoteChoiceType,
    expiredAt: vote.expiredAt,
    isExpired,
    isVoted,
    voteUsers: vote.voteUsers,
    showResults,
    canVote: viewer.user !== null && !isVoted && !isExpired && !thread.isDraft,
    subitems: options.map((o) => ({
      id: o.id,
      content: o.content,
      voteCount: showResults ? o.voteCount : null,
      isVoted: chosen.includes(o.id),
      voteRate: showResults ? rate(o.voteCount, total) : null,
    })),
  };
}

/**
 * A vote (part 109): stored in tables of its own, answered to everyone who may read the thread, a paid thread's
 * free-part readers included (as the family does: a vote is not the content that is sold).
 */
export const votePart: ThreadPartHandler<typeof ThreadPart.VOTE, VoteValue> = {
  type: ThreadPart.VOTE,
  create: (trx, write, body) => createVote(trx, write.thread.id, body, write.at),
  update: async (trx, write, body, previous) => {
    const vote = previous.voteIds[0] === undefined ? undefined : await findVote(trx, previous.voteIds[0]);
    if (!vote || vote.threadId !== write.thread.id) return createVote(trx, write.thread.id, body, write.at);
    await changeVote(trx, vote, body, write.at);
    return { voteIds: [vote.id] };
  },
  remove: async (trx, _write, previous) => {
    for (const id of previous.voteIds) await deleteVote(trx, id);
  },
  present: async (db, read, value) => {
    const votes = await votesByIds(db, value.voteIds);
    return Promise.all(
      votes.filter((v) => v.threadId === read.thread.id).map((v) => presentVote(db, read.viewer, read.thread, v)),
    );
  },
};

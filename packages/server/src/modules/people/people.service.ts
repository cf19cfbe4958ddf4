import {
  Code,
  FollowState,
  FollowType,
  UserStatus,
  type FollowStateValue,
  type Page,
  type PersonItem,
  type UserProfile,
  pageOf,
} from '@luntan/shared';
import type { Kysely } from 'kysely';
import type { AppContext } from '../../context.js';
import { AppError, forbidden, notFound } from '../../core/errors.js';
import { now } from '../../core/time.js';
import type { DB, User } from '../../db/schema.js';
import { can, requirePermission, requireUser, type ViewerContext } from '../../access/viewer.js';
import { displayGroupOfUser } from '../groups/index.js';
import { ownEmail } from '../mail/index.js';
import { stillGeneratedPassword } from '../users/index.js';
import { findUserById } from '../users/index.js';
import {
  addDeny,
  addFollow,
  countDenied,
  countFollows,
  denyRelations,
  followRelations,
  isFollowing,
  listDenied,
  listFollows,
  removeDeny,
  removeFollow,
} from './people.repository.js';
import { msg } from '../../i18n/index.js';

/** Reading people needs user.view; a guest without it is asked to sign in, a member without it is refused. */
function requireUserView(viewer: ViewerContext): void {
  if (can(viewer, 'user.view')) return;
  requireUser(viewer);
  throw forbidden();
}

const userNotFound = () => notFound(msg('people.noSuchUser'));

/** A user others may see: anyone but an account that was rejected or never finished signing up. */
async function findVisibleUser(db: Kysely<DB>, id: number): Promise<User> {
  const user = await findUserById(db, id);
  if (!user || user.status === UserStatus.REJECTED) throw userNotFound();
  return user;
}

function followState(following: boolean, followedBack: boolean): FollowStateValue {
  if (!following) return FollowState.NONE;
  return followedBack ? FollowState.MUTUAL : FollowState.FOLLOWING;
}

/** GET /api/v3/user: the profile card, with the viewer's relation to the user. */
export async function readProfile(db: Kysely<DB>, viewer: ViewerContext, userId: number): Promise<UserProfile> {
  const isMe = viewer.user?.id === userId;
  if (!isMe) requireUserView(viewer);
  const user = await findVisibleUser(db, userId);
  const me = viewer.user;
  const [relations, denies, group] = await Promise.all([
    me && !isMe ? followRelations(db, me.id, [userId]) : null,
    me && !isMe ? denyRelations(db, me.id, userId) : null,
    displayGroupOfUser(db, userId),
  ]);
  return {
    id: user.id,
    username: user.username,
    nickname: user.nickname,
    avatarUrl: user.avatar,
    backgroundUrl: user.background,
    signature: user.signature,
    threadCount: user.threadCount,
    likedCount: user.likedCount,
    followCount: user.followCount,
    fansCount: user.fansCount,
    follow: relations ? followState(relations.following.has(userId), relations.followers.has(userId)) : 0,
    isDeny: denies?.denies ?? false,
    isDenied: denies?.deniedBy ?? false,
    likesVisible: isMe || user.likesPublic === 1 || viewer.isAdmin,
    likesPublic: user.likesPublic === 1,
    joinedAt: user.createdAt,
    group,
    isMe,
    // The address is the member's own business: only their own card carries it.
    ...(isMe ? await ownEmail(db, user) : {}),
    ...(isMe
      ? { hasPassword: !(await stillGeneratedPassword(db, user.id)), usernameChangeable: user.usernameGenerated === 1 }
      : {}),
  };
}

/** POST /api/v3/follow.create: following twice changes nothing; answers whether the two now follow each other. */
export async function follow(ctx: AppContext, viewer: ViewerContext, toUserId: number): Promise<{ isMutual: boolean }> {
  const me = requireUser(viewer);
  requirePermission(viewer, 'userFollow.create');
  if (toUserId === me.id) throw new AppError(Code.CANNOT_FOLLOW_SELF);
  await findVisibleUser(ctx.db, toUserId);
  const { isMutual } = await ctx.db.transaction().execute(async (trx) => {
    const denies = await denyRelations(trx, me.id, toUserId);
    if (denies.deniedBy) throw new AppError(Code.BLOCKED_BY_USER);
    if (denies.denies) throw new AppError(Code.USER_DENIED);
    const added = await addFollow(trx, me.id, toUserId, now());
    if (added) await ctx.events.emit(trx, 'user.followed', { userId: me.id, followedUserId: toUserId });
    return { isMutual: await isFollowing(trx, toUserId, me.id) };
  });
  return { isMutual };
}

/** POST /api/v3/follow.delete: type 1 stops following `id`, type 2 removes the fan `id`. Absent relations change nothing. */
export async function unfollow(db: Kysely<DB>, viewer: ViewerContext, id: number, type: 1 | 2): Promise<void> {
  const me = requireUser(viewer);
  await db.transaction().execute(async (trx) => {
    if (type === FollowType.FOLLOWING) await removeFollow(trx, me.id, id);
    else await removeFollow(trx, id, me.id);
  });
}

async function presentPeople(
  db: Kysely<DB>,
  viewer: ViewerContext,
  rows: Awaited<ReturnType<typeof listFollows>>,
): Promise<PersonItem[]> {
  const me = viewer.user;
  const relations = me
    ? await followRelations(
        db,
        me.id,
        rows.map((r) => r.id),
      )
    : null;
  return rows.map((r) => ({
    id: r.id,
    username: r.username,
    nickname: r.nickname,
    avatarUrl: r.avatar,
    signature: r.signature,
    threadCount: r.threadCount,
    fansCount: r.fansCount,
    follow: relations ? followState(relations.following.has(r.id), relations.followers.has(r.id)) : 0,
    since: r.since,
  }));
}

/** GET /api/v3/follow.list: whom `userId` follows (1) or its fans (2), each with the viewer's own relation. */
export async function listPeople(
  db: Kysely<DB>,
  viewer: ViewerContext,
  q: { userId: number; type: 1 | 2; page: number; perPage: number },
): Promise<Page<PersonItem>> {
  if (viewer.user?.id !== q.userId) requireUserView(viewer);
  await findVisibleUser(db, q.userId);
  const [totalCount, rows] = await Promise.all([
    countFollows(db, q.userId, q.type),
    listFollows(db, q.userId, q.type, (q.page - 1) * q.perPage, q.perPage),
  ]);
  return pageOf(await presentPeople(db, viewer, rows), q.page, q.perPage, totalCount);
}

/** POST /api/v3/users/deny.create: blocks a user, which also ends both follows between the two. */
export async function deny(db: Kysely<DB>, viewer: ViewerContext, id: number): Promise<void> {
  const me = requireUser(viewer);
  if (id === me.id) {
    throw new AppError(Code.INVALID_PARAMETER, msg('people.youCannotBlockYourself'));
  }
  await findVisibleUser(db, id);
  await db.transaction().execute(async (trx) => {
    await addDeny(trx, me.id, id, now());
    await removeFollow(trx, me.id, id);
    await removeFollow(trx, id, me.id);
  });
}

/** POST /api/v3/users/deny.delete: unblocking someone not blocked changes nothing. */
export async function undeny(db: Kysely<DB>, viewer: ViewerContext, id: number): Promise<void> {
  const me = requireUser(viewer);
  await removeDeny(db, me.id, id);
}

/** GET /api/v3/users/deny.list: the viewer's blocked users, newest first. */
export async function listDeniedPeople(
  db: Kysely<DB>,
  viewer: ViewerContext,
  q: { page: number; perPage: number },
): Promise<Page<PersonItem>> {
  const me = requireUser(viewer);
  const [totalCount, rows] = await Promise.all([
    countDenied(db, me.id),
    listDenied(db, me.id, (q.page - 1) * q.perPage, q.perPage),
  ]);
  return pageOf(await presentPeople(db, viewer, rows), q.page, q.perPage, totalCount);
}

/** Whether the viewer may list the threads `userId` liked: their own, an administrator, or a member who allows it. */
export async function likesVisibleTo(db: Kysely<DB>, viewer: ViewerContext, userId: number): Promise<boolean> {
  if (viewer.user?.id === userId || viewer.isAdmin) return true;
  if (!can(viewer, 'user.view')) return false;
  const user = await findUserById(db, userId);
  return user !== undefined && user.likesPublic === 1;
}

/** Blocks between two members, both ways (for private messages). */
export async function blockBetween(
  db: Kysely<DB>,
  userId: number,
  other: number,
): Promise<{ denies: boolean; deniedBy: boolean }> {
  return denyRelations(db, userId, other);
}

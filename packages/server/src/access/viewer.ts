import { ACCESS_TOKEN_NAME, Code, GroupId, maskMobile, PERMISSION_KEYS, UserStatus, type Viewer } from '@luntan/shared';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB, User } from '../db/schema.js';
import { AppError, forbidden, needLogin } from '../core/errors.js';
import { bearerToken } from '../core/same-origin.js';
import { now } from '../core/time.js';
import { groupsAndPermissionsOfUser, permissionsOfGroups } from './permissions.repository.js';
import { owesJoiningFee } from './paid-joining.js';
import { findSessionUser, touchToken } from './tokens.repository.js';
import { findApiKeyUser, isApiKey, touchApiKey } from './api-keys.repository.js';
import type { ViewerCache } from './viewer-cache.js';
import type { ViewerContext } from './viewer-context.js';

export type { ViewerContext } from './viewer-context.js';

export const GUEST: ViewerContext = Object.freeze({
  user: null,
  tokenId: null,
  groups: [],
  isAdmin: false,
  permissions: new Set<string>(),
}) as ViewerContext;

export function tokenFromRequest(request: FastifyRequest): string | null {
  const bearer = bearerToken(request.headers.authorization);
  if (bearer !== null) return bearer;
  const cookie = request.cookies?.[ACCESS_TOKEN_NAME];
  return cookie ? cookie : null;
}

/** The viewer a user is, from the groups they hold (administrators hold every key). */
function heldViewer(user: User, held: { groups: ViewerContext['groups']; permissions: string[] }): ViewerContext {
  const isAdmin = held.groups.some((g) => g.id === GroupId.ADMINISTRATOR);
  const permissions = new Set(isAdmin ? PERMISSION_KEYS : held.permissions);
  return { user, tokenId: null, groups: held.groups, isAdmin, permissions };
}

/**
 * The viewer a member would be on a request of their own (one read of their groups and permissions), to decide
 * what someone else's act may tell them: a notice does not quote a thread they may not read.
 */
export async function viewerOfUser(db: Kysely<DB>, user: User): Promise<ViewerContext> {
  return heldViewer(user, await groupsAndPermissionsOfUser(db, user.id, now()));
}

/** Don't write last-used on every request: once a minute per token is enough. */
const TOUCH_INTERVAL_MS = 60_000;

/**
 * The viewer of a request: from the process's viewer cache when it holds the token under the current counters
 * (auth/viewer-cache.ts), else read from the database (and kept).
 */
export async function resolveViewer(db: Kysely<DB>, token: string | null, cache?: ViewerCache): Promise<ViewerContext> {
  const at = now();
  const atMs = Date.parse(at);
  if (token && token.length <= 200) {
    const cached = cache?.get(token, atMs);
    if (cached) {
      if (!cached.lastUsedAt || atMs - Date.parse(cached.lastUsedAt) > TOUCH_INTERVAL_MS) {
        const key = cached.viewer.apiKey;
        await (key ? touchApiKey(db, key.id, at) : touchToken(db, cached.viewer.tokenId!, at));
        cached.lastUsedAt = at;
      }
      return cached.viewer;
    }
    // Read before the rows: a change committed in between leaves the entry under an older number.
    const version = cache?.version();
    if (isApiKey(token)) {
      const found = await findApiKeyUser(db, token);
      if (found) {
        let lastUsedAt = found.lastUsedAt;
        if (!lastUsedAt || atMs - Date.parse(lastUsedAt) > TOUCH_INTERVAL_MS) {
          await touchApiKey(db, found.keyId, at);
          lastUsedAt = at;
        }
        const held = await groupsAndPermissionsOfUser(db, found.user.id, at);
        const viewer: ViewerContext = {
          ...heldViewer(found.user, held),
          apiKey: { id: found.keyId, scope: found.scope },
        };
        if (cache && version !== undefined) {
          cache.set(token, viewer, version, held.expiresAt ? Date.parse(held.expiresAt) : Infinity, lastUsedAt);
        }
        return viewer;
      }
    }
    const session = await findSessionUser(db, token, at);
    if (session) {
      const { user, tokenId } = session;
      let lastUsedAt = session.lastUsedAt;
      if (!lastUsedAt || atMs - Date.parse(lastUsedAt) > TOUCH_INTERVAL_MS) {
        await touchToken(db, tokenId, at);
        lastUsedAt = at;
      }
      const held = await groupsAndPermissionsOfUser(db, user.id, at);
      const viewer: ViewerContext = { ...heldViewer(user, held), tokenId };
      if (cache && version !== undefined) {
        const ends = Math.min(Date.parse(session.expiresAt), held.expiresAt ? Date.parse(held.expiresAt) : Infinity);
        cache.set(token, viewer, version, ends, lastUsedAt);
      }
      return viewer;
    }
  }
  const kept = cache?.guestViewer();
  if (kept) return kept;
  const version = cache?.version();
  const permissions = new Set(await permissionsOfGroups(db, [GroupId.GUEST]));
  const guest: ViewerContext = { ...GUEST, permissions };
  if (cache && version !== undefined) cache.setGuestViewer(guest, version);
  return guest;
}

/** Whether the viewer holds `key`, globally or (with a category) in that category. */
export function can(viewer: ViewerContext, key: string, categoryId?: number | null): boolean {
  if (viewer.isAdmin) return true;
  if (viewer.permissions.has(key)) return true;
  return categoryId != null && viewer.permissions.has(`category${categoryId}.${key}`);
}

/** Whether the viewer holds `key` anywhere (globally or in at least one category). */
export function canAnywhere(viewer: ViewerContext, key: string): boolean {
  if (can(viewer, key)) return true;
  for (const p of viewer.permissions) if (p.endsWith(`.${key}`) && p.startsWith('category')) return true;
  return false;
}

export function requireUser(viewer: ViewerContext): User {
  if (!viewer.user) throw needLogin();
  return viewer.user;
}

export function requireAdmin(viewer: ViewerContext): void {
  requireUser(viewer);
  // An API key reaches the back office only with the admin scope, whoever it acts as.
  if (!viewer.isAdmin || (viewer.apiKey && viewer.apiKey.scope !== 'admin')) throw forbidden();
}

export function requirePermission(viewer: ViewerContext, key: string, categoryId?: number | null): void {
  requireUser(viewer);
  if (!can(viewer, key, categoryId)) throw forbidden();
}

/** The code that stops a signed-in user whose account is not in good standing, or null. */
export function statusError(user: Pick<User, 'status' | 'rejectReason'>): AppError | null {
  // The reason an administrator gave goes with the code, for the /user/status page.
  const data = { data: { reason: user.rejectReason } };
  switch (user.status) {
    case UserStatus.BANNED:
      return new AppError(Code.USER_BANNED, undefined, data);
    case UserStatus.REJECTED:
      return new AppError(Code.VALIDATE_REJECT, undefined, data);
    case UserStatus.IGNORED:
      return new AppError(Code.VALIDATE_IGNORE, undefined, data);
    case UserStatus.UNDER_REVIEW:
      return new AppError(Code.JUMP_TO_AUDIT);
    case UserStatus.NEEDS_SIGNIN_FIELDS:
      return new AppError(Code.JUMP_TO_SUPPLEMENTARY);
    default:
      return null;
  }
}

/** The viewer as the forum call tells the web app; `siteMode` decides whether they must pay to join. */
export function presentViewer(viewer: ViewerContext, siteMode: string): Viewer | null {
  const u = viewer.user;
  if (!u) return null;
  return {
    userId: u.id,
    username: u.username,
    nickname: u.nickname,
    avatarUrl: u.avatar,
    status: u.status,
    groups: viewer.groups,
    isAdmin: viewer.isAdmin,
    // The user's own account: the reason they are stopped is theirs to read, on any page and after a reload.
    rejectReason: u.status === UserStatus.NORMAL ? '' : u.rejectReason,
    paid: !owesJoiningFee(viewer, siteMode),
    paidUntil: u.paidUntil,
    mobile: u.mobile ? maskMobile(u.mobile) : '',
  };
}

import { randomBytes } from 'node:crypto';
import { GroupId, PERMISSION_KEYS, UserStatus } from '@luntan/shared';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { permissionsOfGroups } from '../../access/permissions.repository.js';
import { owesJoiningFee } from '../../access/paid-joining.js';
import type { ViewerCache } from '../../access/viewer-cache.js';
import type { ViewerContext } from '../../access/viewer.js';

/**
 * Pages rendered once per set of groups. What a signed-in member's page shows is, but for a few bits of their own
 * (their name and avatar in the header, what they liked, bought or blocked, their own threads' edit buttons), what
 * every member of the same groups sees: the server renders the page as those groups see it (API calls made as a
 * viewer holding the groups' permissions and no account), keeps it for a moment as it keeps guests' pages
 * (core/guest-cache.ts: cleared by every write), and the browser fills in the member's own bits after hydration by
 * reading the page's data again as themselves. Discourse serves its pages to members the same way.
 */

/**
 * The pages rendered so: public reads whose every API call is open to the groups' permissions. A member's profile
 * page is not among them: its tabs (fans, follows) and buttons are mostly the viewer's own.
 */
const GROUP_RENDERED = [/^\/$/, /^\/thread\/\d+$/, /^\/search$/];

export function isGroupRendered(pathname: string): boolean {
  return GROUP_RENDERED.some((pattern) => pattern.test(pathname));
}

/**
 * Whether the page is a paid thread's: what a member bought shows in full in their own render (a buyer must not see
 * the paywall first and the thread a moment later).
 */
export async function isPaidThreadPage(db: Kysely<DB>, url: string): Promise<boolean> {
  const id = threadOfPage(url);
  if (id === null) return false;
  const row = await db.selectFrom('threads').select('priceCents').where('id', '=', id).executeTakeFirst();
  return (row?.priceCents ?? 0) > 0;
}

/**
 * The thread whose page `url` (path and query) is, any page number of it: its kept copies carry that thread's counter
 * (core/page-cache.ts). Null for every other page.
 */
export function threadOfPage(url: string): number | null {
  const match = /^\/thread\/(\d+)(?:\?|$)/.exec(url);
  if (!match) return null;
  const id = Number(match[1]);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** The groups a page is rendered for. */
export interface RenderAs {
  groupIds: number[];
}

/** A member in good standing gets the group's page; anyone else (stopped, owing the fee) their own render. */
export function renderAsOf(viewer: ViewerContext, siteMode: string): RenderAs | null {
  const user = viewer.user;
  if (!user || user.status !== UserStatus.NORMAL || owesJoiningFee(viewer, siteMode)) return null;
  return { groupIds: viewer.groups.map((g) => g.id).sort((a, b) => a - b) };
}

/**
 * The header that makes an in-process API call answer as the groups: it carries this process's random secret, so
 * a request from outside cannot claim it (it is read only with the secret, and only from app.inject's calls).
 */
const HEADER = 'x-luntan-render-as';
const SECRET = randomBytes(24).toString('base64url');

export function renderAsHeader(renderAs: RenderAs): Record<string, string> {
  return { [HEADER]: `${SECRET} ${renderAs.groupIds.join(',')}` };
}

export function renderAsFromRequest(request: FastifyRequest): RenderAs | null {
  const value = request.headers[HEADER];
  if (typeof value !== 'string') return null;
  const [secret, ids] = value.split(' ');
  if (secret !== SECRET || !ids) return null;
  const groupIds = ids.split(',').map(Number);
  return groupIds.every((id) => Number.isInteger(id) && id > 0) ? { groupIds } : null;
}

/** The viewer that stands for the groups: their permissions, no account. */
export async function groupViewer(db: Kysely<DB>, renderAs: RenderAs, cache: ViewerCache): Promise<ViewerContext> {
  const key = renderAs.groupIds.join(',');
  const kept = cache.groupViewer(key);
  if (kept) return kept;
  const version = cache.version();
  const isAdmin = renderAs.groupIds.includes(GroupId.ADMINISTRATOR);
  const permissions = new Set(isAdmin ? PERMISSION_KEYS : await permissionsOfGroups(db, renderAs.groupIds));
  const rows = await db.selectFrom('groups').select(['id', 'name']).where('id', 'in', renderAs.groupIds).execute();
  const viewer: ViewerContext = { user: null, tokenId: null, groups: rows, isAdmin, permissions };
  cache.setGroupViewer(key, viewer, version);
  return viewer;
}

import { LRUCache } from 'lru-cache';
import type { CacheVersions } from '../core/cache-versions.js';
import type { ViewerContext } from './viewer-context.js';

/** The most sessions one process keeps (a few hundred bytes each). */
const MAX_SESSIONS = 20_000;
/** An entry is read again from the database at least this often, whatever the counters say. */
const MAX_AGE_MS = 5 * 60_000;

interface Entry {
  viewer: ViewerContext;
  /** The `viewers` counter it was read under. */
  version: number;
  /** When it stops being valid by itself: the session's or a group membership's expiry, or MAX_AGE_MS. */
  validUntil: number;
  lastUsedAt: string | null;
}

/**
 * Who a session is and what they may do, kept per process: a signed-in request otherwise reads the session and
 * user, then the groups and their permissions, before its own work (two of a member's list's queries). An entry is
 * used only while the `viewers` counter is the one it was read under: every change of a session, an account, a
 * membership, a group or a permission raises it by trigger in the writing transaction
 * (migrations/2026112401-cache-triggers.ts), and every request reads the counters first (core/cache-versions.ts). So
 * a ban, a sign-out or a permission change applies to the very next request, in every process. Expiries (the
 * session's, a paid group's) end an entry by themselves.
 */
export class ViewerCache {
  private readonly sessions = new LRUCache<string, Entry>({ max: MAX_SESSIONS });
  private guest: { viewer: ViewerContext; version: number } | null = null;
  /** Viewers standing for a whole set of groups (modules/web/group-render.ts), by their ids. */
  private readonly groupViewers = new Map<string, { viewer: ViewerContext; version: number }>();

  constructor(private readonly versions: CacheVersions) {}

  get(token: string, nowMs: number): Entry | undefined {
    const entry = this.sessions.get(token);
    if (!entry) return undefined;
    if (entry.version !== this.versions.get('viewers') || nowMs >= entry.validUntil) {
      this.sessions.delete(token);
      return undefined;
    }
    return entry;
  }

  set(token: string, viewer: ViewerContext, version: number, expiresAt: number, lastUsedAt: string | null): void {
    const validUntil = Math.min(expiresAt, Date.now() + MAX_AGE_MS);
    this.sessions.set(token, { viewer, version, validUntil, lastUsedAt });
  }

  guestViewer(): ViewerContext | undefined {
    return this.guest && this.guest.version === this.versions.get('viewers') ? this.guest.viewer : undefined;
  }

  setGuestViewer(viewer: ViewerContext, version: number): void {
    this.guest = { viewer, version };
  }

  groupViewer(key: string): ViewerContext | undefined {
    const kept = this.groupViewers.get(key);
    return kept && kept.version === this.versions.get('viewers') ? kept.viewer : undefined;
  }

  setGroupViewer(key: string, viewer: ViewerContext, version: number): void {
    if (this.groupViewers.size > 1000) this.groupViewers.clear();
    this.groupViewers.set(key, { viewer, version });
  }

  /** The version to store a viewer under: the counter as read before the viewer's rows were. */
  version(): number {
    return this.versions.get('viewers');
  }
}

import { ANONYMOUS_USER_ID, Code, type UserSummary } from '@luntan/shared';
import { fieldError } from '../../core/errors.js';
import type { Thread } from '../../db/schema.js';
import { can, type ViewerContext } from '../../access/viewer.js';
import { msg } from '../../i18n/index.js';

/*
 * Anonymous threads (thread.allowAnonymous, category-scoped as the spec marks it). Only the thread itself, its first
 * post, is anonymous, as in Discuz! Q: the author's replies, even in their own thread, carry their name like any
 * reply (and nothing ties them to the thread: others see no author id to compare with). To everyone but the author
 * and administrators the author is the anonymous user: id 0, 匿名用户 / Anonymous in the answer's language, no
 * avatar; the thread stays out of the author's public list and counters (users.thread_count counts named threads).
 */

export type AnonymousState = Pick<Thread, 'userId' | 'isAnonymous'>;

/** Whether the viewer sees who wrote the thread: always for a named one; for an anonymous one, its author and admins. */
export function seesAuthor(viewer: ViewerContext, t: AnonymousState): boolean {
  return t.isAnonymous !== 1 || viewer.isAdmin || (viewer.user !== null && viewer.user.id === t.userId);
}

/** The anonymous user, named in the viewer's language. */
export function anonymousUser(viewer: Pick<ViewerContext, 'locale'>): UserSummary {
  return { userId: ANONYMOUS_USER_ID, nickname: msg('threads.anonymousUser')[viewer.locale ?? 'zh'], avatar: '' };
}

/** The thread's author as the viewer may see them: the real one, or the anonymous user. */
export function authorSeenBy(viewer: ViewerContext, t: AnonymousState, real: UserSummary): UserSummary {
  return seesAuthor(viewer, t) ? real : anonymousUser(viewer);
}

/** Who the topics a thread's first post makes are shown as made by (topics.list): its author, or no one's name. */
export function topicCreator(t: AnonymousState): number {
  return t.isAnonymous === 1 ? ANONYMOUS_USER_ID : t.userId;
}

/** -4002 (field `anonymous`) when the poster may not post anonymously in the category. */
export function assertMayPostAnonymously(viewer: ViewerContext, categoryId: number): void {
  if (viewer.user === null || !can(viewer, 'thread.allowAnonymous', categoryId)) {
    throw fieldError(Code.UNAUTHORIZED, 'anonymous', msg('threads.mayNotPostAnonymously'));
  }
}

import { Code, type UserThreadStick } from '@luntan/shared';
import type { Kysely } from 'kysely';
import { AppError } from '../../core/errors.js';
import { now } from '../../core/time.js';
import type { DB } from '../../db/schema.js';
import { requireUser, type ViewerContext } from '../../access/viewer.js';
import { msg, type Message } from '../../i18n/index.js';
import { threadNotFound } from './thread.policy.js';
import { pinnedThreadOf, pinThread, unpinThread } from './thread-pins.repository.js';
import { findThread } from './threads.repository.js';

/**
 * POST user/thread.stick, as the family's ThreadUserStickController: a member pins one of their own threads to the
 * top of their profile's thread list (status 1), replacing the one pinned before, or takes the pin off (status 0).
 * Taking off a pin that is on another thread is refused (-4001); when none is pinned it succeeds and changes nothing.
 */
export async function stickOwnThread(
  db: Kysely<DB>,
  viewer: ViewerContext,
  input: { threadId: number; status: 0 | 1 },
): Promise<{ data: UserThreadStick; message: Message }> {
  const me = requireUser(viewer);
  const thread = await findThread(db, input.threadId);
  if (!thread || thread.deletedAt !== null) throw threadNotFound();
  if (thread.userId !== me.id) throw new AppError(Code.INVALID_PARAMETER, msg('threads.pinOwnThreadsOnly'));
  if (input.status === 1) {
    await pinThread(db, me.id, thread.id, now());
  } else {
    const pinned = await pinnedThreadOf(db, me.id);
    if (pinned !== null && pinned !== thread.id) {
      throw new AppError(Code.INVALID_PARAMETER, msg('threads.pinnedIsAnotherThread'));
    }
    await unpinThread(db, me.id, thread.id);
  }
  return {
    data: { threadId: thread.id, status: input.status },
    message: msg(input.status === 1 ? 'threads.pinned' : 'threads.unpinned'),
  };
}

import { ANONYMOUS_USER_ID, type Forum, type UserSummary } from '@luntan/shared';
import { useTranslation } from '../../i18n/use-translation';
import { Avatar, type AvatarSize } from '../ui';
import './anonymous-user.css';

/*
 * Anonymous threads (thread.allowAnonymous). To everyone but its author and administrators the server sends an
 * anonymous thread's author as the anonymous user (id 0, no avatar): shown here as 匿名用户 / Anonymous in the page's
 * language, with no link, no hover card, no profile. The author and administrators get the real author and see the
 * "anonymous" mark beside them.
 */

interface MaybeAnonymous {
  isAnonymous?: boolean;
  user: UserSummary;
}

/** Whether the viewer gets the anonymous user in place of the thread's author. */
export const isHiddenAuthor = (thread: MaybeAnonymous): boolean =>
  thread.isAnonymous === true && thread.user.userId === ANONYMOUS_USER_ID;

/** Whether the viewer sees who wrote an anonymous thread (its author, an administrator): show the mark. */
export const isKnownAnonymous = (thread: MaybeAnonymous): boolean =>
  thread.isAnonymous === true && thread.user.userId !== ANONYMOUS_USER_ID;

/** The anonymous user's avatar: a plain placeholder, nothing to point at or follow. */
export function AnonymousAvatar({ size = 'primary' }: { size?: AvatarSize }) {
  const { t } = useTranslation();
  return (
    <span className="lt-anonymous-user__avatar" data-testid="anonymous-avatar" aria-hidden="true">
      <Avatar image="" text={t('anonymous.user')} size={size} circle />
    </span>
  );
}

/** The anonymous user's name, as plain text. */
export function AnonymousName({ className }: { className?: string }) {
  const { t } = useTranslation();
  return (
    <span className={['lt-anonymous-user', className ?? ''].filter(Boolean).join(' ')} data-testid="anonymous-user">
      {t('anonymous.user')}
    </span>
  );
}

/** Beside the real author, for the author and administrators: this thread is anonymous to others. */
export function AnonymousMark() {
  const { t } = useTranslation();
  return (
    <span className="lt-tag lt-tag--anonymous" title={t('anonymous.markTitle')} data-testid="anonymous-mark">
      {t('anonymous.mark')}
    </span>
  );
}

/** Whether the viewer may post anonymously in the category (thread.allowAnonymous there or everywhere). */
export function canPostAnonymously(forum: Forum | null, categoryId: number): boolean {
  if (!forum?.user) return false;
  if (forum.user.isAdmin) return true;
  return forum.permissions.some(
    (p) => p === 'thread.allowAnonymous' || p === `category${categoryId}.thread.allowAnonymous`,
  );
}

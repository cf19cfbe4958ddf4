import type { ThreadItem } from '@luntan/shared';
import { memo, type ReactNode } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { PlainLink } from '../plain-link';
import { PriceTag } from '../money/price-tag';
import type { ThreadMoney } from '../money/thread-money';
import { PluginSlot } from '../plugin/plugin-slot';
import { authorOf, UserAvatar, userHref } from '../people/user-hover-card';
import {
  AnonymousAvatar,
  AnonymousMark,
  AnonymousName,
  isHiddenAuthor,
  isKnownAnonymous,
} from '../people/anonymous-user';
import { Icon } from '../ui';
import { Highlight } from './highlight';
import { MatchedPost } from './matched-post';
import { TimeText } from './time-text';
import { ThreadPartMarks } from '../thread-parts/part-marks';
import { PositionView } from '../thread-parts/position-view';
import './forum.css';

/**
 * One thread in a list: author, title, summary, category, counts; matches marked when a keyword is given, and in a
 * search the reply through which the thread was found. On a member's profile, `profilePin` marks the thread they
 * pinned there (user/thread.stick) and holds its owner's pin button.
 *
 * Memoized: a list re-renders when its query starts or ends a fetch (a member's page is read again once hydrated),
 * and a thread whose data came back the same is the same object (React Query's structural sharing), so its card is
 * left as it is instead of twenty cards rendered again on a slow phone.
 */
export const ThreadCard = memo(function ThreadCard({
  thread,
  keyword,
  profilePin,
}: {
  thread: ThreadItem;
  keyword?: string;
  profilePin?: { action?: ReactNode };
}) {
  const { t } = useTranslation();
  return (
    <article className="lt-thread-card" data-testid="thread-card" data-thread-id={thread.threadId}>
      <header className="lt-thread-card__meta">
        {isHiddenAuthor(thread) ? (
          <>
            <AnonymousAvatar size="small" />
            <AnonymousName className="lt-thread-card__author" />
          </>
        ) : (
          <>
            <UserAvatar user={authorOf(thread.user)} size="small" />
            <PlainLink className="lt-thread-card__author" to={userHref(thread.user.userId)}>
              {thread.user.nickname}
            </PlainLink>
            {isKnownAnonymous(thread) ? <AnonymousMark /> : null}
          </>
        )}
        <TimeText className="lt-thread-card__time" iso={thread.createdAt} />
        <PlainLink className="lt-thread-card__category" to={`/?categoryId=${thread.categoryId}`}>
          {thread.categoryName}
        </PlainLink>
        {profilePin?.action}
      </header>
      <h3 className="lt-thread-card__title">
        {profilePin && thread.userStickStatus ? (
          <span className="lt-tag lt-tag--sticky" data-testid="profile-pin-mark">
            {t('people.pin.mark')}
          </span>
        ) : null}
        {thread.isSticky ? <span className="lt-tag lt-tag--sticky">{t('forum.sticky')}</span> : null}
        {thread.isEssence ? <span className="lt-tag lt-tag--essence">{t('forum.essence')}</span> : null}
        {!thread.isApproved ? <span className="lt-tag lt-tag--review">{t('forum.underReview')}</span> : null}
        <PriceTag thread={thread as ThreadItem & ThreadMoney} />
        <ThreadPartMarks thread={thread} />
        <PlainLink to={`/thread/${thread.threadId}`}>
          <Highlight text={thread.title} keyword={keyword} />
        </PlainLink>
      </h3>
      {thread.summary ? (
        <p className="lt-thread-card__summary">
          <Highlight text={thread.summary} keyword={keyword} />
        </p>
      ) : null}
      {thread.matchedPost ? (
        <MatchedPost threadId={thread.threadId} post={thread.matchedPost} keyword={keyword} />
      ) : null}
      <PositionView position={thread.position ?? null} small />
      <PluginSlot target="plugin_index" hook="thread_extension_display_hook" threadData={thread} />
      <footer className="lt-thread-card__counts">
        <span title={t('forum.views')}>
          <Icon name="eye" /> {thread.viewCount}
        </span>
        <span title={t('forum.replies')}>
          <Icon name="comment" /> {thread.postCount}
        </span>
        <span title={t('forum.likes')}>
          <Icon name="like" /> {thread.likeCount}
        </span>
      </footer>
    </article>
  );
});

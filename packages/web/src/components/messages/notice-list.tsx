import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { Link } from 'react-router';
import { isSuccess } from '../../api/dispatcher';
import { noticesQuery, notificationsKey, type NoticeCategory, type NoticeItem } from '../../api/message-queries';
import { post } from '../../api/mutate';
import { useAppContext } from '../../app-context';
import { refreshUnread } from '../../hooks/use-unread';
import { Pager } from '../forum/pager';
import { postAnchor } from '../forum/post-anchor';
import { TimeText } from '../forum/time-text';
import { UserAvatar, userHref } from '../people/user-hover-card';
import { Icon, Spinner, toast } from '../ui';
import { endpoints } from '../../api/endpoints';

/**
 * Where a notice leads: the thread, anchored on the reply (a comment's own reply, which its page always shows); a
 * follow, to the follower; otherwise nowhere.
 */
export function noticeHref(notice: NoticeItem): string | null {
  if (notice.threadId) {
    const postId = notice.replyPostId ?? notice.postId;
    return `/thread/${notice.threadId}${postId ? `#${postAnchor(postId)}` : ''}`;
  }
  if (notice.fromUser) return userHref(notice.fromUser.id);
  return null;
}

function NoticeRow({ notice, viewerId }: { notice: NoticeItem; viewerId: number }) {
  const { t } = useTranslation();
  const ctx = useAppContext();
  const queryClient = useQueryClient();
  const href = noticeHref(notice);
  const from = notice.fromUser ?? null;

  const remove = async (): Promise<void> => {
    if ((await post(endpoints.notifications.delete, { id: notice.id })) === null) return;
    toast.success(t('message.notices.deleted'));
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: [...notificationsKey, viewerId] }),
      refreshUnread(ctx, viewerId),
    ]);
  };

  return (
    <li
      className={`lt-notice${notice.readAt === null ? ' lt-notice--new' : ''}`}
      data-testid="notice"
      data-notice-id={notice.id}
      data-type={notice.type}
    >
      {from ? (
        <UserAvatar user={{ id: from.id, nickname: from.nickname, avatar: from.avatarUrl }} />
      ) : (
        <span className="lt-notice__icon" aria-hidden="true">
          <Icon name="bell" size={20} />
        </span>
      )}
      <div className="lt-notice__body">
        <p className="lt-notice__head">
          {from ? (
            <Link to={userHref(from.id)} className="lt-notice__from">
              {from.nickname}
            </Link>
          ) : (
            <span className="lt-notice__from">{t('message.notices.site')}</span>
          )}
          <TimeText iso={notice.createdAt} className="lt-notice__time" />
          {notice.readAt === null ? <span className="lt-notice__new">{t('message.notices.new')}</span> : null}
        </p>
        {href ? (
          <Link to={href} className="lt-notice__title" data-testid="notice-link">
            {notice.title}
          </Link>
        ) : (
          <p className="lt-notice__title">{notice.title}</p>
        )}
        {notice.content ? <p className="lt-notice__content">{notice.content}</p> : null}
      </div>
      <button
        type="button"
        className="lt-notice__delete"
        onClick={() => void remove()}
        aria-label={t('message.notices.delete')}
        title={t('message.notices.delete')}
        data-testid="notice-delete"
      >
        <Icon name="trash" size={16} />
      </button>
    </li>
  );
}

/** A category's notices, newest first; listing them marks them read, so the badges are read again after. */
export function NoticeList({ category, page, viewerId }: { category: NoticeCategory; page: number; viewerId: number }) {
  const { t } = useTranslation();
  const ctx = useAppContext();
  const result = useQuery(noticesQuery(ctx.api, category, page, viewerId)).data;
  const list = result && isSuccess(result) ? result.Data : null;
  const hadUnread = list?.pageData.some((n) => n.readAt === null) ?? false;

  useEffect(() => {
    if (hadUnread) void refreshUnread(ctx, viewerId);
  }, [ctx, hadUnread, list, viewerId]);

  return (
    <section
      className="lt-card lt-notices"
      aria-label={t(`message.${category}`)}
      data-testid={`notice-list-${category}`}
    >
      {!result ? <Spinner /> : null}
      {result && !list ? <p className="lt-empty">{result.Message}</p> : null}
      {list && list.pageData.length === 0 ? <p className="lt-empty">{t(`message.notices.empty.${category}`)}</p> : null}
      {list && list.pageData.length > 0 ? (
        <ul className="lt-notices__list">
          {list.pageData.map((notice) => (
            <NoticeRow key={notice.id} notice={notice} viewerId={viewerId} />
          ))}
        </ul>
      ) : null}
      {list ? <Pager current={list.currentPage} total={list.totalPage} param="p" /> : null}
    </section>
  );
}

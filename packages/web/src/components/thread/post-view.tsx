import { type PostItem } from '@luntan/shared';
import { useState } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { Link } from 'react-router';
import { post } from '../../api/mutate';
import { postAnchor } from '../forum/post-anchor';
import { TimeText } from '../forum/time-text';
import { authorOf, UserAvatar, userHref } from '../people/user-hover-card';
import { toast } from '../ui';
import { useForum, useViewer } from '../../hooks/use-forum';
import { ReportAction } from '../community/report-dialog';
import { useRefresh } from './thread-hooks';
import { ActionButton } from './action-button';
import { Composer } from './composer';
import { BountyReplyAction } from '../thread-parts/bounty-part';

export function PostView({
  item,
  threadId,
  isComment,
  target,
}: {
  item: PostItem;
  threadId: number;
  isComment?: boolean;
  target: number | null;
}) {
  const { t } = useTranslation();
  const refresh = useRefresh(threadId);
  const [mode, setMode] = useState<'view' | 'edit' | 'comment'>('view');
  const viewer = useViewer();
  const publishCaptcha = useForum().forum?.other.createThreadWithCaptcha === true;

  const like = async () => {
    if (await post('/api/v3/posts.update', { id: item.id, isLiked: !item.isLiked })) await refresh();
  };
  const remove = async () => {
    if (!window.confirm(t('thread.confirmDeleteReply'))) return;
    if (await post('/api/v3/posts.update', { id: item.id, isDeleted: true })) {
      toast.success(t('thread.deleted'));
      await refresh();
    }
  };
  const edit = async (text: string) => {
    const done = await post('/api/v3/posts.update', { id: item.id, content: text });
    if (done) {
      setMode('view');
      await refresh();
    }
    return done !== null;
  };
  const comment = async (text: string, captcha?: string) => {
    const replyId = isComment ? item.replyPostId : item.id;
    const body = {
      id: threadId,
      content: text,
      replyId,
      ...(isComment ? { commentPostId: item.id } : {}),
      ...(captcha ? { captcha } : {}),
    };
    const done = await post('/api/v3/posts.create', body);
    if (done) {
      setMode('view');
      toast.success(t('thread.replied'));
      await refresh();
    }
    return done !== null;
  };

  return (
    <article
      className={`lt-post${isComment ? ' lt-post--comment' : ''}${item.id === target ? ' lt-post--target' : ''}`}
      id={postAnchor(item.id)}
      data-testid={isComment ? 'comment' : 'reply'}
      data-post-id={item.id}
    >
      <UserAvatar user={authorOf(item.user)} size={isComment ? 'small' : 'primary'} />
      <div className="lt-post__body">
        <header className="lt-post__meta">
          <Link className="lt-post__author" to={userHref(item.user.userId)}>
            {item.user.nickname}
          </Link>
          {item.commentUser ? (
            <span className="lt-post__to">
              {t('thread.replyTo')} {item.commentUser.nickname}
            </span>
          ) : null}
          <TimeText iso={item.createdAt} />
          {!item.isApproved ? <span className="lt-tag lt-tag--review">{t('forum.underReview')}</span> : null}
        </header>
        {mode === 'edit' ? (
          <Composer
            label={t('thread.editReply')}
            initial={item.content.text}
            submitLabel={t('thread.save')}
            onSubmit={edit}
            onCancel={() => setMode('view')}
            testId="edit-box"
          />
        ) : (
          <div className="lt-prose lt-prose--post" dangerouslySetInnerHTML={{ __html: item.content.html }} />
        )}
        <footer className="lt-post__actions">
          <ActionButton
            icon="like"
            label={t('thread.like')}
            active={item.isLiked}
            count={item.likeCount}
            onClick={like}
            testId="post-like"
          />
          {item.ability.canReply ? (
            <ActionButton
              icon="comment"
              label={t('thread.comment')}
              count={isComment ? undefined : item.replyCount}
              onClick={() => setMode(mode === 'comment' ? 'view' : 'comment')}
              testId="post-comment"
            />
          ) : null}
          {item.ability.canEdit ? (
            <ActionButton icon="edit" label={t('thread.edit')} onClick={() => setMode('edit')} testId="post-edit" />
          ) : null}
          {item.ability.canDelete ? (
            <ActionButton icon="trash" label={t('thread.delete')} onClick={remove} testId="post-delete" />
          ) : null}
          {isComment ? null : <BountyReplyAction item={item} threadId={threadId} />}
          {viewer && viewer.userId !== item.user.userId ? (
            <ReportAction target={{ type: 2, threadId, postId: item.id }} />
          ) : null}
        </footer>
        {mode === 'comment' ? (
          <Composer
            label={t('thread.commentLabel', { name: item.user.nickname })}
            placeholder={t('thread.commentPlaceholder', { name: item.user.nickname })}
            submitLabel={t('thread.send')}
            onSubmit={comment}
            needsCaptcha={publishCaptcha}
            onCancel={() => setMode('view')}
            testId="comment-box"
          />
        ) : null}
        {item.comments.length > 0 ? (
          <div className="lt-post__comments">
            {item.comments.map((c) => (
              <PostView key={c.id} item={c} threadId={threadId} isComment target={target} />
            ))}
            {item.replyCount > item.comments.length ? (
              <p className="lt-post__more">
                {t('thread.moreComments', { count: item.replyCount - item.comments.length })}
              </p>
            ) : null}
          </div>
        ) : null}
      </div>
    </article>
  );
}

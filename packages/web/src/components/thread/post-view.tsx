import type { BountyPart, PostItem, ThreadDetail } from '@luntan/shared';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { post } from '../../api/mutate';
import { postAnchor } from '../forum/post-anchor';
import { PlainLink } from '../plain-link';
import { TimeText } from '../forum/time-text';
import { authorOf, UserAvatar, userHref } from '../people/user-hover-card';
import { toast } from '../ui';
import { ReportAction } from '../community/report-action';
import { ActionButton } from './action-button';
import { EditedMark } from './edited-mark';
import { Composer } from './composer';
import { BountyReplyAction } from '../thread-parts/bounty-part';

/**
 * What every post of a page shares, read once by the list (Replies) and handed to each post: a page of twenty replies
 * would otherwise subscribe to the site's and the thread's queries and translate the same labels twenty times over.
 * The list re-renders when any of it changes (the viewer signing in or out, the thread, the language).
 */
export interface PostShared {
  threadId: number;
  /** The signed-in viewer's id; null for a guest. */
  viewerId: number | null;
  /** The viewer is an administrator (the edit history: hiding a version). */
  isAdmin: boolean;
  /** Publishing asks for a captcha (the site's setting). */
  publishCaptcha: boolean;
  /** The thread and its bounty, when it is a bounty question: each reply shows its award mark and action. */
  bounty: { thread: ThreadDetail; part: BountyPart } | null;
  /** The post the address points at, marked. */
  target: number | null;
  /** Refreshes the thread and its replies after a change. */
  refresh: () => Promise<void>;
  t: TFunction;
  /** The labels every post shows, translated once (postLabels). */
  labels: PostLabels;
}

export type PostLabels = ReturnType<typeof postLabels>;

export function postLabels(t: TFunction) {
  return {
    replyTo: t('thread.replyTo'),
    underReview: t('forum.underReview'),
    like: t('thread.like'),
    comment: t('thread.comment'),
    edit: t('thread.edit'),
    delete: t('thread.delete'),
  };
}

export function PostView({ item, isComment, shared }: { item: PostItem; isComment?: boolean; shared: PostShared }) {
  const { threadId, viewerId, publishCaptcha, target, refresh, t, labels } = shared;
  const [mode, setMode] = useState<'view' | 'edit' | 'comment'>('view');

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
          <PlainLink className="lt-post__author" to={userHref(item.user.userId)}>
            {item.user.nickname}
          </PlainLink>
          {item.commentUser ? (
            <span className="lt-post__to">
              {labels.replyTo} {item.commentUser.nickname}
            </span>
          ) : null}
          <TimeText iso={item.createdAt} />
          <EditedMark
            postId={item.id}
            editedAt={item.editedAt}
            canOpen={shared.isAdmin || item.ability.canEdit || (viewerId !== null && viewerId === item.user.userId)}
            isAdmin={shared.isAdmin}
          />
          {!item.isApproved ? <span className="lt-tag lt-tag--review">{labels.underReview}</span> : null}
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
            label={labels.like}
            active={item.isLiked}
            count={item.likeCount}
            onClick={like}
            testId="post-like"
          />
          {item.ability.canReply ? (
            <ActionButton
              icon="comment"
              label={labels.comment}
              count={isComment ? undefined : item.replyCount}
              onClick={() => setMode(mode === 'comment' ? 'view' : 'comment')}
              testId="post-comment"
            />
          ) : null}
          {item.ability.canEdit ? (
            <ActionButton icon="edit" label={labels.edit} onClick={() => setMode('edit')} testId="post-edit" />
          ) : null}
          {item.ability.canDelete ? (
            <ActionButton icon="trash" label={labels.delete} onClick={remove} testId="post-delete" />
          ) : null}
          {shared.bounty && !isComment ? (
            <BountyReplyAction
              item={item}
              thread={shared.bounty.thread}
              bounty={shared.bounty.part}
              viewerId={viewerId}
            />
          ) : null}
          {viewerId !== null && viewerId !== item.user.userId ? (
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
              <PostView key={c.id} item={c} isComment shared={shared} />
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

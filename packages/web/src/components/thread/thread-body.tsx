import type { ThreadDetail } from '@luntan/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../i18n/use-translation';
import { useNavigate } from 'react-router';
import { post } from '../../api/mutate';
import { shareText } from '../forum/share-text';
import { TimeText } from '../forum/time-text';
import type { ThreadMoney } from '../money/thread-money';
import { Paywall, PriceTag, RewardButton, ThreadSupporters } from '../money/thread-paid';
import { PlainLink } from '../plain-link';
import { PluginSlot } from '../plugin/plugin-slot';
import { authorOf, UserAvatar, userHref } from '../people/user-hover-card';
import {
  AnonymousAvatar,
  AnonymousMark,
  AnonymousName,
  isHiddenAuthor,
  isKnownAnonymous,
} from '../people/anonymous-user';
import { Icon, toast } from '../ui';
import { useViewer } from '../../hooks/use-forum';
import { ReportAction } from '../community/report-action';
import { useRefresh } from './thread-hooks';
import { ActionButton } from './action-button';
import { EditedMark } from './edited-mark';
import { ThreadParts } from '../thread-parts/part-views';
import { PositionView } from '../thread-parts/position-view';

export function ThreadBody({ thread }: { thread: ThreadDetail }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const refresh = useRefresh(thread.threadId);
  const ability = thread.ability;
  const viewer = useViewer();

  const like = async () => {
    if (await post('/api/v3/posts.update', { id: thread.postId, isLiked: !thread.isLiked })) await refresh();
  };
  const favorite = async () => {
    if (await post('/api/v3/threads/operate', { id: thread.threadId, isFavorite: !thread.isFavorite })) {
      toast.success(thread.isFavorite ? t('thread.unfavorited') : t('thread.favorited'));
      await refresh();
    }
  };
  const operate = async (field: 'isSticky' | 'isEssence', value: boolean) => {
    if (await post('/api/v3/threads/operate', { id: thread.threadId, [field]: value })) await refresh();
  };
  const share = async () => {
    const url = window.location.origin + `/thread/${thread.threadId}`;
    const text = shareText(thread.title);
    try {
      await navigator.clipboard.writeText(`${text} ${url}`);
      toast.success(t('thread.shareCopied'));
    } catch {
      toast.info(`${text} ${url}`);
    }
  };
  const remove = async () => {
    if (!window.confirm(t('thread.confirmDelete'))) return;
    if (await post('/api/v3/thread.delete', { threadId: thread.threadId })) {
      toast.success(t('thread.deleted'));
      // Leave first: the page's own queries would fetch the deleted thread again (-4004 goes to /404).
      await queryClient.invalidateQueries({ queryKey: ['threads'], refetchType: 'none' });
      await queryClient.invalidateQueries({ queryKey: ['categories'], refetchType: 'none' });
      await navigate('/', { replace: true });
      queryClient.removeQueries({ queryKey: ['thread', thread.threadId] });
    }
  };

  return (
    <article className="lt-card lt-thread" aria-labelledby="thread-title">
      <header className="lt-thread__header">
        <PlainLink className="lt-thread__category" to={`/?categoryId=${thread.categoryId}`}>
          {thread.categoryName}
        </PlainLink>
        <h1 id="thread-title" className="lt-thread__title">
          {thread.isSticky ? <span className="lt-tag lt-tag--sticky">{t('forum.sticky')}</span> : null}
          {thread.isEssence ? <span className="lt-tag lt-tag--essence">{t('forum.essence')}</span> : null}
          {!thread.isApproved ? <span className="lt-tag lt-tag--review">{t('forum.underReview')}</span> : null}
          {thread.isDraft ? <span className="lt-tag lt-tag--review">{t('forum.draft')}</span> : null}
          <PriceTag thread={thread as ThreadDetail & ThreadMoney} />
          {thread.title}
        </h1>
        <div className="lt-thread__byline">
          {isHiddenAuthor(thread) ? <AnonymousAvatar /> : <UserAvatar user={authorOf(thread.user)} />}
          <div>
            {isHiddenAuthor(thread) ? (
              <AnonymousName className="lt-thread__author" />
            ) : (
              <PlainLink className="lt-thread__author" to={userHref(thread.user.userId)}>
                {thread.user.nickname}
              </PlainLink>
            )}
            {isKnownAnonymous(thread) ? <AnonymousMark /> : null}
            <div className="lt-thread__meta">
              <TimeText iso={thread.createdAt} />
              <EditedMark
                postId={thread.postId}
                editedAt={thread.editedAt}
                canOpen={
                  Boolean(viewer?.isAdmin) ||
                  thread.ability.canEdit ||
                  (viewer !== null && viewer.userId === thread.user.userId)
                }
                isAdmin={Boolean(viewer?.isAdmin)}
              />
              <span>
                <Icon name="eye" /> {thread.viewCount}
              </span>
            </div>
          </div>
        </div>
      </header>
      <div
        className="lt-prose"
        data-testid="thread-content"
        dangerouslySetInnerHTML={{ __html: thread.content.html }}
      />
      <ThreadParts thread={thread} />
      <PositionView position={thread.position ?? null} />
      <Paywall thread={thread} />
      <PluginSlot target="plugin_detail" hook="thread_extension_display_hook" threadData={thread} />
      <ThreadSupporters thread={thread} />
      <footer className="lt-thread__actions">
        <ActionButton
          icon="like"
          label={thread.isLiked ? t('thread.liked') : t('thread.like')}
          active={thread.isLiked}
          count={thread.likeCount}
          onClick={like}
          testId="thread-like"
        />
        <ActionButton
          icon="star"
          label={thread.isFavorite ? t('thread.favorited') : t('thread.favorite')}
          active={thread.isFavorite}
          onClick={favorite}
          testId="thread-favorite"
        />
        <ActionButton icon="share" label={t('thread.share')} onClick={share} testId="thread-share" />
        <RewardButton thread={thread} />
        {ability.canSticky ? (
          <ActionButton
            icon="pin"
            label={thread.isSticky ? t('thread.unstick') : t('thread.stick')}
            active={thread.isSticky}
            onClick={() => operate('isSticky', !thread.isSticky)}
          />
        ) : null}
        {ability.canEssence ? (
          <ActionButton
            icon="star"
            label={thread.isEssence ? t('thread.unessence') : t('thread.essence')}
            active={thread.isEssence}
            onClick={() => operate('isEssence', !thread.isEssence)}
          />
        ) : null}
        {ability.canEdit ? (
          <PlainLink className="lt-action" to={`/thread/post?threadId=${thread.threadId}`} data-testid="thread-edit">
            <Icon name="edit" />
            <span>{t('thread.edit')}</span>
          </PlainLink>
        ) : null}
        {ability.canDelete ? (
          <ActionButton icon="trash" label={t('thread.delete')} onClick={remove} testId="thread-delete" />
        ) : null}
        {viewer && viewer.userId !== thread.user.userId ? (
          <ReportAction target={{ type: 1, threadId: thread.threadId }} />
        ) : null}
      </footer>
    </article>
  );
}

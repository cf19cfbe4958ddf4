import type { ThreadDetail } from '@luntan/shared';
import { useTranslation } from '../../i18n/use-translation';
import { isSuccess } from '../../api/dispatcher';
import { useNavigate } from 'react-router';
import { postsQuery } from '../../api/forum-queries';
import { post } from '../../api/mutate';
import { useAppContext } from '../../app-context';
import { useQueryData } from '../../hooks/use-query-data';
import { Pager } from '../forum/pager';
import { PlainLink } from '../plain-link';
import { Spinner, toast } from '../ui';
import { useForum, useViewer } from '../../hooks/use-forum';
import { bountyOf } from '../thread-parts/bounty-part';
import { useRefresh, useTargetPost } from './thread-hooks';
import { Composer } from './composer';
import { PostView, postLabels, type PostShared } from './post-view';

export function Replies({ thread, page }: { thread: ThreadDetail; page: number }) {
  const { t } = useTranslation();
  const { api } = useAppContext();
  const viewer = useViewer();
  const publishCaptcha = useForum().forum?.other.createThreadWithCaptcha === true;
  const navigate = useNavigate();
  const refresh = useRefresh(thread.threadId);
  const result = useQueryData(postsQuery(api, thread.threadId, page));
  const list = result && isSuccess(result) ? result.Data : null;
  const target = useTargetPost();
  const bounty = bountyOf(thread);
  // Read once here for every post of the page (see PostShared).
  const shared: PostShared = {
    threadId: thread.threadId,
    viewerId: viewer?.userId ?? null,
    isAdmin: viewer?.isAdmin ?? false,
    publishCaptcha,
    bounty: bounty ? { thread, part: bounty } : null,
    target,
    refresh,
    t,
    labels: postLabels(t),
  };

  const reply = async (text: string, captcha?: string) => {
    const done = await post('/api/v3/posts.create', {
      id: thread.threadId,
      content: text,
      ...(captcha ? { captcha } : {}),
    });
    if (!done) return false;
    toast.success(t('thread.replied'));
    const last = Math.max(1, Math.ceil(((list?.totalCount ?? 0) + 1) / (list?.perPage ?? 20)));
    await refresh();
    if (last !== page) await navigate(`/thread/${thread.threadId}?page=${last}`);
    return true;
  };

  return (
    <section className="lt-card lt-replies" aria-labelledby="replies-heading">
      <h2 id="replies-heading" className="lt-card__title">
        {t('thread.repliesHeading', { count: list?.totalCount ?? thread.postCount })}
      </h2>
      {!result ? <Spinner /> : null}
      {result && !list ? <p className="lt-empty">{result.Message}</p> : null}
      {list && list.pageData.length === 0 ? <p className="lt-empty">{t('thread.noReplies')}</p> : null}
      {list?.pageData.map((item) => (
        <PostView key={item.id} item={item} shared={shared} />
      ))}
      {list ? <Pager current={list.currentPage} total={list.totalPage} /> : null}
      {thread.ability.canReply ? (
        <Composer
          label={t('thread.replyLabel')}
          placeholder={t('thread.replyPlaceholder')}
          submitLabel={t('thread.reply')}
          onSubmit={reply}
          needsCaptcha={publishCaptcha}
          testId="reply-box"
        />
      ) : !viewer ? (
        <p className="lt-replies__login">
          <PlainLink to="/user/login">{t('thread.loginToReply')}</PlainLink>
        </p>
      ) : null}
    </section>
  );
}

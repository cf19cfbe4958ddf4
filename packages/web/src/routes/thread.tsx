import { Code, type PostItem, type ThreadDetail } from '@luntan/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from '../i18n/use-translation';
import { isSuccess } from '../api/dispatcher';
import {
  data,
  Link,
  useLocation,
  useNavigate,
  useParams,
  useSearchParams,
  type LoaderFunctionArgs,
} from 'react-router';
import { positiveInt, postsQuery, threadDetailQuery } from '../api/forum-queries';
import { post } from '../api/mutate';
import { browserApi } from '../api/client';
import { useAppContext, type AppContext } from '../app-context';
import { useMentions } from '../components/forum/mention-suggest';
import { Pager } from '../components/forum/pager';
import { postAnchor } from '../components/forum/post-anchor';
import { shareText } from '../components/forum/share-text';
import { TimeText } from '../components/forum/time-text';
import type { ThreadMoney } from '../components/money/thread-money';
import { Paywall, PriceTag, RewardButton, ThreadSupporters } from '../components/money/thread-paid';
import { PluginSlot } from '../components/plugin/plugin-slot';
import { authorOf, UserAvatar, userHref } from '../components/people/user-hover-card';
import { Button, Icon, Spinner, Textarea, toast } from '../components/ui';
import { useForum, useViewer } from '../hooks/use-forum';
import { useCaptcha } from '../components/community/captcha';
import { ReportAction } from '../components/community/report-dialog';
import type { PageHead, RouteHandle } from '../routing/handle';
import '../components/forum/forum.css';
import './thread.css';
import '../components/forum/prose.css';
import { usePending } from '../hooks/use-pending';

interface ThreadLoaderData {
  head: PageHead | null;
}

export const handle: RouteHandle = {
  head: (loaderData) => (loaderData as ThreadLoaderData | undefined)?.head ?? null,
};

const DESCRIPTION_MAX = 100;

export async function loader(ctx: AppContext, { params, request }: LoaderFunctionArgs): Promise<ThreadLoaderData> {
  const threadId = positiveInt(params.threadId, 0);
  if (!threadId) throw data(null, { status: 404 });
  const page = positiveInt(new URL(request.url).searchParams.get('page'), 1);
  const [detail] = await Promise.all([
    ctx.queryClient.ensureQueryData(threadDetailQuery(ctx.api, threadId)),
    ctx.queryClient.ensureQueryData(postsQuery(ctx.api, threadId, page)),
  ]);
  if (detail.Code === Code.RESOURCE_NOT_FOUND) throw data(null, { status: 404 });
  if (detail.Code !== 0) return { head: null };
  const thread = detail.Data;
  return {
    head: {
      title: thread.title,
      description: [...thread.summary].slice(0, DESCRIPTION_MAX).join(''),
      type: 'article',
    },
  };
}

function useThreadId(): number {
  return positiveInt(useParams().threadId, 0);
}

/** Refreshes the thread, its replies and the lists that show its counts, after a change. */
function useRefresh(threadId: number): () => Promise<void> {
  const queryClient = useQueryClient();
  return async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: ['thread', threadId] }),
      queryClient.invalidateQueries({ queryKey: ['posts', threadId] }),
      queryClient.invalidateQueries({ queryKey: ['threads'], refetchType: 'none' }),
    ]);
  };
}

/** Counts one view per visit (not for the server's render, which robots also trigger). */
function useViewCount(threadId: number): void {
  const counted = useRef(0);
  useEffect(() => {
    if (!threadId || counted.current === threadId) return;
    counted.current = threadId;
    void browserApi.post('/api/v3/view.count', { threadId });
  }, [threadId]);
}

function ActionButton({
  icon,
  label,
  active,
  count,
  onClick,
  testId,
}: {
  icon: 'like' | 'star' | 'share' | 'edit' | 'trash' | 'comment' | 'pin';
  label: string;
  active?: boolean;
  count?: number;
  onClick: () => void | Promise<void>;
  testId?: string;
}) {
  const [busy, setBusy] = useState(false);
  const run = (): void => {
    if (busy) return;
    setBusy(true);
    Promise.resolve(onClick())
      .catch((error: unknown) => console.error(error))
      .finally(() => setBusy(false));
  };
  return (
    <button
      type="button"
      className={`lt-action${active ? ' lt-action--active' : ''}`}
      onClick={run}
      aria-pressed={active === undefined ? undefined : active}
      disabled={busy}
      data-testid={testId}
    >
      <Icon name={icon} />
      <span>{label}</span>
      {count !== undefined ? <span className="lt-action__count">{count}</span> : null}
    </button>
  );
}

function ThreadBody({ thread }: { thread: ThreadDetail }) {
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
        <Link className="lt-thread__category" to={`/?categoryId=${thread.categoryId}`}>
          {thread.categoryName}
        </Link>
        <h1 id="thread-title" className="lt-thread__title">
          {thread.isSticky ? <span className="lt-tag lt-tag--sticky">{t('forum.sticky')}</span> : null}
          {thread.isEssence ? <span className="lt-tag lt-tag--essence">{t('forum.essence')}</span> : null}
          {!thread.isApproved ? <span className="lt-tag lt-tag--review">{t('forum.underReview')}</span> : null}
          {thread.isDraft ? <span className="lt-tag lt-tag--review">{t('forum.draft')}</span> : null}
          <PriceTag thread={thread as ThreadDetail & ThreadMoney} />
          {thread.title}
        </h1>
        <div className="lt-thread__byline">
          <UserAvatar user={authorOf(thread.user)} />
          <div>
            <Link className="lt-thread__author" to={userHref(thread.user.userId)}>
              {thread.user.nickname}
            </Link>
            <div className="lt-thread__meta">
              <TimeText iso={thread.createdAt} />
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
          <Link className="lt-action" to={`/thread/post?threadId=${thread.threadId}`} data-testid="thread-edit">
            <Icon name="edit" />
            <span>{t('thread.edit')}</span>
          </Link>
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

/** A reply box: a labelled textarea and a send button. */
function Composer({
  label,
  placeholder,
  initial = '',
  submitLabel,
  onSubmit,
  onCancel,
  testId,
  needsCaptcha = false,
}: {
  label: string;
  placeholder?: string;
  initial?: string;
  submitLabel: string;
  onSubmit: (text: string, captcha?: string) => Promise<boolean>;
  onCancel?: () => void;
  testId: string;
  /** posts.create while the viewer's group must solve a captcha to publish. */
  needsCaptcha?: boolean;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState(initial);
  const textareaId = useId();
  const mentions = useMentions(textareaId, text, setText);
  const { pending, run } = usePending();
  const captcha = useCaptcha(needsCaptcha);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim()) {
      toast.warning(t('thread.emptyReply'));
      return;
    }
    run(async () => onSubmit(text, await captcha.take()))
      .then((done) => {
        if (done) setText('');
      })
      .catch((error: unknown) => console.error(error));
  };
  return (
    <form className="lt-composer" onSubmit={submit} data-testid={testId}>
      <div className="lt-mention-host">
        <Textarea
          id={textareaId}
          aria-label={label}
          placeholder={placeholder}
          value={text}
          onChange={setText}
          rows={3}
          maxLength={50_000}
          {...mentions.textareaProps}
        />
        {mentions.popup}
      </div>
      {captcha.element}
      <div className="lt-composer__actions">
        {onCancel ? (
          <Button type="text" size="small" onClick={onCancel}>
            {t('thread.cancel')}
          </Button>
        ) : null}
        <Button type="primary" size="small" htmlType="submit" loading={pending}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}

/**
 * The post the address points at (`#post-N`: from a notice or a search), for marking it. CSS's :target misses an
 * address changed by the router (history.pushState), and the server never sees the fragment, so it is read after
 * hydration.
 */
function useTargetPost(): number | null {
  const { hash } = useLocation();
  const [target, setTarget] = useState<number | null>(null);
  useEffect(() => {
    const match = /^#post-(\d+)$/.exec(hash);
    setTarget(match ? Number(match[1]) : null);
  }, [hash]);
  return target;
}

function PostView({
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

function Replies({ thread, page }: { thread: ThreadDetail; page: number }) {
  const { t } = useTranslation();
  const { api } = useAppContext();
  const viewer = useViewer();
  const publishCaptcha = useForum().forum?.other.createThreadWithCaptcha === true;
  const navigate = useNavigate();
  const refresh = useRefresh(thread.threadId);
  const result = useQuery(postsQuery(api, thread.threadId, page)).data;
  const list = result && isSuccess(result) ? result.Data : null;
  const target = useTargetPost();

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
        <PostView key={item.id} item={item} threadId={thread.threadId} target={target} />
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
          <Link to="/user/login">{t('thread.loginToReply')}</Link>
        </p>
      ) : null}
    </section>
  );
}

/** A thread: the first post, its actions, the replies with paging and the reply box. */
export function Component() {
  const { t } = useTranslation();
  const { api } = useAppContext();
  const threadId = useThreadId();
  const [search] = useSearchParams();
  const page = positiveInt(search.get('page'), 1);
  const result = useQuery(threadDetailQuery(api, threadId)).data;
  useViewCount(threadId);
  if (!result) return <Spinner />;
  if (!isSuccess(result)) {
    return (
      <section className="lt-card lt-error-page" role="alert">
        <h1>{result.Message}</h1>
        <Link to="/">{t('errors.home')}</Link>
      </section>
    );
  }
  return (
    <div className="lt-thread-page">
      <ThreadBody thread={result.Data} />
      <Replies thread={result.Data} page={page} />
    </div>
  );
}

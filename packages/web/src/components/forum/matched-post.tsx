import { COMMENTS_PREVIEW, type SearchMatchedPost } from '@luntan/shared';
import { Link } from 'react-router';
import { REPLIES_PER_PAGE } from '../../api/forum-queries';
import { useTranslation } from '../../i18n/use-translation';
import { Highlight } from './highlight';
import { postAnchor } from './post-anchor';
import { TimeText } from './time-text';

/**
 * Where a post is on its thread's page: the page of its reply, anchored on the post (on a comment's reply when the
 * page does not show the comment itself: only a reply's first comments are there).
 */
export function matchedPostHref(threadId: number, post: SearchMatchedPost): string {
  const page = Math.ceil(post.position / REPLIES_PER_PAGE);
  const shown = !post.isComment || (post.commentPosition ?? Infinity) <= COMMENTS_PREVIEW;
  const anchor = shown ? post.postId : (post.replyPostId ?? post.postId);
  return `/thread/${threadId}${page > 1 ? `?page=${page}` : ''}#${postAnchor(anchor)}`;
}

/** The reply or comment through which a search found a thread: who wrote it, when, the text around the match. */
export function MatchedPost({
  threadId,
  post,
  keyword,
}: {
  threadId: number;
  post: SearchMatchedPost;
  keyword?: string | undefined;
}) {
  const { t } = useTranslation();
  return (
    <Link className="lt-matched-post" to={matchedPostHref(threadId, post)} data-testid="matched-post">
      <span className="lt-matched-post__meta">
        {t(post.isComment ? 'search.inComment' : 'search.inReply', { name: post.user.nickname })}
        <TimeText iso={post.createdAt} />
      </span>
      <span className="lt-matched-post__excerpt">
        <Highlight text={post.excerpt} keyword={keyword} />
      </span>
    </Link>
  );
}

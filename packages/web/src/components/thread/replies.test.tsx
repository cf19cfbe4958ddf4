import type { BountyPart, Page, PostItem, ThreadDetail } from '@luntan/shared';
import { act, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { forumKey } from '../../api/queries';
import { envelope, forum, viewer } from '../../test/fixtures';
import { fakeApi, renderWithApp } from '../../test/render';
import { Replies } from './replies';

/*
 * The reply list reads the viewer, the site's settings and the thread's bounty once and hands them to every post
 * (post-view.tsx's PostShared): what each post shows still follows the viewer and the thread as they change.
 */

const AUTHOR = 2;
const OTHER = 1;

function reply(id: number, userId: number): PostItem {
  return {
    id,
    threadId: 9,
    user: { userId, nickname: `user${userId}`, avatar: '' },
    content: { text: `reply ${id}`, html: `<p>reply ${id}</p>` },
    replyPostId: null,
    replyUserId: null,
    commentPostId: null,
    commentUser: null,
    likeCount: 0,
    replyCount: 0,
    isFirst: false,
    isComment: false,
    isApproved: true,
    isLiked: false,
    createdAt: '2026-11-21T08:05:00.000Z',
    updatedAt: '2026-11-21T08:05:00.000Z',
    editedAt: null,
    ability: { canEdit: false, canDelete: false, canLike: true, canReply: false },
    comments: [],
  } as PostItem;
}

const bounty = (overrides: Partial<BountyPart> = {}): BountyPart => ({
  type: 0,
  amount: '50.00',
  price: '50.00',
  remaining: '30.00',
  remainMoney: '30.00',
  expiredAt: new Date(Date.now() + 86_400_000).toISOString(),
  isExpired: false,
  awards: [{ postId: 11, userId: OTHER, nickname: `user${OTHER}`, amount: '20.00', createdAt: '2026-11-21T08:05:00Z' }],
  ...overrides,
});

function thread(part: BountyPart | null): ThreadDetail {
  return {
    threadId: 9,
    postId: 10,
    title: 'A question',
    user: { userId: AUTHOR, nickname: `user${AUTHOR}`, avatar: '' },
    postCount: 2,
    ability: { canReply: false },
    content: { text: '', html: '', indexes: part ? { '107': { tomId: '107', operation: 'create', body: part } } : {} },
  } as unknown as ThreadDetail;
}

const page = (items: PostItem[]): Page<PostItem> => ({
  pageData: items,
  currentPage: 1,
  perPage: 20,
  totalCount: items.length,
  totalPage: 1,
});

function renderReplies(detail: ThreadDetail, userId: number | null) {
  const api = fakeApi({ '/api/v3/posts.list': () => page([reply(11, OTHER), reply(12, AUTHOR), reply(13, OTHER)]) });
  const view = renderWithApp(<Replies thread={detail} page={1} />, {
    api,
    forum: forum({ user: userId === null ? null : viewer({ userId }) }),
  });
  // The query cache tells its observers on the next tick.
  const signIn = (id: number | null) =>
    act(async () => {
      view.ctx.queryClient.setQueryData(
        forumKey,
        envelope(forum({ user: id === null ? null : viewer({ userId: id }) })),
      );
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
  return { ...view, signIn };
}

const post = (id: number) => document.querySelector<HTMLElement>(`[data-post-id="${id}"]`)!;

describe('Replies', () => {
  it("shows the report action on others' replies once the viewer signs in, and hides it when they sign out", async () => {
    const { signIn } = renderReplies(thread(null), null);
    await screen.findByText('reply 11');
    expect(screen.queryAllByTestId('report-post')).toHaveLength(0);

    await signIn(AUTHOR);
    expect(within(post(11)).getByTestId('report-post')).toBeTruthy();
    expect(within(post(12)).queryByTestId('report-post')).toBeNull();
    expect(within(post(13)).getByTestId('report-post')).toBeTruthy();

    await signIn(null);
    expect(screen.queryAllByTestId('report-post')).toHaveLength(0);
  });

  it("offers the thread's author the award on others' replies of a bounty question and marks what was awarded", async () => {
    const { signIn } = renderReplies(thread(bounty()), OTHER);
    await screen.findByText('reply 11');
    expect(within(post(11)).getByTestId('bounty-awarded-mark').textContent).toContain('20.00');
    expect(screen.queryAllByTestId('bounty-award')).toHaveLength(0);

    await signIn(AUTHOR);
    expect(within(post(11)).getByTestId('bounty-award')).toBeTruthy();
    expect(within(post(12)).queryByTestId('bounty-award')).toBeNull();
    expect(within(post(13)).getByTestId('bounty-award')).toBeTruthy();
  });

  it('offers no award when the bounty has ended, and shows no bounty on a thread without one', async () => {
    const ended = renderReplies(thread(bounty({ isExpired: true })), AUTHOR);
    await screen.findByText('reply 11');
    expect(screen.queryAllByTestId('bounty-award')).toHaveLength(0);
    expect(screen.getAllByTestId('bounty-awarded-mark')).toHaveLength(1);
    ended.unmount();

    renderReplies(thread(null), AUTHOR);
    await screen.findByText('reply 11');
    expect(screen.queryAllByTestId('bounty-award')).toHaveLength(0);
    expect(screen.queryAllByTestId('bounty-awarded-mark')).toHaveLength(0);
  });
});

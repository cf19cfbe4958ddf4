import type { Page, ThreadItem } from '@luntan/shared';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { forum, viewer } from '../../test/fixtures';
import { fakeApi, renderWithApp } from '../../test/render';
import { ProfileThreads } from './profile-lists';

/** A listed thread with what the card reads; the rest of ThreadItem does not matter here. */
function thread(threadId: number, userStickStatus: boolean): ThreadItem {
  return {
    threadId,
    postId: threadId,
    categoryId: 1,
    categoryName: 'Default',
    title: `Thread ${threadId}`,
    summary: '',
    user: { userId: 7, nickname: 'Alice', avatar: '' },
    viewCount: 0,
    postCount: 0,
    likeCount: 0,
    isSticky: false,
    isEssence: false,
    isApproved: true,
    createdAt: '2026-01-02T03:04:05.000Z',
    position: null,
    userStickStatus,
  } as unknown as ThreadItem;
}

function renderList(userId: number) {
  const page: Page<ThreadItem> = {
    pageData: [thread(2, true), thread(1, false)],
    currentPage: 1,
    perPage: 20,
    totalCount: 2,
    totalPage: 1,
  } as Page<ThreadItem>;
  const api = fakeApi({ '/api/v3/thread.list': () => page });
  return renderWithApp(<ProfileThreads list="threads" userId={userId} page={1} />, {
    api,
    forum: forum({ user: viewer({ userId: 7 }) }),
  });
}

describe('the thread a member pinned to their profile', () => {
  it('is marked, and its owner has a button to unpin it and to pin another', async () => {
    renderList(7);
    await waitFor(() => expect(screen.getAllByTestId('thread-card')).toHaveLength(2));
    expect(screen.getAllByTestId('profile-pin-mark').map((m) => m.textContent)).toEqual(['主页置顶']);
    expect(screen.getAllByTestId('profile-pin-button').map((b) => b.textContent)).toEqual(['取消置顶', '置顶到主页']);
  });

  it('is marked for other viewers too, without the buttons', async () => {
    renderList(5);
    await waitFor(() => expect(screen.getAllByTestId('thread-card')).toHaveLength(2));
    expect(screen.getAllByTestId('profile-pin-mark')).toHaveLength(1);
    expect(screen.queryAllByTestId('profile-pin-button')).toEqual([]);
  });
});

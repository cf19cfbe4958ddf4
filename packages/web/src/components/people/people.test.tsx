import { HOVER_CARD_CLOSE_DELAY_MS, type UserProfile } from '@luntan/shared';
import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { profileThreadsRequest } from '../../api/people-queries';
import { forum, viewer } from '../../test/fixtures';
import { fakeApi, renderWithApp } from '../../test/render';
import { profileTabHref, readProfileParams } from './profile-header';
import { chatHref } from './user-actions';
import { UserAvatar } from './user-hover-card';

function profile(overrides: Partial<UserProfile> = {}): UserProfile {
  return {
    id: 5,
    username: 'bob',
    nickname: 'Bob',
    avatarUrl: '',
    backgroundUrl: '',
    signature: '',
    threadCount: 3,
    likedCount: 4,
    followCount: 5,
    fansCount: 6,
    follow: 0,
    isDeny: false,
    isDenied: false,
    likesVisible: true,
    likesPublic: true,
    joinedAt: '2026-01-02T03:04:05.000Z',
    group: null,
    isMe: false,
    ...overrides,
  };
}

describe('profile addresses', () => {
  it('reads the tab and page, falling back to the first tab', () => {
    const tabs = ['threads', 'fans'] as const;
    expect(readProfileParams(new URLSearchParams('tab=fans&page=3'), tabs)).toEqual({ tab: 'fans', page: 3 });
    expect(readProfileParams(new URLSearchParams('tab=settings&page=-1'), tabs)).toEqual({ tab: 'threads', page: 1 });
    expect(profileTabHref('/user/5', 'threads', 'threads')).toBe('/user/5');
    expect(profileTabHref('/user/5', 'fans', 'threads')).toBe('/user/5?tab=fans');
  });

  it('opens the private chat of the spec, the nickname encoded', () => {
    expect(chatHref(5, '张 三&')).toBe('/message?page=chat&userId=5&nickname=%E5%BC%A0%20%E4%B8%89%26');
  });

  it("asks thread.list for a member's threads and likes, and for one's own drafts and favourites", () => {
    expect(profileThreadsRequest('threads', 5, 2)).toMatchObject({ page: 2, filter: { complex: 5, toUserId: 5 } });
    expect(profileThreadsRequest('liked', 5, 1)).toMatchObject({ filter: { complex: 2, toUserId: 5 } });
    expect(profileThreadsRequest('drafts', 5, 1).filter).toEqual({ complex: 1, sort: 4 });
    expect(profileThreadsRequest('favorites', 5, 1).filter).toEqual({ complex: 3, sort: 1 });
  });
});

describe('the hover card', () => {
  // The card's content is its own chunk (React.lazy): loaded once here, so the timings below are the card's own.
  beforeAll(async () => {
    await import('./user-card-content');
  });

  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const flush = async (ms = 0): Promise<void> => {
    await act(async () => {
      await vi.advanceTimersByTimeAsync(ms);
    });
  };

  function renderAvatar(answer: UserProfile, platform: 'pc' | 'h5' = 'pc') {
    const api = fakeApi({ '/api/v3/user': () => answer });
    const rendered = renderWithApp(<UserAvatar user={{ id: answer.id, nickname: 'Bob', avatar: '' }} />, {
      api,
      platform,
      forum: forum({ user: viewer() }),
    });
    return { ...rendered, api, anchor: rendered.container.querySelector('.lt-hover-card-anchor') };
  }

  it('opens on mouse enter in its loading state, then shows the profile and the three buttons', async () => {
    const { anchor, api } = renderAvatar(profile({ signature: '' }));
    fireEvent.mouseEnter(anchor!);
    const card = screen.getByTestId('user-card');
    expect(card.getAttribute('data-state')).toBe('loading');
    await flush();
    expect(card.getAttribute('data-state')).toBe('shown');
    expect(api.calls.filter((c) => c.path === '/api/v3/user')).toHaveLength(1);
    expect(screen.getByTestId('signature').textContent).toBe('这个人很懒，什么也没有留下');
    expect(['threads', 'likes', 'follows', 'fans'].map((n) => screen.getByTestId(`count-${n}`).textContent)).toEqual([
      '3',
      '4',
      '5',
      '6',
    ]);
    expect(screen.getByTestId('follow-button').textContent).toBe('关注');
    expect(screen.getByTestId('message-button').getAttribute('href')).toBe(chatHref(5, 'Bob'));
    expect(screen.getByTestId('block-button').textContent).toBe('屏蔽');
  });

  it('closes 200 ms after the mouse leaves, stays open when it comes back in time, and reloads next time', async () => {
    const { anchor, api } = renderAvatar(profile());
    fireEvent.mouseEnter(anchor!);
    await flush();
    fireEvent.mouseLeave(anchor!);
    await flush(HOVER_CARD_CLOSE_DELAY_MS - 1);
    expect(screen.getByTestId('user-card')).toBeTruthy();
    fireEvent.mouseEnter(screen.getByTestId('user-card'));
    await flush(HOVER_CARD_CLOSE_DELAY_MS);
    expect(screen.getByTestId('user-card')).toBeTruthy();
    fireEvent.mouseLeave(screen.getByTestId('user-card'));
    await flush(HOVER_CARD_CLOSE_DELAY_MS);
    expect(screen.queryByTestId('user-card')).toBeNull();

    fireEvent.mouseEnter(anchor!);
    expect(screen.getByTestId('user-card').getAttribute('data-state')).toBe('loading');
    await flush();
    expect(api.calls.filter((c) => c.path === '/api/v3/user')).toHaveLength(2);
  });

  it("hides the buttons on one's own card, and shows mutual", async () => {
    const own = renderAvatar(profile({ isMe: true }));
    fireEvent.mouseEnter(own.anchor!);
    await flush();
    expect(screen.queryByTestId('user-actions')).toBeNull();
    own.unmount();
    const other = renderAvatar(profile({ follow: 2 }));
    fireEvent.mouseEnter(other.anchor!);
    await flush();
    expect(screen.getByTestId('follow-button').textContent).toBe('互相关注');
  });

  it('is a plain link to the member page on a phone', () => {
    // A phone-wide window, so the layout stays mobile after the first render.
    vi.spyOn(window, 'innerWidth', 'get').mockReturnValue(390);
    const { anchor, container } = renderAvatar(profile(), 'h5');
    expect(anchor).toBeNull();
    expect(container.querySelector('a[data-testid="user-avatar"]')?.getAttribute('href')).toBe('/user/5');
  });
});

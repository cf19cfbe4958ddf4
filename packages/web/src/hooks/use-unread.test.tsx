import { UNREAD_POLL_INTERVAL_MS } from '@luntan/shared';
import { act, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { forum, unread, viewer } from '../test/fixtures';
import { fakeApi, renderWithApp } from '../test/render';
import { useUnreadPolling } from './use-unread';

function Probe({ userId }: { userId: number | null }) {
  const counters = useUnreadPolling(userId);
  return <p data-testid="total">{counters ? counters.totalUnread : 'none'}</p>;
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const unreadCalls = (api: ReturnType<typeof fakeApi>): number =>
  api.calls.filter((call) => call.path === '/api/v3/unreadnotification').length;

describe('unread polling', () => {
  it('fetches at once and then every 60 s while a user id exists, and stops on unmount', async () => {
    let total = 3;
    const api = fakeApi({ '/api/v3/unreadnotification': () => unread(total) });
    const { unmount } = renderWithApp(<Probe userId={7} />, { api, forum: forum({ user: viewer() }) });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(unreadCalls(api)).toBe(1);
    expect(screen.getByTestId('total').textContent).toBe('3');

    total = 12;
    await act(async () => {
      await vi.advanceTimersByTimeAsync(UNREAD_POLL_INTERVAL_MS - 1);
    });
    expect(unreadCalls(api)).toBe(1);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1);
    });
    expect(unreadCalls(api)).toBe(2);
    // The query cache batches its notifications on a timer.
    await act(async () => {
      await vi.advanceTimersByTimeAsync(10);
    });
    expect(screen.getByTestId('total').textContent).toBe('12');

    await act(async () => {
      await vi.advanceTimersByTimeAsync(UNREAD_POLL_INTERVAL_MS);
    });
    expect(unreadCalls(api)).toBe(3);

    unmount();
    await vi.advanceTimersByTimeAsync(UNREAD_POLL_INTERVAL_MS * 3);
    expect(unreadCalls(api)).toBe(3);
  });

  it('does not fetch without a user id', async () => {
    const api = fakeApi({ '/api/v3/unreadnotification': () => unread(1) });
    renderWithApp(<Probe userId={null} />, { api, forum: forum() });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(UNREAD_POLL_INTERVAL_MS * 2);
    });
    expect(unreadCalls(api)).toBe(0);
    expect(screen.getByTestId('total').textContent).toBe('none');
  });
});

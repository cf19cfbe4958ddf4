import { useQuery } from '@tanstack/react-query';
import { act } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dialogListQuery, noticesQuery } from '../api/message-queries';
import { readAccessToken, saveAccessToken } from '../api/token-store';
import { useAppContext } from '../app-context';
import { forum, unread, viewer } from '../test/fixtures';
import { fakeApi, renderWithApp, type TestApi } from '../test/render';
import { LIVE_URL, useLiveUpdates } from './use-live-updates';

/** Stands in for the browser's EventSource: the test opens, feeds and fails streams by hand. */
class FakeEventSource {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static instances: FakeEventSource[] = [];
  readyState = FakeEventSource.CONNECTING;
  private listeners = new Map<string, Array<(event: Event) => void>>();

  constructor(
    readonly url: string,
    readonly init?: EventSourceInit,
  ) {
    FakeEventSource.instances.push(this);
  }

  addEventListener(kind: string, listener: (event: Event) => void): void {
    this.listeners.set(kind, [...(this.listeners.get(kind) ?? []), listener]);
  }

  emit(kind: string, data: unknown = { kind }): void {
    if (kind === 'open') this.readyState = FakeEventSource.OPEN;
    for (const listener of this.listeners.get(kind) ?? []) {
      listener(new MessageEvent(kind, { data: JSON.stringify(data) }));
    }
  }

  fail(): void {
    this.readyState = FakeEventSource.CLOSED;
    this.emit('error');
  }

  close(): void {
    this.readyState = FakeEventSource.CLOSED;
  }
}

const streams = FakeEventSource.instances;
const calls = (api: TestApi, path: string): number => api.calls.filter((c) => c.path.split('?')[0] === path).length;

/** The shell's stream, plus a dialog list and a notice list on screen (as the message centre would have). */
function Probe({ userId }: { userId: number | null }) {
  const { api } = useAppContext();
  useLiveUpdates(userId);
  useQuery({ ...dialogListQuery(api, 1, 7), enabled: userId !== null });
  useQuery({ ...noticesQuery(api, 'thread', 1, 7), enabled: userId !== null });
  return null;
}

function setUp(answers: Record<string, (body?: unknown) => unknown> = {}) {
  const page = { pageData: [], currentPage: 1, perPage: 20, totalCount: 0, totalPage: 0 };
  const api = fakeApi({
    '/api/v3/unreadnotification': () => unread(1),
    '/api/v3/dialog': () => page,
    '/api/v3/notification': () => page,
    '/api/v3/forum': () => forum({ user: viewer() }),
    ...answers,
  });
  return api;
}

const settle = () =>
  act(async () => {
    await vi.advanceTimersByTimeAsync(20);
  });

beforeEach(() => {
  vi.useFakeTimers();
  streams.length = 0;
  vi.stubGlobal('EventSource', FakeEventSource);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('live updates', () => {
  it('opens one stream for a signed-in member, and closes it when the page goes', async () => {
    const api = setUp();
    const { unmount } = renderWithApp(<Probe userId={7} />, { api, forum: forum({ user: viewer() }) });
    await settle();
    expect(streams).toHaveLength(1);
    expect(streams[0]!.url).toBe(LIVE_URL);
    unmount();
    expect(streams[0]!.readyState).toBe(FakeEventSource.CLOSED);
  });

  it('opens none for a guest', async () => {
    renderWithApp(<Probe userId={null} />, { api: setUp(), forum: forum() });
    await settle();
    expect(streams).toHaveLength(0);
  });

  it('refreshes the counters and the dialogs on a message, the notices only on a notice', async () => {
    const api = setUp();
    renderWithApp(<Probe userId={7} />, { api, forum: forum({ user: viewer() }) });
    await settle();
    const before = {
      unread: calls(api, '/api/v3/unreadnotification'),
      dialogs: calls(api, '/api/v3/dialog'),
      notices: calls(api, '/api/v3/notification'),
    };
    const stream = streams[0]!;

    await act(async () => stream.emit('dialogMessage', { kind: 'dialogMessage', dialogId: 3, messageId: 9 }));
    await settle();
    expect(calls(api, '/api/v3/unreadnotification')).toBe(before.unread + 1);
    expect(calls(api, '/api/v3/dialog')).toBe(before.dialogs + 1);
    expect(calls(api, '/api/v3/notification')).toBe(before.notices);

    // Listing notices marks them read, which may itself announce `unread`: that must not list them again.
    await act(async () => stream.emit('unread'));
    await settle();
    expect(calls(api, '/api/v3/unreadnotification')).toBe(before.unread + 2);
    expect(calls(api, '/api/v3/notification')).toBe(before.notices);

    await act(async () => stream.emit('notification', { kind: 'notification', category: 'thread' }));
    await settle();
    expect(calls(api, '/api/v3/unreadnotification')).toBe(before.unread + 3);
    expect(calls(api, '/api/v3/notification')).toBe(before.notices + 1);
  });

  it('catches up when it first opens (what happened since the render), then marks the document until it fails', async () => {
    const api = setUp();
    const { unmount } = renderWithApp(<Probe userId={7} />, { api, forum: forum({ user: viewer() }) });
    await settle();
    const before = {
      unread: calls(api, '/api/v3/unreadnotification'),
      dialogs: calls(api, '/api/v3/dialog'),
      notices: calls(api, '/api/v3/notification'),
    };
    expect(document.documentElement.dataset.live).toBeUndefined();

    await act(async () => streams[0]!.emit('open'));
    await settle();
    expect(calls(api, '/api/v3/unreadnotification')).toBe(before.unread + 1);
    expect(calls(api, '/api/v3/dialog')).toBe(before.dialogs + 1);
    expect(calls(api, '/api/v3/notification')).toBe(before.notices + 1);
    expect(document.documentElement.dataset.live).toBe('open');

    await act(async () => streams[0]!.fail());
    expect(document.documentElement.dataset.live).toBeUndefined();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(5_000);
    });
    await act(async () => streams[1]!.emit('open'));
    await settle();
    expect(document.documentElement.dataset.live).toBe('open');
    unmount();
    expect(document.documentElement.dataset.live).toBeUndefined();
  });

  it('opens a refused stream again later, and catches up once it is back', async () => {
    const api = setUp();
    renderWithApp(<Probe userId={7} />, { api, forum: forum({ user: viewer() }) });
    await settle();
    streams[0]!.emit('open');
    streams[0]!.fail();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(4_999);
    });
    expect(streams).toHaveLength(1);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1);
    });
    expect(streams).toHaveLength(2);
    const unreadBefore = calls(api, '/api/v3/unreadnotification');
    await act(async () => streams[1]!.emit('open'));
    await settle();
    expect(calls(api, '/api/v3/unreadnotification')).toBe(unreadBefore + 1);
  });

  it('forgets the session when the member signed out elsewhere', async () => {
    saveAccessToken('token-of-this-tab');
    let signedIn = true;
    const api = setUp({ '/api/v3/forum': () => forum({ user: signedIn ? viewer() : null }) });
    renderWithApp(<Probe userId={7} />, { api, forum: forum({ user: viewer() }) });
    await settle();

    // Another of the member's sessions ended: this one stays.
    await act(async () => streams[0]!.emit('logout'));
    await settle();
    expect(readAccessToken()).toBe('token-of-this-tab');

    signedIn = false;
    await act(async () => streams[0]!.emit('logout'));
    await settle();
    expect(readAccessToken()).toBeNull();
  });
});

import { LIVE_EVENT_KINDS, type LiveEventKind } from '@luntan/shared';
import { useEffect } from 'react';
import { dialogsKey, notificationsKey } from '../api/message-queries';
import { forumQuery } from '../api/queries';
import { useAppContext, type AppContext } from '../app-context';
import { forgetSession } from '../auth/session';
import { refreshUnread } from './use-unread';
import { endpoints } from '../api/endpoints';

/** The signed-in member's event stream (server-sent events, authenticated by the session cookie). */
export const LIVE_URL = endpoints.live;

export const LIVE_EVENTS = LIVE_EVENT_KINDS;
export type { LiveEventKind };

/** A stream the server refused or lost for good is opened again after this long, doubling up to the poll's minute. */
const RETRY_FIRST_MS = 5_000;
const RETRY_MAX_MS = 60_000;

/**
 * What an event refreshes. The events only name what changed; the pages read it again through the API (only the
 * queries on screen are fetched now, the others when next shown). `unread` never refreshes the notice lists: listing
 * notices marks them read, which may itself announce `unread`.
 */
export async function applyLiveEvent(ctx: AppContext, userId: number, kind: LiveEventKind): Promise<void> {
  const { queryClient } = ctx;
  switch (kind) {
    case 'dialogMessage':
    case 'dialogRead':
      await Promise.all([refreshUnread(ctx, userId), queryClient.invalidateQueries({ queryKey: dialogsKey })]);
      return;
    case 'unread':
      await Promise.all([
        refreshUnread(ctx, userId),
        queryClient.invalidateQueries({ queryKey: [...dialogsKey, userId, 'list'] }),
      ]);
      return;
    case 'notification':
      await Promise.all([refreshUnread(ctx, userId), queryClient.invalidateQueries({ queryKey: notificationsKey })]);
      return;
    case 'logout': {
      // Some session of this member ended: if it was this one (another tab signed out), forget it here too; the
      // viewer becoming a guest closes the stream.
      const forum = await queryClient.fetchQuery({ ...forumQuery(ctx.api), staleTime: 0 });
      if (forum.Code === 0 && !forum.Data.user) await forgetSession(ctx);
      return;
    }
  }
}

/** Whatever happened while no stream was listening: before the first open, or while the connection was lost. */
async function catchUp(ctx: AppContext, userId: number): Promise<void> {
  await Promise.all([
    refreshUnread(ctx, userId),
    ctx.queryClient.invalidateQueries({ queryKey: dialogsKey }),
    ctx.queryClient.invalidateQueries({ queryKey: notificationsKey }),
  ]);
}

/**
 * `<html data-live="open">` while the stream is open and what happened before it opened has been read: from then on
 * every change reaches the page (tests wait for it before they change something).
 */
function markLive(open: boolean): void {
  if (open) document.documentElement.dataset.live = 'open';
  else delete document.documentElement.dataset.live;
}

/**
 * One stream per page for a signed-in member (the app shell opens it): new private messages, read marks, notices and
 * counter changes arrive at once, and the header's 60-second poll stays as the fallback. Closed when the viewer
 * signs out (here or elsewhere) and when the page goes.
 */
export function useLiveUpdates(userId: number | null | undefined): void {
  const { api, queryClient, isServer } = useAppContext();

  useEffect(() => {
    if (!userId || isServer || typeof EventSource === 'undefined') return;
    const ctx: AppContext = { api, queryClient, isServer };
    let source: EventSource | null = null;
    let retryTimer: ReturnType<typeof setTimeout> | null = null;
    let retryMs = RETRY_FIRST_MS;
    let stopped = false;

    const open = (): void => {
      const stream = new EventSource(LIVE_URL, { withCredentials: true });
      source = stream;
      stream.addEventListener('open', () => {
        retryMs = RETRY_FIRST_MS;
        // On every open, the first too: an event sent between the page's render and the server's subscription of
        // this stream went to nobody.
        catchUp(ctx, userId)
          .catch((error: unknown) => console.error(error))
          .finally(() => {
            if (!stopped && source === stream && stream.readyState === EventSource.OPEN) markLive(true);
          });
      });
      for (const kind of LIVE_EVENTS) {
        stream.addEventListener(kind, () => {
          applyLiveEvent(ctx, userId, kind).catch((error: unknown) => console.error(error));
        });
      }
      stream.addEventListener('error', () => {
        markLive(false);
        // CONNECTING: the browser reconnects by itself (the server asks for 3 s). CLOSED: it gave up (an HTTP error).
        if (stream.readyState !== EventSource.CLOSED || stopped) return;
        stream.close();
        retryTimer = setTimeout(open, retryMs);
        retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
      });
    };
    open();

    return () => {
      stopped = true;
      if (retryTimer !== null) clearTimeout(retryTimer);
      source?.close();
      markLive(false);
    };
  }, [api, queryClient, isServer, userId]);
}

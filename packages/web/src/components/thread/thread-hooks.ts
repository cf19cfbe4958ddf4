import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useLocation, useParams } from 'react-router';
import { positiveInt } from '../../api/forum-queries';
import { browserApi } from '../../api/client';

/* The thread page's hooks: the thread in the address, refreshing after a change, counting a view, the post asked for. */

export function useThreadId(): number {
  return positiveInt(useParams().threadId, 0);
}

/** Refreshes the thread, its replies and the lists that show its counts, after a change. */
export function useRefresh(threadId: number): () => Promise<void> {
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
export function useViewCount(threadId: number): void {
  const counted = useRef(0);
  useEffect(() => {
    if (!threadId || counted.current === threadId) return;
    counted.current = threadId;
    void browserApi.post('/api/v3/view.count', { threadId });
  }, [threadId]);
}

/**
 * The post the address points at (`#post-N`: from a notice or a search), for marking it. CSS's :target misses an
 * address changed by the router (history.pushState), and the server never sees the fragment, so it is read after
 * hydration.
 */
export function useTargetPost(): number | null {
  const { hash } = useLocation();
  const [target, setTarget] = useState<number | null>(null);
  useEffect(() => {
    const match = /^#post-(\d+)$/.exec(hash);
    setTarget(match ? Number(match[1]) : null);
  }, [hash]);
  return target;
}

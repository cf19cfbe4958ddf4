import type { Forum, Viewer } from '@luntan/shared';
import { useQuery } from '@tanstack/react-query';
import { forumQuery } from '../api/queries';
import { useAppContext } from '../app-context';

export interface ForumState {
  /** The site, the viewer and their abilities; null until loaded or when loading failed. */
  forum: Forum | null;
  /** The site information could not be fetched (获取站点接口信息失败). */
  failed: boolean;
  retry: () => void;
}

export function useForum(): ForumState {
  const { api } = useAppContext();
  const query = useQuery(forumQuery(api));
  const result = query.data;
  return {
    forum: result && result.Code === 0 ? (result.Data as Forum) : null,
    failed: result !== undefined && result.Code !== 0,
    retry: () => void query.refetch(),
  };
}

export function useViewer(): Viewer | null {
  return useForum().forum?.user ?? null;
}

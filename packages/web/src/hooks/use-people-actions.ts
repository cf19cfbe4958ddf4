import {
  FollowState,
  FollowType,
  TOAST_BLOCK_SUCCESS_DURATION_MS,
  type FollowCreated,
  type Page,
  type PersonItem,
  type UserProfile,
} from '@luntan/shared';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useTranslation } from '../i18n/use-translation';
import { useLocation, useNavigate } from 'react-router';
import { isSuccess, request, type ApiResult } from '../api/dispatcher';
import { reactionFor } from '../api/error-handler';
import { userProfileKey } from '../api/people-queries';
import { LOGIN_PATH } from '../auth/guard';
import { saveJumpUrl } from '../auth/jump-url';
import { toast } from '../components/ui';
import { useViewer } from './use-forum';
import { endpoints } from '../api/endpoints';

type Patch<T> = (value: T) => T;

/** Changes every cached profile of `userId` (one per viewer key) that loaded successfully. */
export function patchProfile(queryClient: QueryClient, userId: number, patch: Patch<UserProfile>): void {
  queryClient.setQueriesData<ApiResult<UserProfile>>({ queryKey: userProfileKey(userId) }, (old) =>
    old && isSuccess(old) ? { ...old, Data: patch(old.Data) } : old,
  );
}

/** Changes `userId` wherever it is listed among follows, fans or blocked users. */
function patchListed(queryClient: QueryClient, userId: number, patch: Patch<PersonItem>): void {
  queryClient.setQueriesData<ApiResult<Page<PersonItem>>>({ queryKey: ['people'] }, (old) =>
    old && isSuccess(old)
      ? {
          ...old,
          Data: { ...old.Data, pageData: old.Data.pageData.map((p) => (p.id === userId ? patch(p) : p)) },
        }
      : old,
  );
}

export interface PeopleActions {
  /** False (after the toast and the trip to the login page) for a guest. */
  signedIn: () => boolean;
  /** The new relation, or null when refused (the server's message was shown). */
  follow: (userId: number) => Promise<FollowCreated | null>;
  unfollow: (userId: number) => Promise<boolean>;
  block: (userId: number) => Promise<boolean>;
  unblock: (userId: number) => Promise<boolean>;
}

/**
 * Follow, unfollow, block and unblock as the spec has them (section 4 and 7): a guest is told to log in first and
 * sent to the login page, this page kept as the return address; a follow or unfollow updates the fan count at once
 * and a refusal shows the server's message in an info toast; a block or unblock shows a success toast for 1000 ms
 * without mask, and its failure is only logged. Every cached card, page header and list of the user follows.
 */
export function usePeopleActions(): PeopleActions {
  const { t } = useTranslation();
  const viewer = useViewer();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();

  const signedIn = (): boolean => {
    if (viewer) return true;
    saveJumpUrl(location.pathname + location.search);
    toast.info(t('auth.pleaseLogin'));
    void navigate(LOGIN_PATH);
    return false;
  };

  const send = <T>(url: string, data: unknown): Promise<ApiResult<T>> => request<T>({ url, method: 'POST', data });

  /** The info toast of a refused follow, unless the shared handler already reacts (a lapsed login, say). */
  const refused = (result: ApiResult<unknown>): void => {
    if (!reactionFor(result.Code)) toast.info(result.Message);
  };

  const afterFollowChange = (userId: number, follow: PersonItem['follow'], fans: 1 | -1): void => {
    patchProfile(queryClient, userId, (p) => ({ ...p, follow, fansCount: Math.max(0, p.fansCount + fans) }));
    patchListed(queryClient, userId, (p) => ({ ...p, follow, fansCount: Math.max(0, p.fansCount + fans) }));
    if (viewer) {
      patchProfile(queryClient, viewer.userId, (p) => ({ ...p, followCount: Math.max(0, p.followCount + fans) }));
    }
    // Lists keep their rows until the next visit: unfollowing from a list can be undone in place.
    void queryClient.invalidateQueries({ queryKey: ['people'], refetchType: 'none' });
  };

  const follow = async (userId: number): Promise<FollowCreated | null> => {
    if (!signedIn()) return null;
    const result = await send<FollowCreated>(endpoints.follow.create, { toUserId: userId });
    if (!isSuccess(result)) {
      refused(result);
      return null;
    }
    afterFollowChange(userId, result.Data.isMutual ? FollowState.MUTUAL : FollowState.FOLLOWING, 1);
    return result.Data;
  };

  const unfollow = async (userId: number): Promise<boolean> => {
    if (!signedIn()) return false;
    const result = await send(endpoints.follow.delete, { id: userId, type: FollowType.FOLLOWING });
    if (!isSuccess(result)) {
      refused(result);
      return false;
    }
    afterFollowChange(userId, FollowState.NONE, -1);
    return true;
  };

  const setDenied = async (userId: number, isDeny: boolean): Promise<boolean> => {
    if (!signedIn()) return false;
    const result = await send(isDeny ? endpoints.users.denyCreate : endpoints.users.denyDelete, { id: userId });
    if (!isSuccess(result)) {
      console.error(`[people] ${isDeny ? 'block' : 'unblock'} failed: ${result.Code} ${result.Message}`);
      return false;
    }
    toast.success({
      content: isDeny ? t('people.blocked') : t('people.unblocked'),
      duration: TOAST_BLOCK_SUCCESS_DURATION_MS,
      hasMask: false,
    });
    patchProfile(queryClient, userId, (p) => ({ ...p, isDeny, follow: isDeny ? FollowState.NONE : p.follow }));
    patchListed(queryClient, userId, (p) => ({ ...p, follow: isDeny ? FollowState.NONE : p.follow }));
    // Blocking ends both follows (counts change on both sides) and hides their threads from every list and their
    // replies from every thread.
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: ['user'] }),
      queryClient.invalidateQueries({ queryKey: ['people'], refetchType: 'none' }),
      queryClient.invalidateQueries({ queryKey: ['threads'] }),
      queryClient.invalidateQueries({ queryKey: ['posts'] }),
    ]);
    return true;
  };

  return {
    signedIn,
    follow,
    unfollow,
    block: (userId) => setDenied(userId, true),
    unblock: (userId) => setDenied(userId, false),
  };
}

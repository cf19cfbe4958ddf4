import type { InviteDetail, InvitedUser, Page } from '@luntan/shared';
import type { ApiClient } from './client';
import type { ApiResult } from './dispatcher';

export interface Agreements {
  registerAgreementOpen: boolean;
  registerAgreement: string;
  privacyAgreement: string;
}

/** The registration agreement and the privacy policy (public). */
export const agreementQuery = (api: ApiClient) => ({
  queryKey: ['agreement'] as const,
  queryFn: (): Promise<ApiResult<Agreements>> => api.get<Agreements>('/api/v3/agreement'),
});

/** What the register page shows about `?inviteCode=`. */
export const inviteDetailQuery = (api: ApiClient, code: string) => ({
  queryKey: ['invite', code] as const,
  queryFn: (): Promise<ApiResult<InviteDetail>> =>
    api.get<InviteDetail>('/api/v3/invite.detail', { code }, { handleError: false }),
});

/** Whom the viewer invited. */
export const invitedUsersQuery = (api: ApiClient, userId: number, page: number) => ({
  queryKey: ['invited-users', userId, page] as const,
  queryFn: (): Promise<ApiResult<Page<InvitedUser>>> =>
    api.get<Page<InvitedUser>>('/api/v3/invite.users.list', { page, perPage: 10 }),
});

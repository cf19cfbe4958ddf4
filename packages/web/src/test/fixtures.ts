import type { Envelope, Forum, SiteInfo, UnreadCounters, Viewer } from '@luntan/shared';

export function envelope<T>(Data: T, Code = 0, Message = 'ok'): Envelope<T> {
  return { Code, Message, Data, RequestId: 'test', RequestTime: '2026-01-01T00:00:00.000Z' };
}

export function siteInfo(overrides: Partial<SiteInfo> = {}): SiteInfo {
  return {
    siteName: 'Test Forum',
    siteKeywords: 'forum,test',
    siteIntroduction: 'A forum for tests',
    siteFavicon: '',
    siteStat: '',
    siteLogo: '',
    siteHeaderLogo: '',
    siteBackgroundImage: '',
    siteUrl: '',
    version: 'v3.0.220113',
    siteRecord: '',
    siteRecordCode: '',
    siteClose: false,
    siteCloseMsg: '',
    siteLocale: 'zh',
    registerClose: false,
    registerCaptcha: false,
    loginCaptcha: false,
    registerInviteOnly: false,
    registerAgreementOpen: false,
    siteMode: 'public',
    sitePrice: '0.00',
    siteExpire: 0,
    mailEnabled: false,
    smsEnabled: false,
    ...overrides,
  };
}

export function viewer(overrides: Partial<Viewer> = {}): Viewer {
  return {
    userId: 7,
    username: 'alice',
    nickname: 'Alice',
    avatarUrl: '',
    status: 0,
    groups: [{ id: 10, name: 'member' }],
    isAdmin: false,
    rejectReason: '',
    paid: true,
    paidUntil: null,
    mobile: '',
    ...overrides,
  };
}

export function forum(
  options: { user?: Viewer | null; canViewThreads?: boolean; site?: Partial<SiteInfo> } = {},
): Forum {
  return {
    setSite: siteInfo(options.site),
    user: options.user ?? null,
    permissions: options.canViewThreads === false ? [] : ['viewThreads'],
    other: {
      canViewThreads: options.canViewThreads ?? true,
      canCreateThread: false,
      canCreateDialog: false,
      canFollowUser: false,
      canViewUser: false,
      canEditUserGroup: false,
      createThreadWithCaptcha: false,
      canInviteUserScale: false,
    },
  };
}

export function unread(total: number): UnreadCounters {
  return { totalUnread: total, dialogMessageUnread: total, accountUnread: 0, financialUnread: 0, threadUnread: 0 };
}

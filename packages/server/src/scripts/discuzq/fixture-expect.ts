/*
 * What an import of the Discuz! Q fixture (fixture.ts) must produce: counts per kind, the orphan rows it must skip and
 * a few specific records. Tests assert against these numbers instead of repeating them.
 */

export interface FixtureUser {
  id: number;
  username: string;
  nickname: string;
  /** The plain password behind `users.password`, or '' when the account has none (WeChat-only). */
  password: string;
  /** The plain 6-digit PIN behind `users.pay_password`, or ''. */
  payPassword: string;
}

export interface FixtureExpectations {
  users: {
    /** Every user row (all reference no missing rows). */
    total: number;
    admin: FixtureUser;
    alice: FixtureUser;
    bob: FixtureUser;
    /** Made through WeChat: empty password, a user_wechats row, an https avatar. */
    wechat: FixtureUser & { mpOpenid: string; unionid: string; avatarUrl: string };
    /** status 1. */
    banned: FixtureUser;
    /** status 2, with the reason given at registration. */
    pending: FixtureUser & { registerReason: string };
    /** users.status per user id. */
    statusById: Record<number, number>;
    /** Avatars: which user has which kind (local file under storage/app/public/avatars, cos://, https://). */
    avatars: { local: number[]; cos: number[]; url: number[] };
    backgrounds: { local: number[] };
  };
  groups: { added: number; paidGroupId: number; memberships: number; paidMemberships: number };
  categories: { total: number; children: { id: number; parentId: number }[] };
  threads: {
    /** Thread rows that reference existing users and categories. */
    total: number;
    /** Not deleted, not a draft, approved. */
    visible: number;
    softDeleted: number;
    drafts: number;
    unapproved: number;
    anonymous: number;
    sticky: number;
    essence: number;
    /** threads.price > 0. */
    paid: { id: number; priceCents: number; attachmentPriceCents: number; freeWords: number }[];
    withPosition: { id: number; longitude: string; latitude: string; address: string; location: string }[];
    /** thread_tom rows per tom_type. */
    partsByType: Record<string, number>;
  };
  posts: {
    /** Post rows of existing threads, first posts included. */
    total: number;
    firstPosts: number;
    /** Not the first post (replies and comments on replies). */
    replies: number;
    /** Replies to a reply (is_comment 1). */
    comments: number;
    softDeleted: number;
    unapproved: number;
    legacyXml: number[];
  };
  likes: number;
  favourites: number;
  follows: number;
  mutualFollowPairs: number;
  blocks: number;
  dialogs: number;
  messages: number;
  topics: number;
  threadTopics: number;
  attachments: {
    total: number;
    local: number;
    remote: number;
    /** Local attachments whose file is absent from the site directory. */
    missingFile: number[];
    /** Files the site holds, relative to DzqFixture.storageDir (`app/public/attachments/2021/01/30/....png`). */
    files: string[];
  };
  votes: { votes: number; options: number; voters: number };
  orders: { total: number; byStatus: Record<number, number>; byType: Record<number, number> };
  wallets: {
    count: number;
    availableCents: number;
    freezeCents: number;
    byUser: Record<number, { availableCents: number; freezeCents: number }>;
    logs: number;
    /** Wallets whose logs do not sum to the balance: the entry an import adds so the ledger does. */
    openingBalances: { userId: number; availableCents: number; freezeCents: number }[];
  };
  withdrawals: number;
  reports: number;
  invites: number;
  stopWords: number;
  signInFields: { admin: number; user: number };
  notifications: { total: number; last90Days: number; older: number };
  settings: Record<string, string>;
  /** Rows that point at something absent: an import skips them. */
  orphans: {
    posts: number[];
    likes: { postId: number; userId: number }[];
    favourites: { threadId: number; userId: number }[];
    follows: { fromUserId: number; toUserId: number }[];
    blocks: { userId: number; denyUserId: number }[];
    dialogs: number[];
    messages: number[];
    threadTopics: { threadId: number; topicId: number }[];
  };
}

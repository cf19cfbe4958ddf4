import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * Table shapes as the code sees them (camelCase; the CamelCasePlugin maps them to snake_case columns).
 * Times are ISO-8601 UTC strings on both databases, booleans are 0/1, money is integer cents.
 */
export interface UsersTable {
  id: Generated<number>;
  username: string;
  /** Lower-cased username, unique: usernames are unique without regard to case. */
  usernameNormalized: string;
  nickname: string;
  passwordHash: string;
  avatar: string;
  signature: string;
  status: number;
  rejectReason: string;
  threadCount: Generated<number>;
  postCount: Generated<number>;
  likedCount: Generated<number>;
  followCount: Generated<number>;
  fansCount: Generated<number>;
  /** Path of the profile background image under /uploads, or ''. */
  background: Generated<string>;
  /** 1: anyone who may see the profile may see the threads this user liked. */
  likesPublic: Generated<number>;
  /** The language the user chose (zh, en), or '' for the site's. */
  locale: Generated<string>;
  registerIp: string;
  lastLoginIp: string;
  lastLoginAt: string | null;
  createdAt: string;
  updatedAt: string;
  /** Paid joining (siteMode 'pay'): when the member paid, and until when it lasts ('9999-…' for ever). */
  paidAt: Generated<string | null>;
  paidUntil: Generated<string | null>;
  /** The member's e-mail address as typed, its lower-cased form (unique), when its link was opened. */
  email: Generated<string | null>;
  emailNormalized: Generated<string | null>;
  emailVerifiedAt: Generated<string | null>;
  /** The bound mobile number (unique), or null. */
  mobile: string | null;
  /** 1 while the username is one the site made up (SMS or outside sign-in): its member may choose one, once. */
  usernameGenerated: Generated<number>;
}

export interface SmsCodesTable {
  id: Generated<number>;
  mobile: string;
  /** login, bind, rebind, reset_pwd, verify. */
  type: string;
  /** sha256 of salt, number, purpose and code: the code itself is never stored. */
  codeHash: string;
  salt: string;
  tries: Generated<number>;
  ip: string;
  createdAt: string;
  expiresAt: string;
  /** When the code was accepted (it is then used up), and by which member (a `verify` code). */
  usedAt: string | null;
  usedBy: number | null;
  /** When a used `verify` code served as the proof for sms.rebind (a proof serves once). */
  spentAt: string | null;
}

export interface GroupsTable {
  id: Generated<number>;
  name: string;
  type: string;
  color: string;
  icon: string;
  isDefault: number;
  isDisplay: number;
  isPaid: number;
  feeCents: number;
  days: number;
  scale: number;
  isSubordinate: number;
  isCommission: number;
  createdAt: string;
  updatedAt: string;
}

export interface GroupUserTable {
  groupId: number;
  userId: number;
  expiresAt: string | null;
}

export interface GroupPermissionTable {
  groupId: number;
  permission: string;
}

/** Attempt counters of rate-limiter-flexible (core/rate-limit.ts): expire is epoch milliseconds. */
export interface RateLimitsTable {
  key: string;
  points: number;
  expire: number | null;
}

export interface SettingsTable {
  key: string;
  tag: string;
  value: string;
}

export interface AccessTokensTable {
  id: Generated<number>;
  userId: number;
  /** SHA-256 of the token, hex: the token itself is never stored. */
  tokenHash: string;
  ip: string;
  userAgent: string;
  createdAt: string;
  expiresAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** One-use links mailed to members (mail module). */
export interface EmailTokensTable {
  id: Generated<number>;
  userId: number;
  purpose: 'verify' | 'reset';
  /** The address the link was sent to (for 'verify': the address it proves). */
  email: string;
  /** SHA-256 of the token, hex. */
  tokenHash: string;
  createdAt: string;
  expiresAt: string;
  usedAt: string | null;
}

export interface NotificationsTable {
  id: Generated<number>;
  userId: number;
  /** The family's notification type (system, replied, liked, related, rewarded, ...). */
  type: string;
  /** Which message-centre tab counts it: account, financial or thread. */
  category: string;
  title: string;
  content: string;
  /** JSON: for merged likes and follows, `{actorIds, actorCount}` (the latest actors first). */
  data: string;
  readAt: string | null;
  createdAt: string;
  /** What the notice is about; null when nothing (an account notice). */
  threadId: Generated<number | null>;
  postId: Generated<number | null>;
  /** For a comment: the reply it belongs to. */
  replyPostId: Generated<number | null>;
  /** Who acted (the latest, when merged); null for the site itself. */
  fromUserId: Generated<number | null>;
  /** The subject per type (`liked:post:12`): likes and follows merge on it, replies and mentions are told once. */
  subjectKey: Generated<string | null>;
}

export interface CategoriesTable {
  id: Generated<number>;
  name: string;
  description: string;
  icon: string;
  sort: number;
  /** 0 for a top-level category. */
  parentId: number;
  threadCount: Generated<number>;
  createdAt: string;
  updatedAt: string;
}

export interface ThreadsTable {
  id: Generated<number>;
  categoryId: number;
  userId: number;
  title: string;
  summary: string;
  firstPostId: number | null;
  isSticky: number;
  isEssence: number;
  isApproved: number;
  isDraft: number;
  viewCount: Generated<number>;
  postCount: Generated<number>;
  likeCount: Generated<number>;
  favoriteCount: Generated<number>;
  createdAt: string;
  updatedAt: string;
  lastPostedAt: string;
  lastPostedUserId: number | null;
  deletedAt: string | null;
  deletedUserId: number | null;
  /** What the thread costs to read whole (0: free). */
  priceCents: Generated<number>;
  /** The old free character count: kept for a rollback of 2026112797, no longer read or written. */
  freeWords: Generated<number>;
  /** The fraction (0..1) of the body everyone reads, the family's `freeWords` (content/paid-content.ts). */
  freeWordsFraction: Generated<number>;
  /** Posted anonymously (thread.allowAnonymous): others see the first post's author as 匿名用户 / Anonymous. */
  isAnonymous: Generated<number>;
  /** Where the thread was written (thread.insertPosition): degrees, null when it has none; the place and address. */
  longitude: Generated<number | null>;
  latitude: Generated<number | null>;
  address: Generated<string>;
  location: Generated<string>;
  /** How many times it was shared (thread.share). */
  shareCount: Generated<number>;
}

export interface PostsTable {
  id: Generated<number>;
  threadId: number;
  userId: number;
  replyPostId: number | null;
  replyUserId: number | null;
  commentPostId: number | null;
  commentUserId: number | null;
  content: string;
  contentHtml: string;
  ip: string;
  isFirst: number;
  isComment: number;
  isApproved: number;
  likeCount: Generated<number>;
  replyCount: Generated<number>;
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
  deletedUserId: number | null;
  /** The newest edit's time (modules/threads/post-versions.repository.ts); null: never edited. */
  editedAt: Generated<string | null>;
}

export interface PostLikesTable {
  postId: number;
  userId: number;
  createdAt: string;
}

export interface ThreadFavoritesTable {
  threadId: number;
  userId: number;
  createdAt: string;
}

export interface PostMentionsTable {
  postId: number;
  userId: number;
}

export interface AttachmentsTable {
  id: Generated<number>;
  fileKey: string;
  userId: number;
  postId: number | null;
  type: number;
  fileDir: string;
  fileName: string;
  format: string;
  fileSize: number;
  width: number;
  height: number;
  isAnimated: number;
  sizes: string;
  createdAt: string;
}

export interface ThreadViewsDailyTable {
  threadId: number;
  day: string;
  views: number;
}

/** A private conversation of two members (low_user_id < high_user_id, one per pair). */
export interface DialogsTable {
  id: Generated<number>;
  lowUserId: number;
  highUserId: number;
  lastMessageId: number | null;
  createdAt: string;
  updatedAt: string;
}

/** One member's side of a dialog: what they read, what they deleted for themselves. */
export interface DialogMembersTable {
  dialogId: number;
  userId: number;
  readMessageId: Generated<number>;
  clearedMessageId: Generated<number>;
  updatedAt: string;
}

export interface DialogMessagesTable {
  id: Generated<number>;
  dialogId: number;
  userId: number;
  messageText: string;
  imageUrl: Generated<string>;
  attachmentId: number | null;
  /** 0: held by a {MOD} stop word until approved. */
  isApproved: Generated<number>;
  createdAt: string;
}

/** user_id follows to_user_id; a mutual pair is two rows. */
export interface UserFollowsTable {
  userId: number;
  toUserId: number;
  createdAt: string;
}

export interface UserDeniesTable {
  userId: number;
  denyUserId: number;
  createdAt: string;
}

/** PostgreSQL only (on SQLite the index is an FTS5 table reached with raw SQL). */
export interface ThreadSearchTable {
  threadId: number;
  title: string;
  content: string;
}

export interface StopWordsTable {
  id: Generated<number>;
  find: string;
  findNormalized: string;
  replacement: string;
  ugc: string;
  username: string;
  signature: string;
  dialog: string;
  nickname: string;
  userId: number | null;
  createdAt: string;
  updatedAt: string;
}

export interface CacheVersionsTable {
  name: string;
  version: number;
}

/** A thread's kept-pages counter (core/page-cache.ts); no row: 0. */
export interface ThreadPageVersionsTable {
  threadId: number;
  version: number;
}

export interface SigninFieldsTable {
  id: Generated<number>;
  name: string;
  type: number;
  fieldsExt: string;
  fieldsDesc: string;
  remark: string;
  sort: number;
  status: number;
  required: number;
  createdAt: string;
  updatedAt: string;
}

export interface UserSigninFieldsTable {
  id: Generated<number>;
  userId: number;
  fieldId: number;
  name: string;
  type: number;
  fieldsExt: string;
  value: string;
  status: number;
  remark: string;
  createdAt: string;
  updatedAt: string;
}

export interface NotificationTplsTable {
  id: Generated<number>;
  typeName: string;
  /** The channel: 0 in-site, 1 WeChat, 2 SMS, 3 WeCom, 4 mini-program. */
  type: number;
  status: number;
  title: string;
  content: string;
  vars: string;
  createdAt: string;
  updatedAt: string;
}

/** A user's wallet (created on first use): balances in cents, never below zero. */
export interface WalletsTable {
  userId: number;
  availableCents: Generated<number>;
  frozenCents: Generated<number>;
  /** 0 normal, 1 frozen by an administrator. */
  status: Generated<number>;
  /** argon2 hash of the six-digit pay password, or ''. */
  payPasswordHash: Generated<string>;
  /** Consecutive wrong pay passwords; at five, paying locks until payLockedUntil. */
  payFailures: Generated<number>;
  payLockedUntil: Generated<string | null>;
  createdAt: string;
  updatedAt: string;
}

export interface OrdersTable {
  id: Generated<number>;
  orderSn: string;
  /** Who pays. */
  userId: number;
  /** Who is paid (a thread's author, a rewarded author); null when the site is. */
  payeeId: number | null;
  type: number;
  status: Generated<number>;
  amountCents: number;
  /** The payee's and the site's shares of amountCents (they add up to it for thread sales and rewards). */
  authorAmountCents: Generated<number>;
  masterAmountCents: Generated<number>;
  threadId: number | null;
  groupId: number | null;
  isAnonymous: Generated<number>;
  paymentType: number | null;
  /** The provider's transaction number once paid through one. */
  tradeNo: Generated<string | null>;
  createdAt: string;
  updatedAt: string;
  expiresAt: string;
  paidAt: Generated<string | null>;
}

/** A withdrawal (the family's user_wallet_cash). */
export interface WalletCashTable {
  id: Generated<number>;
  cashSn: string;
  userId: number;
  applyCents: number;
  /** The fee, frozen on top of the amount and kept by the site when paid. */
  chargeCents: Generated<number>;
  receiveAccount: string;
  status: Generated<number>;
  remark: Generated<string>;
  reviewerId: Generated<number | null>;
  reviewedAt: Generated<string | null>;
  tradeNo: Generated<string | null>;
  createdAt: string;
  updatedAt: string;
}

/** One row per member and thing bought (a paid thread: type 3, thingId the thread): the database allows one. */
export interface PurchasesTable {
  userId: number;
  type: number;
  thingId: number;
  orderId: number;
  createdAt: string;
}

/** A payment a provider reported, once per provider and transaction number. */
export interface PaymentReceiptsTable {
  id: Generated<number>;
  provider: string;
  tradeNo: string;
  orderId: number;
  amountCents: number;
  /** 1: it paid the order; 2: it was returned to the payer's wallet. */
  outcome: number;
  createdAt: string;
}

/** The ledger: one row per wallet change, append-only. */
export interface WalletLogsTable {
  id: Generated<number>;
  userId: number;
  changeAvailableCents: number;
  changeFrozenCents: number;
  availableAfterCents: number;
  frozenAfterCents: number;
  changeType: number;
  changeDesc: string;
  orderId: number | null;
  cashId: number | null;
  /** The administrator who made the change by hand. */
  operatorId: number | null;
  createdAt: string;
}

/** An installed plugin: its plugin.json, which files are current (content hash), state and settings. */
export interface PluginsTable {
  appid: string;
  pluginName: string;
  version: string;
  /** plugin.json as installed (JSON). */
  manifest: string;
  /** SHA-256 of the package's files: names the current file set (URLs carry it). */
  contentHash: string;
  enabled: Generated<number>;
  /** The administrator's settings (JSON object). */
  settings: Generated<string>;
  /** Why the server part is off (it threw while loading), or null. */
  serverError: Generated<string | null>;
  installedAt: string;
  updatedAt: string;
}

export interface PluginFilesTable {
  appid: string;
  contentHash: string;
  path: string;
  body: Buffer;
}

/** A plugin server part's key-value store (values are JSON). */
export interface PluginStoreTable {
  appid: string;
  key: string;
  value: string;
  updatedAt: string;
}

export interface ReportsTable {
  id: Generated<number>;
  /** The reporter. */
  userId: number;
  type: number;
  targetId: number;
  threadId: number | null;
  postId: number | null;
  reportedUserId: number | null;
  reason: string;
  status: Generated<number>;
  handlerId: number | null;
  handledAt: string | null;
  remark: Generated<string>;
  createdAt: string;
}

export interface InvitesTable {
  id: Generated<number>;
  code: string;
  /** The inviter. */
  userId: number;
  groupId: number;
  uses: Generated<number>;
  createdAt: string;
  expiresAt: string;
}

export interface InvitedUsersTable {
  userId: number;
  inviterId: number;
  inviteId: number;
  groupId: number;
  createdAt: string;
}

export interface CaptchaUsesTable {
  signature: string;
  expiresAt: string;
}

export interface OauthProvidersTable {
  id: Generated<number>;
  /** The provider's name in our URLs (/api/v3/oauth/<slug>/start). */
  slug: string;
  issuer: string;
  clientId: string;
  /** Never leaves the server. */
  clientSecret: string;
  labelZh: string;
  labelEn: string;
  /** Space-separated; always includes openid. */
  scopes: Generated<string>;
  enabled: Generated<number>;
  sort: Generated<number>;
  createdAt: string;
  updatedAt: string;
}

export interface UserIdentitiesTable {
  id: Generated<number>;
  userId: number;
  /** 'oidc' (providerId: oauth_providers.id) or 'wechat' (providerId 0). */
  kind: string;
  providerId: Generated<number>;
  subject: string;
  email: Generated<string>;
  displayName: Generated<string>;
  createdAt: string;
}

export interface OauthStatesTable {
  state: string;
  kind: string;
  providerId: Generated<number>;
  /** login, link (OIDC from /my), bind, rebind, pc_login, pc_bind (WeChat). */
  purpose: string;
  codeVerifier: Generated<string>;
  nonce: Generated<string>;
  redirect: Generated<string>;
  /** The signed-in user who links or binds. */
  userId: number | null;
  /** The desktop's QR session this phone sign-in finishes. */
  qrToken: string | null;
  expiresAt: string;
}

export interface WechatQrSessionsTable {
  token: string;
  purpose: string;
  userId: number | null;
  /** pending, done (userId signed in or bound), failed (errorCode, errorMessage), taken (the desktop got its session). */
  status: Generated<string>;
  errorCode: number | null;
  errorMessage: Generated<string>;
  expiresAt: string;
}

export interface UserGeneratedPasswordsTable {
  userId: number;
  passwordHash: string;
  createdAt: string;
}

/** The outbox of domain events (core/events). */
export interface DomainEventsTable {
  id: Generated<number>;
  name: string;
  payload: string;
  createdAt: string;
  dueAt: string;
}

/** One subscriber's delivery of one event. */
export interface EventDeliveriesTable {
  eventId: number;
  subscriber: string;
  attempts: Generated<number>;
  nextAttemptAt: string;
  claimedBy: string | null;
  doneAt: string | null;
  lastError: string | null;
}

export interface DB {
  domainEvents: DomainEventsTable;
  eventDeliveries: EventDeliveriesTable;
  reports: ReportsTable;
  invites: InvitesTable;
  invitedUsers: InvitedUsersTable;
  captchaUses: CaptchaUsesTable;
  oauthProviders: OauthProvidersTable;
  userIdentities: UserIdentitiesTable;
  oauthStates: OauthStatesTable;
  wechatQrSessions: WechatQrSessionsTable;
  userGeneratedPasswords: UserGeneratedPasswordsTable;
  plugins: PluginsTable;
  pluginFiles: PluginFilesTable;
  pluginStore: PluginStoreTable;
  wallets: WalletsTable;
  orders: OrdersTable;
  purchases: PurchasesTable;
  paymentReceipts: PaymentReceiptsTable;
  walletCash: WalletCashTable;
  walletLogs: WalletLogsTable;
  users: UsersTable;
  groups: GroupsTable;
  groupUser: GroupUserTable;
  groupPermission: GroupPermissionTable;
  settings: SettingsTable;
  rateLimits: RateLimitsTable;
  userFollows: UserFollowsTable;
  dialogs: DialogsTable;
  dialogMembers: DialogMembersTable;
  dialogMessages: DialogMessagesTable;
  accessTokens: AccessTokensTable;
  emailTokens: EmailTokensTable;
  notifications: NotificationsTable;
  categories: CategoriesTable;
  threads: ThreadsTable;
  posts: PostsTable;
  postLikes: PostLikesTable;
  threadFavorites: ThreadFavoritesTable;
  postMentions: PostMentionsTable;
  attachments: AttachmentsTable;
  threadViewsDaily: ThreadViewsDailyTable;
  userDenies: UserDeniesTable;
  threadSearch: ThreadSearchTable;
  stopWords: StopWordsTable;
  cacheVersions: CacheVersionsTable;
  threadPageVersions: ThreadPageVersionsTable;
  signinFields: SigninFieldsTable;
  userSigninFields: UserSigninFieldsTable;
  notificationTpls: NotificationTplsTable;
  smsCodes: SmsCodesTable;
  webhooks: WebhooksTable;
  threadParts: ThreadPartsTable;
  threadRedPackets: ThreadRedPacketsTable;
  threadRedPacketShares: ThreadRedPacketSharesTable;
  threadVotes: ThreadVotesTable;
  threadVoteSubitems: ThreadVoteSubitemsTable;
  threadVoteUsers: ThreadVoteUsersTable;
  threadBounties: ThreadBountiesTable;
  bountyAwards: BountyAwardsTable;
  webhookDeliveries: WebhookDeliveriesTable;
  backups: BackupsTable;
  postVersions: PostVersionsTable;
  apiKeys: ApiKeysTable;
  linkPreviews: LinkPreviewsTable;
  linkPreviewPosts: LinkPreviewPostsTable;
  pushVapidKeys: PushVapidKeysTable;
  pushSubscriptions: PushSubscriptionsTable;
  pushPreferences: PushPreferencesTable;
  topics: TopicsTable;
  threadTopic: ThreadTopicTable;
  emoji: EmojiTable;
  userThreadSticks: UserThreadSticksTable;
  importProgress: ImportProgressTable;
  legacyRedirects: LegacyRedirectsTable;
}

/** A topic (`#name#`, modules/topics). */
export interface TopicsTable {
  id: Generated<number>;
  /** Who first named it. */
  userId: number;
  /** The name as first written. */
  content: string;
  /** The name folded (NFKC, lower case): unique. */
  contentKey: string;
  /** The visible threads (approved, published, not deleted) linked to it. */
  threadCount: Generated<number>;
  /** The views of those threads. */
  viewCount: Generated<number>;
  recommended: Generated<number>;
  recommendedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface ThreadTopicTable {
  threadId: number;
  topicId: number;
  createdAt: string;
}

/** A thread's part (modules/thread-parts), the family's thread_tom. */
export interface ThreadPartsTable {
  id: Generated<number>;
  threadId: number;
  /** The part's type (packages/shared schemas/thread-parts.ts ThreadPart). */
  type: number;
  /** What the part keeps, as JSON (its handler's own shape). */
  value: string;
  /** Of a part whose items can be paid separately, which are (JSON list of ids). */
  priceIds: ColumnType<string, string | undefined, string>;
  createdAt: string;
  updatedAt: string;
}

/** A thread's red packet (modules/red-packets), the family's thread_red_packets; amounts in cents. */
export interface ThreadRedPacketsTable {
  id: Generated<number>;
  threadId: number;
  postId: number;
  userId: number;
  rule: number;
  condition: number;
  likenum: number;
  /** The password text a reply must hold ('' none). */
  content: string;
  priceCents: ColumnType<number, number, number>;
  moneyCents: ColumnType<number, number, number>;
  number: number;
  remainCents: ColumnType<number, number, number>;
  remainNumber: number;
  returnedCents: ColumnType<number, number | undefined, number>;
  /** 1 valid, 0 stopped, 2 waiting for its order (type 9) to be paid. */
  status: number;
  /** The order (type 9) that pays or paid it through a provider; null when paid from the wallet. */
  orderId: ColumnType<number | null, number | null | undefined, number | null>;
  expiresAt: string;
  createdAt: string;
  updatedAt: string;
}

/** One packet of a red packet: its pre-split amount and who claimed it (NULL: nobody yet). */
export interface ThreadRedPacketSharesTable {
  id: Generated<number>;
  redPacketId: number;
  threadId: number;
  seq: number;
  amountCents: ColumnType<number, number, number>;
  userId: number | null;
  postId: number | null;
  receivedAt: string | null;
  seenAt: string | null;
}

/** A site's image emoji (modules/emoji), the family's `emoji` table. */
export interface EmojiTable {
  id: Generated<number>;
  category: string;
  /** An http(s) address or a path on this site (`emoji/qq/weixiao.gif`). */
  url: string;
  /** With its colons, as the family stores it: `:weixiao:`. */
  code: string;
  order: Generated<number>;
  createdAt: string;
  updatedAt: string;
}

/** An outgoing webhook (modules/webhooks). */
export interface WebhooksTable {
  id: Generated<number>;
  url: string;
  /** Signs each body (HMAC-SHA256); never shown again once saved. */
  secret: string;
  /** JSON list of event names. */
  events: string;
  enabled: number;
  createdAt: string;
  updatedAt: string;
}

export interface WebhookDeliveriesTable {
  id: Generated<number>;
  webhookId: number;
  /** X-Luntan-Delivery. */
  uuid: string;
  eventName: string;
  /** The domain event's id (null for a test event). */
  eventId: number | null;
  /** The exact body sent (and signed). */
  payload: string;
  /** pending, sending, delivered, failed. */
  status: string;
  attempts: Generated<number>;
  /** Pending: when the next attempt is due; sending: when the claim runs out; otherwise null. */
  nextAttemptAt: string | null;
  responseStatus: number | null;
  error: string | null;
  durationMs: number | null;
  createdAt: string;
  updatedAt: string;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type Group = Selectable<GroupsTable>;
export type Category = Selectable<CategoriesTable>;
export type Thread = Selectable<ThreadsTable>;
export type Post = Selectable<PostsTable>;
export type Attachment = Selectable<AttachmentsTable>;
export type StopWord = Selectable<StopWordsTable>;
export type SigninField = Selectable<SigninFieldsTable>;
export type UserSigninField = Selectable<UserSigninFieldsTable>;
export type NotificationTpl = Selectable<NotificationTplsTable>;
export type SmsCode = Selectable<SmsCodesTable>;
export type Notification = Selectable<NotificationsTable>;
export type Order = Selectable<OrdersTable>;
export type WalletCash = Selectable<WalletCashTable>;
export type OauthProvider = Selectable<OauthProvidersTable>;

/** A thread's vote (modules/votes), the family's thread_votes. */
export interface ThreadVotesTable {
  id: Generated<number>;
  threadId: number;
  voteTitle: string;
  /** 1 single choice, 2 multiple. */
  choiceType: number;
  /** How many members voted. */
  voteUsers: ColumnType<number, number | undefined, number>;
  /** When voting ends (ISO-8601 UTC). */
  expiredAt: string;
  createdAt: string;
  updatedAt: string;
}

/** One option of a vote, with its count. */
export interface ThreadVoteSubitemsTable {
  id: Generated<number>;
  threadVoteId: number;
  content: string;
  voteCount: ColumnType<number, number | undefined, number>;
  createdAt: string;
  updatedAt: string;
}

/** One option a member chose; `position` numbers a ballot's choices from 0 (one ballot per member and vote). */
export interface ThreadVoteUsersTable {
  id: Generated<number>;
  userId: number;
  threadId: number;
  threadVoteId: number;
  threadVoteSubitemId: number;
  position: number;
  createdAt: string;
}

/** A bounty question (modules/bounty, part 107), the family's thread_rewards. */
export interface ThreadBountiesTable {
  id: Generated<number>;
  threadId: number;
  /** The thread's author, whose wallet holds the frozen offer. */
  userId: number;
  type: ColumnType<number, number | undefined, number>;
  amountCents: number;
  remainingCents: number;
  expiresAt: string;
  /** When what was left went back to the author (the deadline's timer ran), or null. */
  settledAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** One award of a bounty to a reply. */
export interface BountyAwardsTable {
  id: Generated<number>;
  threadId: number;
  postId: number;
  /** The reply's author, who received it. */
  userId: number;
  amountCents: number;
  createdAt: string;
}

/** The Discuz! Q importer's progress, one row per source table (docs/discuzq.md). */
export interface ImportProgressTable {
  sourceTable: string;
  /** JSON of the last key value written, or null before the first batch. */
  lastKey: string | null;
  readRows: Generated<number>;
  writtenRows: Generated<number>;
  /** JSON: why rows were skipped, and how many. */
  skipped: Generated<string>;
  done: Generated<number>;
  updatedAt: string;
}

/** An imported site's old file address and where the file is now. */
export interface LegacyRedirectsTable {
  path: string;
  target: string;
}

/** The thread a member pinned to the top of their profile (user/thread.stick): one per member. */
export interface UserThreadSticksTable {
  userId: number;
  threadId: number;
  createdAt: string;
}

/** An archive made or being made (modules/backups; migration 2026112910-backups). */
export interface BackupsTable {
  id: Generated<number>;
  /** The archive's file name (luntan-backup-…tar.gz). */
  name: string;
  /** running, done or failed. */
  status: string;
  /** Who asked: manual (the back office), schedule (the daily backup), cli (npm run backup). */
  origin: string;
  /** disk (`path` on the machine that made it) or bucket (`path` is the object's key). */
  location: string;
  path: Generated<string>;
  bytes: Generated<number>;
  /** The archive's manifest.json, once done. */
  manifest: string | null;
  error: string | null;
  userId: number | null;
  createdAt: string;
  heartbeatAt: string;
  finishedAt: string | null;
}

/** A version of a post's text (and of its thread's title, for a first post): migration 2026112920-post-versions. */
export interface PostVersionsTable {
  id: Generated<number>;
  postId: number;
  /** From 1 (what was posted) up. */
  version: number;
  /** Who wrote this version. */
  userId: number;
  /** The thread's title at this version (first posts); null for replies. */
  title: string | null;
  content: string;
  hidden: Generated<number>;
  hiddenBy: number | null;
  createdAt: string;
}

/** An administrator's key for programs (access/api-keys.repository.ts; migration 2026112930-api-keys). */
export interface ApiKeysTable {
  id: Generated<number>;
  name: string;
  /** read, write or admin. */
  scope: string;
  /** The member the key acts as. */
  userId: number;
  createdBy: number;
  /** SHA-256 (hex) of the key. */
  keyHash: string;
  /** Its first characters (lt_ and five), to recognise it in the list. */
  keyPrefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** A link's preview (modules/link-previews; migration 2026112940-link-previews). */
export interface LinkPreviewsTable {
  id: Generated<number>;
  url: string;
  /** pending, fetching, ok or failed. */
  status: string;
  title: Generated<string>;
  description: Generated<string>;
  siteName: Generated<string>;
  /** The forum's copy of the page's image (/uploads/previews/...), or ''. */
  image: Generated<string>;
  error: string | null;
  attempts: Generated<number>;
  claimedUntil: string | null;
  fetchedAt: string | null;
  createdAt: string;
}

/** The posts that hold a link alone on its line (rendered again once its preview is fetched). */
export interface LinkPreviewPostsTable {
  previewId: number;
  postId: number;
}

/** The site's VAPID key pair for Web Push (one row, id 1; migration 2026112950-push). */
export interface PushVapidKeysTable {
  id: number;
  publicKey: string;
  privateKey: string;
  createdAt: string;
}

/** A member's browser subscribed to Web Push (modules/push). */
export interface PushSubscriptionsTable {
  id: Generated<number>;
  userId: number;
  endpoint: string;
  /** The browser's P-256 public key and auth secret, base64url. */
  p256dh: string;
  auth: string;
  userAgent: Generated<string>;
  failures: Generated<number>;
  lastSuccessAt: string | null;
  createdAt: string;
}

/** A member's switches per kind of push (1 on, 0 off); no row: all on. */
export interface PushPreferencesTable {
  userId: number;
  reply: Generated<number>;
  mention: Generated<number>;
  like: Generated<number>;
  message: Generated<number>;
  financial: Generated<number>;
}

/**
 * Permission keys, as the product family names them. A group holds a list of keys; a key may be granted in one
 * category only, written `category<ID>.<key>` (e.g. `category3.thread.reply`). Administrators hold every key.
 */
export interface PermissionDefinition {
  key: string;
  group: 'thread' | 'content' | 'user' | 'finance' | 'other';
  /** Whether the key may be granted in one category (`category<ID>.<key>`). */
  categoryScoped: boolean;
  label: { zh: string; en: string };
}

const def = (
  key: string,
  group: PermissionDefinition['group'],
  categoryScoped: boolean,
  zh: string,
  en: string,
): PermissionDefinition => ({ key, group, categoryScoped, label: { zh, en } });

export const PERMISSIONS: readonly PermissionDefinition[] = [
  def('viewThreads', 'thread', true, '查看主题列表', 'View threads'),
  def('thread.viewPosts', 'thread', true, '查看主题详情', 'View posts'),
  def('thread.freeViewPosts', 'thread', true, '免费查看付费内容', 'View paid posts for free'),
  def('createThread', 'thread', true, '发布主题', 'Create threads'),
  def('thread.reply', 'thread', true, '回复主题', 'Reply'),
  def('thread.likePosts', 'thread', true, '点赞', 'Like posts'),
  def('thread.favorite', 'thread', true, '收藏', 'Favourite threads'),
  def('thread.editOwnThread', 'thread', true, '编辑自己的主题', 'Edit own threads'),
  def('thread.hideOwnThreadOrPost', 'thread', true, '删除自己的主题或回复', 'Delete own threads or replies'),
  def('thread.edit', 'thread', true, '编辑主题', 'Edit any thread'),
  def('thread.hide', 'thread', true, '删除主题', 'Delete any thread'),
  def('thread.hidePosts', 'thread', true, '删除回复', 'Delete any reply'),
  def('thread.essence', 'thread', true, '加精', 'Mark as essence'),
  def('thread.sticky', 'thread', true, '置顶', 'Make sticky'),
  def('thread.allowAnonymous', 'thread', true, '匿名发布', 'Post anonymously'),
  def('thread.insertImage', 'content', true, '插入图片', 'Insert images'),
  def('thread.insertVideo', 'content', true, '插入视频', 'Insert videos'),
  def('thread.insertAudio', 'content', true, '插入语音', 'Insert audio'),
  def('thread.insertAttachment', 'content', true, '插入附件', 'Insert attachments'),
  def('thread.insertGoods', 'content', true, '插入商品', 'Insert goods'),
  def('thread.insertPay', 'content', true, '插入付费内容', 'Insert paid content'),
  def('thread.insertReward', 'content', true, '插入悬赏', 'Insert rewards'),
  def('thread.insertRedPacket', 'content', true, '插入红包', 'Insert red packets'),
  def('thread.insertPosition', 'content', true, '插入位置', 'Insert a position'),
  def('thread.insertVote', 'content', true, '插入投票', 'Insert votes'),
  def('thread.viewAttachment', 'thread', true, '查看附件', 'View attachments'),
  def('thread.downloadAttachment', 'thread', true, '下载附件', 'Download attachments'),
  def('thread.viewVideo', 'thread', true, '查看视频', 'View videos'),
  def('createThreadWithCaptcha', 'content', false, '发布需要验证码', 'A captcha is needed to publish'),
  def('publishNeedBindPhone', 'content', false, '发布需要绑定手机', 'A bound phone is needed to publish'),
  def('user.view', 'user', false, '查看用户资料', 'View user profiles'),
  def('userFollow.create', 'user', false, '关注用户', 'Follow users'),
  def('dialog.create', 'user', false, '发送私信', 'Send private messages'),
  def('other.canInviteUserScale', 'user', false, '邀请加入', 'Invite to join'),
  def('cash.create', 'finance', false, '申请提现', 'Apply for a withdrawal'),
  def('order.create', 'finance', false, '创建订单', 'Create orders'),
  def('trade.pay.order', 'finance', false, '支付订单', 'Pay orders'),
];

export const PERMISSION_KEYS: readonly string[] = PERMISSIONS.map((p) => p.key);
const CATEGORY_SCOPED = new Set(PERMISSIONS.filter((p) => p.categoryScoped).map((p) => p.key));
const KNOWN = new Set(PERMISSION_KEYS);

/** The spec names some keys without their `thread.` prefix (viewPosts, reply, essence...): these are the same keys. */
export const PERMISSION_ALIASES: Readonly<Record<string, string>> = {
  viewPosts: 'thread.viewPosts',
  freeViewPosts: 'thread.freeViewPosts',
  reply: 'thread.reply',
  essence: 'thread.essence',
  sticky: 'thread.sticky',
  edit: 'thread.edit',
  hide: 'thread.hide',
  hidePosts: 'thread.hidePosts',
  editOwnThread: 'thread.editOwnThread',
  hideOwnThreadOrPost: 'thread.hideOwnThreadOrPost',
  favorite: 'thread.favorite',
  likePosts: 'thread.likePosts',
  allowAnonymous: 'thread.allowAnonymous',
  insertImage: 'thread.insertImage',
  insertVideo: 'thread.insertVideo',
  insertAudio: 'thread.insertAudio',
  insertAttachment: 'thread.insertAttachment',
  insertGoods: 'thread.insertGoods',
  insertPay: 'thread.insertPay',
  insertReward: 'thread.insertReward',
  insertRedPacket: 'thread.insertRedPacket',
  insertPosition: 'thread.insertPosition',
  insertVote: 'thread.insertVote',
  viewAttachment: 'thread.viewAttachment',
  downloadAttachment: 'thread.downloadAttachment',
  viewVideo: 'thread.viewVideo',
};

const CATEGORY_KEY = /^category(\d+)\.(.+)$/;

export interface ParsedPermission {
  key: string;
  categoryId: number | null;
}

/** Parses `key` or `category<ID>.key` into its canonical form, or null when the key is unknown. */
export function parsePermission(raw: string): ParsedPermission | null {
  const match = CATEGORY_KEY.exec(raw);
  if (match) {
    const key = PERMISSION_ALIASES[match[2]!] ?? match[2]!;
    const categoryId = Number(match[1]);
    if (!CATEGORY_SCOPED.has(key) || !Number.isSafeInteger(categoryId) || categoryId <= 0) return null;
    return { key, categoryId };
  }
  const key = PERMISSION_ALIASES[raw] ?? raw;
  return KNOWN.has(key) ? { key, categoryId: null } : null;
}

export function formatPermission(p: ParsedPermission): string {
  return p.categoryId === null ? p.key : `category${p.categoryId}.${p.key}`;
}

/** What guests and members may do with a thread's files and videos on a fresh site (the family's defaults). */
const VIEW_MEDIA = ['thread.viewAttachment', 'thread.downloadAttachment', 'thread.viewVideo'];

/**
 * What each default group holds on a fresh site (a fresh Discuz! Q's group_permission rows, for the keys we share).
 * The administrator group holds everything implicitly. Existing sites keep what their administrators set.
 */
export const DEFAULT_GROUP_PERMISSIONS: Readonly<Record<number, readonly string[]>> = {
  6: ['viewThreads', 'thread.viewPosts'],
  7: ['viewThreads', 'thread.viewPosts', ...VIEW_MEDIA],
  8: [
    'viewThreads',
    'thread.viewPosts',
    'thread.reply',
    'thread.likePosts',
    'thread.favorite',
    'thread.hideOwnThreadOrPost',
    'user.view',
    'userFollow.create',
    ...VIEW_MEDIA,
  ],
  10: [
    'viewThreads',
    'thread.viewPosts',
    'createThread',
    'thread.reply',
    'thread.likePosts',
    'thread.favorite',
    'thread.editOwnThread',
    'thread.hideOwnThreadOrPost',
    'thread.insertImage',
    'thread.insertPay',
    'thread.insertAttachment',
    'thread.insertRedPacket',
    'thread.insertReward',
    'thread.insertGoods',
    'thread.insertPosition',
    'thread.allowAnonymous',
    ...VIEW_MEDIA,
    'user.view',
    'userFollow.create',
    'dialog.create',
    'order.create',
    'trade.pay.order',
    'cash.create',
  ],
};

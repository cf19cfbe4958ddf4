/** Business constants of the spec (section 9) and of the product family. */
export const CLIENT_VERSION = 'v3.0.220113';
export const UNREAD_POLL_INTERVAL_MS = 60_000;
export const REQUEST_TIMEOUT_MS = 30_000;
export const SHARED_CLIENT_TIMEOUT_MS = 1_000;
export const PLATFORM_BREAKPOINT_PX = 800;
export const HOVER_CARD_CLOSE_DELAY_MS = 200;
export const DROPDOWN_OPEN_DELAY_MS = 250;
export const DROPDOWN_CLOSE_DELAY_MS = 150;
export const ASSET_LOAD_TIMEOUT_MS = 3_800;
export const TOAST_DEFAULT_DURATION_MS = 1_500;
export const TOAST_BLOCK_SUCCESS_DURATION_MS = 1_000;
export const BADGE_CAP = 99;
export const BADGE_MIDDLE_MIN = 10;
export const ACCESS_TOKEN_NAME = 'access_token';
export const ACCESS_TOKEN_TTL_MS = 2_592_000_000;
export const JUMP_URL_KEY = '__jump_url';
export const SHARE_TITLE_MAX = 17;
export const TEXTAREA_ROW_HEIGHT_PX = 25;
export const INPUT_APPEND_WIDTH = '50px';
export const AVATAR_DEFAULT_QUALITY_LEVEL = 6;
export const PLUGIN_PLATFORMS = ['pc', 'h5', 'mini'] as const;

/** The plugin placement targets seen in the spec (section 2). */
export const PLUGIN_TARGETS = [
  'plugin_system',
  'plugin_index',
  'plugin_detail',
  'plugin_post',
  'plugin_page',
  'plugin_global',
  'plugin_user',
] as const;
export type PluginTarget = (typeof PLUGIN_TARGETS)[number];

export const PLUGIN_VERSION_PATTERN = /^\d{1,3}\.\d{1,3}\.\d{1,3}$/;

/** The spec's unnamed numeric constants (section 3); their meaning is not shown. */
export const CONTENT_KIND = {
  nouse: 0,
  draft: 1,
  like: 2,
  collect: 3,
  pay: 4,
  topic: 5,
  count: 6,
} as const;

export const PAGE_SIZE_DEFAULT = 20;
export const PAGE_SIZE_MAX = 50;
/** How many comments each reply of posts.list carries; posts.reply pages through the rest. */
export const COMMENTS_PREVIEW = 10;

/** The family's default groups. */
export const GroupId = {
  ADMINISTRATOR: 1,
  UNPAID: 6,
  GUEST: 7,
  FREE_TRIAL: 8,
  MEMBER: 10,
} as const;

/**
 * Whether a group is one a site is seeded with. Their `type` (admin, unpaid, guest, trial, member) names the
 * family's role of each and stays as seeded; the forum's own rules go by id (the administrators hold every
 * permission, guests' permissions apply to visitors) and by the default flag, never by the type.
 */
export function isSeededGroup(id: number): boolean {
  return (Object.values(GroupId) as number[]).includes(id);
}

/** The family's user status values. */
export const UserStatus = {
  NORMAL: 0,
  BANNED: 1,
  UNDER_REVIEW: 2,
  REJECTED: 3,
  IGNORED: 4,
  NEEDS_SIGNIN_FIELDS: 10,
} as const;
export type UserStatusValue = (typeof UserStatus)[keyof typeof UserStatus];

export const USERNAME_MIN = 2;
export const USERNAME_MAX = 15;
/** Mainland China mobile numbers: 11 digits starting 13 to 19 (sms.ts; a new username may not look like one). */
export const MOBILE_PATTERN = /^1[3-9]\d{9}$/;
export const NICKNAME_MAX = 15;
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 128;

/**
 * The hook slots of each target, as the web app names them: the contract plugins are written against. Kept here, away
 * from the zod schemas of schemas/plugins.ts, so the web app's first page can name the slots without loading zod.
 */
export const PLUGIN_HOOKS = {
  plugin_global: ['header_replace', 'footer_replace'],
  plugin_index: [
    'header_insert_before',
    'header_insert_after',
    'header_replace',
    'tabs_replace',
    'topping_insert_before',
    'topping_insert_after',
    'topping_replace',
    'left_insert',
    'right_insert',
    'recommend_replace',
    'qrcode_replace',
    'copyright_replace',
    'thread_extension_display_hook',
  ],
  plugin_post: ['post_extension_entry_hook', 'post_extension_content_hook'],
  plugin_detail: ['thread_extension_display_hook'],
  plugin_system: ['add_page_hook'],
  plugin_page: [],
  plugin_user: ['user_extension_action_hook', 'user_extension_left_layout_hook'],
} as const satisfies Record<PluginTarget, readonly string[]>;

export type PluginHookName = (typeof PLUGIN_HOOKS)[PluginTarget][number];
export type PluginPlatform = (typeof PLUGIN_PLATFORMS)[number];

/** Compares versions by joining their digits (the spec's rule): 1.2.10 is "1210", above 1.3.0 ("130"). */
export function comparePluginVersions(a: string, b: string): number {
  return Number(a.split('.').join('')) - Number(b.split('.').join(''));
}

/** The `userId` of the anonymous user: an anonymous thread's author as others see it (no account has id 0). */
export const ANONYMOUS_USER_ID = 0;

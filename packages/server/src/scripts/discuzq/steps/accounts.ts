import fs from 'node:fs/promises';
import pino from 'pino';
import path from 'node:path';
import { assertKey, contentTypeOfKey } from '../../../core/storage/index.js';
import { encodeSetting } from '../../../modules/settings/index.js';
import { normalizeUsername } from '../../../modules/users/index.js';
import { storeImportedProfileImage } from '../../../modules/account/index.js';
import { laravelDecrypt, laravelKey } from '../laravel-crypt.js';
import type { DzqRow } from '../source.js';
import { insertChunks, type BatchContext, type TableStep } from '../steps.js';
import { cents, int, ref, str, time, timeOr } from '../values.js';

/*
 * Settings, groups and their permissions, categories, users with their WeChat identities and group memberships,
 * the site's emoji. Ids are kept (docs/discuzq.md, "What maps to what").
 */

const log = pino({ level: 'silent' });

/** DZQ setting (key, tag) → ours; `convert` turns its text into our value (undefined: leave ours). */
interface SettingMap {
  key: string;
  tag?: string;
  convert?: (value: string) => string | number | boolean | undefined;
}

const bool = (v: string) => v === '1' || v === 'true';
const number = (v: string) => (Number.isFinite(Number(v)) ? Number(v) : undefined);
const money = (v: string) => {
  const c = cents(v);
  return `${Math.trunc(c / 100)}.${String(Math.abs(c) % 100).padStart(2, '0')}`;
};

const SETTINGS: Record<string, SettingMap> = {
  site_name: { key: 'siteName' },
  site_title: { key: 'siteTitle' },
  site_keywords: { key: 'siteKeywords' },
  site_introduction: { key: 'siteIntroduction' },
  site_stat: { key: 'siteStat' },
  site_url: { key: 'siteUrl', convert: (v) => (/^https?:\/\//.test(v) ? v : undefined) },
  site_record: { key: 'siteRecord' },
  site_record_code: { key: 'siteRecordCode' },
  site_close: { key: 'siteClose', convert: bool },
  site_close_msg: { key: 'siteCloseMsg' },
  // The family's register_close is "registration is open" (1 on a fresh install).
  register_close: { key: 'registerClose', convert: (v) => !bool(v) },
  register_validate: { key: 'registerValidate', convert: bool },
  register_captcha: { key: 'registerCaptcha', convert: bool },
  site_mode: { key: 'siteMode', convert: (v) => (v === 'pay' ? 'pay' : 'public') },
  site_price: { key: 'sitePrice', convert: money },
  site_expire: { key: 'siteExpire', convert: number },
  site_author_scale: { key: 'siteAuthorScale', convert: number },
  site_master_scale: { key: 'siteMasterScale', convert: number },
  cash_min_sum: { key: 'cashMinSum', convert: money },
  cash_max_sum: { key: 'cashMaxSum', convert: money },
  cash_sum_limit: { key: 'cashSumLimit', convert: number },
  // The family's rate is a fraction (0.006); ours is percent text ("0.60").
  cash_rate: { key: 'cashRate', convert: (v) => money(String(Math.round(Number(v) * 10000) / 100)) },
  support_file_ext: { key: 'supportFileExt' },
  support_max_size: { key: 'supportMaxSize', convert: number },
  support_max_upload_attachment_num: { key: 'supportMaxUploadAttachmentNum', convert: number },
  register: { key: 'registerAgreementOpen', tag: 'agreement', convert: bool },
  register_content: { key: 'registerAgreement', tag: 'agreement' },
  privacy_content: { key: 'privacyAgreement', tag: 'agreement' },
  offiaccount_app_id: { key: 'wechatAppId', tag: 'wechat' },
  offiaccount_app_secret: { key: 'wechatAppSecret', tag: 'wechat' },
  qcloud_secret_id: { key: 'tencentSecretId', tag: 'sms' },
  qcloud_secret_key: { key: 'tencentSecretKey', tag: 'sms' },
  qcloud_sms_app_id: { key: 'tencentSmsSdkAppId', tag: 'sms' },
  qcloud_sms_sign: { key: 'smsSignName', tag: 'sms' },
  qcloud_sms_template_id: { key: 'smsTemplateId', tag: 'sms' },
};

/** The family's settings that hold secrets, encrypted with the site's key. */
const ENCRYPTED = new Set([
  'offiaccount_app_secret',
  'qcloud_secret_id',
  'qcloud_secret_key',
  'miniprogram_app_secret',
  'oplatform_app_secret',
  'wxpay_mchid',
  'wxpay_api_key',
  'wxpay_app_secret',
]);

/** A value Laravel's encrypter wrote: base64 of a JSON object with iv, value and mac. */
const looksEncrypted = (v: string) => /^eyJpdiI6/.test(v);

/** The memo key (in legacy_redirects, so a resumed run has it) of the old site's COS address. */
export const COS_BASE_KEY = 'dzq:cos-base';

/** The address of the old site's Tencent COS bucket (its CDN address when set): where its remote files are. */
async function rememberCosBase(rows: DzqRow[], ctx: BatchContext): Promise<void> {
  const value = (key: string) => str(rows.find((r) => str(r.key) === key)?.value).trim();
  const cdn = value('qcloud_cos_cdn_url');
  const bucket = value('qcloud_cos_bucket_name');
  const region = value('qcloud_cos_bucket_area');
  const base = /^https?:\/\//.test(cdn)
    ? cdn.replace(/\/+$/, '')
    : bucket && region && /^[a-z0-9.-]+$/i.test(bucket + region)
      ? `https://${bucket}.cos.${region}.myqcloud.com`
      : '';
  if (base === '') return;
  ctx.run.memo.set('cosBase', base);
  await ctx.db
    .insertInto('legacyRedirects')
    .values({ path: COS_BASE_KEY, target: base })
    .onConflict((oc) => oc.column('path').doUpdateSet({ target: base }))
    .execute();
}

const settingsStep: TableStep = {
  kind: 'table',
  table: 'settings',
  key: ['key', 'tag'],
  async write(rows, ctx) {
    const { appKey } = ctx.run.options;
    const key = appKey ? laravelKey(appKey) : null;
    await rememberCosBase(rows, ctx);
    for (const row of rows) {
      const name = str(row.key);
      const map = SETTINGS[name];
      if (!map) {
        ctx.skip('setting with no counterpart');
        continue;
      }
      let text = str(row.value);
      if (ENCRYPTED.has(name) || looksEncrypted(text)) {
        if (text === '') {
          ctx.skip('empty secret');
          continue;
        }
        const opened = key ? laravelDecrypt(text, key) : null;
        if (opened === null) {
          ctx.skip(key ? 'secret the app key does not open' : 'encrypted secret (no --app-key)');
          ctx.run.note(
            `Setting ${name} is encrypted and was not brought over${key ? ' (the key did not open it)' : ': run with --app-key'}.`,
          );
          continue;
        }
        text = opened;
      }
      const value = map.convert ? map.convert(text) : text;
      if (value === undefined) {
        ctx.skip('setting value we cannot use');
        continue;
      }
      const tag = map.tag ?? 'default';
      const encoded = encodeSetting(value);
      await ctx.db
        .insertInto('settings')
        .values({ key: map.key, tag, value: encoded })
        .onConflict((oc) => oc.columns(['key', 'tag']).doUpdateSet({ value: encoded }))
        .execute();
      ctx.wrote();
    }
  },
};

const groupsStep: TableStep = {
  kind: 'table',
  table: 'groups',
  key: ['id'],
  async write(rows, ctx) {
    const ids = await ctx.run.ids('groups');
    const values = rows.map((r) => ({
      id: int(r.id),
      name: str(r.name).slice(0, 64) || `#${int(r.id)}`,
      type: str(r.type),
      color: str(r.color),
      icon: str(r.icon),
      isDefault: int(r.default),
      isDisplay: int(r.is_display),
      isPaid: int(r.is_paid),
      feeCents: cents(r.fee),
      days: int(r.days),
      scale: Math.round(Number(r.scale ?? 0) * 10) / 10,
      isSubordinate: int(r.is_subordinate),
      isCommission: int(r.is_commission),
      createdAt: ctx.run.startedAt,
      updatedAt: ctx.run.startedAt,
    }));
    await insertChunks(values, (chunk) => ctx.db.insertInto('groups').values(chunk).execute());
    for (const v of values) ids.add(v.id);
    ctx.wrote(values.length);
  },
};

const groupPermissionStep: TableStep = {
  kind: 'table',
  table: 'group_permission',
  key: ['group_id', 'permission'],
  async write(rows, ctx) {
    const groups = await ctx.run.ids('groups');
    const values: { groupId: number; permission: string }[] = [];
    for (const r of rows) {
      if (!groups.has(int(r.group_id))) {
        ctx.skip('group missing');
        continue;
      }
      values.push({ groupId: int(r.group_id), permission: str(r.permission) });
    }
    await insertChunks(values, (chunk) =>
      ctx.db
        .insertInto('groupPermission')
        .values(chunk)
        .onConflict((oc) => oc.doNothing())
        .execute(),
    );
    ctx.wrote(values.length);
  },
};

const categoriesStep: TableStep = {
  kind: 'table',
  table: 'categories',
  key: ['id'],
  async write(rows, ctx) {
    const ids = await ctx.run.ids('categories');
    const values = rows.map((r) => ({
      id: int(r.id),
      name: str(r.name).slice(0, 64) || `#${int(r.id)}`,
      description: str(r.description).slice(0, 500),
      icon: /^https?:\/\//.test(str(r.icon)) ? str(r.icon).slice(0, 500) : '',
      sort: int(r.sort),
      parentId: int(r.parentid),
      createdAt: timeOr(r.created_at, ctx.run.startedAt),
      updatedAt: timeOr(r.updated_at, ctx.run.startedAt),
    }));
    await insertChunks(values, (chunk) => ctx.db.insertInto('categories').values(chunk).execute());
    for (const v of values) ids.add(v.id);
    ctx.wrote(values.length);
  },
};

/** Where the old site kept a user's local image: `000/00/00/01.png` under storage/app/public/<dir>/. */
export function localStoragePath(storageDir: string, dir: 'avatars' | 'background', value: string): string | null {
  if (value === '' || /^[a-z]+:\/\//i.test(value) || value.includes('..')) return null;
  return path.join(storageDir, 'app', 'public', dir, value.replace(/^\/+/, ''));
}

/** An avatar or background: a remote address is kept, a local file copied and resized; null when there is none. */
async function profileImage(
  ctx: BatchContext,
  userId: number,
  kind: 'avatar' | 'background',
  value: string,
): Promise<string> {
  if (value === '') return '';
  if (/^https?:\/\//i.test(value)) return value.slice(0, 255);
  if (/^cos:\/\//i.test(value)) {
    const cos = ctx.run.memo.get('cosBase') as string | undefined;
    if (cos) return `${cos}/${value.replace(/^cos:\/\//i, '')}`.slice(0, 255);
    ctx.skip(`${kind} in COS with no address known`);
    return '';
  }
  const dir = kind === 'avatar' ? 'avatars' : 'background';
  const storage = ctx.run.options.storageDir;
  const file = storage ? localStoragePath(storage, dir, value) : null;
  if (!file) {
    ctx.skip(`${kind} file missing (no --storage)`);
    return '';
  }
  let bytes: Buffer;
  try {
    bytes = await fs.readFile(file);
  } catch {
    ctx.skip(`${kind} file missing`);
    ctx.run.note(`Missing ${kind} of user ${userId}: ${file}`);
    return '';
  }
  if (ctx.run.options.dryRun) return '';
  const url = await storeImportedProfileImage(ctx.run.options.files, userId, kind, bytes, log);
  if (!url) {
    ctx.skip(`${kind} file is no image`);
    return '';
  }
  await ctx.db
    .insertInto('legacyRedirects')
    .values({
      path: `/storage/${dir === 'avatars' ? 'avatars' : 'background'}/${value.replace(/^\/+/, '')}`,
      target: url,
    })
    .onConflict((oc) => oc.column('path').doUpdateSet({ target: url }))
    .execute();
  return url;
}

const usersStep: TableStep = {
  kind: 'table',
  table: 'users',
  key: ['id'],
  async write(rows, ctx) {
    const ids = await ctx.run.ids('users');
    const mobiles = (ctx.run.memo.get('mobiles') as Set<string> | undefined) ?? new Set<string>();
    ctx.run.memo.set('mobiles', mobiles);
    const users = [];
    const wallets = [];
    for (const r of rows) {
      const id = int(r.id);
      const username = str(r.username).trim();
      if (username === '') {
        ctx.skip('user without a username');
        continue;
      }
      let mobile: string | null = str(r.mobile).trim() || null;
      if (mobile && mobiles.has(mobile)) {
        ctx.run.note(`Mobile ${mobile} of user ${id} is also another user's: left off this one.`);
        mobile = null;
      }
      if (mobile) mobiles.add(mobile);
      const created = timeOr(r.created_at, ctx.run.startedAt);
      users.push({
        id,
        username,
        usernameNormalized: normalizeUsername(username),
        nickname: str(r.nickname) || username,
        // A Laravel bcrypt hash verifies as it is and is replaced by ours at the first sign-in (users/passwords.ts).
        passwordHash: str(r.password),
        avatar: await profileImage(ctx, id, 'avatar', str(r.avatar)),
        background: await profileImage(ctx, id, 'background', str(r.background)),
        signature: str(r.signature),
        status: int(r.status),
        rejectReason: str(r.reject_reason),
        registerIp: str(r.register_ip),
        lastLoginIp: str(r.last_login_ip),
        lastLoginAt: time(r.login_at),
        paidAt: time(r.joined_at),
        paidUntil: time(r.expired_at),
        mobile,
        createdAt: created,
        updatedAt: timeOr(r.updated_at, created),
      });
      if (str(r.pay_password) !== '') {
        wallets.push({ userId: id, payPasswordHash: str(r.pay_password), createdAt: created, updatedAt: created });
      }
    }
    await insertChunks(users, (chunk) => ctx.db.insertInto('users').values(chunk).execute());
    // The pay password lives on the wallet here; user_wallets fills in the balances later.
    await insertChunks(wallets, (chunk) =>
      ctx.db
        .insertInto('wallets')
        .values(chunk)
        .onConflict((oc) =>
          oc.column('userId').doUpdateSet((eb) => ({ payPasswordHash: eb.ref('excluded.payPasswordHash') })),
        )
        .execute(),
    );
    for (const u of users) ids.add(u.id);
    ctx.wrote(users.length);
  },
};

const userWechatsStep: TableStep = {
  kind: 'table',
  table: 'user_wechats',
  key: ['id'],
  optional: true,
  async write(rows, ctx) {
    const users = await ctx.run.ids('users');
    const values = [];
    for (const r of rows) {
      const userId = ref(r.user_id);
      const subject = str(r.unionid) || str(r.mp_openid) || str(r.dev_openid) || str(r.min_openid);
      if (userId === null || !users.has(userId)) {
        ctx.skip('user missing');
        continue;
      }
      if (subject === '') {
        ctx.skip('no WeChat id');
        continue;
      }
      values.push({
        userId,
        kind: 'wechat',
        providerId: 0,
        subject,
        displayName: str(r.nickname).slice(0, 100),
        createdAt: timeOr(r.created_at, ctx.run.startedAt),
      });
    }
    for (const v of values) {
      const result = await ctx.db
        .insertInto('userIdentities')
        .values(v)
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      if (Number(result.numInsertedOrUpdatedRows ?? 0) > 0) ctx.wrote();
      else ctx.skip('WeChat id linked twice');
    }
  },
};

const groupUserStep: TableStep = {
  kind: 'table',
  table: 'group_user',
  key: ['group_id', 'user_id'],
  async write(rows, ctx) {
    const [groups, users] = await Promise.all([ctx.run.ids('groups'), ctx.run.ids('users')]);
    const values = [];
    for (const r of rows) {
      if (!groups.has(int(r.group_id))) ctx.skip('group missing');
      else if (!users.has(int(r.user_id))) ctx.skip('user missing');
      else values.push({ groupId: int(r.group_id), userId: int(r.user_id), expiresAt: time(r.expiration_time) });
    }
    await insertChunks(values, (chunk) =>
      ctx.db
        .insertInto('groupUser')
        .values(chunk)
        .onConflict((oc) => oc.doNothing())
        .execute(),
    );
    ctx.wrote(values.length);
  },
};

/** The family's emoji images ship in its public/ folder, beside storage/: copied to our uploads when found. */
const emojiStep: TableStep = {
  kind: 'table',
  table: 'emoji',
  key: ['id'],
  optional: true,
  async write(rows, ctx) {
    const storage = ctx.run.options.storageDir;
    const values = [];
    for (const r of rows) {
      let url = str(r.url);
      if (storage && !/^https?:\/\//i.test(url) && !url.includes('..')) {
        const from = path.join(storage, '..', 'public', url.replace(/^\/+/, ''));
        try {
          const bytes = await fs.readFile(from);
          if (!ctx.run.options.dryRun) {
            const key = `uploads/${url.replace(/^\/+/, '')}`;
            await ctx.run.options.files.put(assertKey(key), bytes, contentTypeOfKey(key));
          }
          url = `/uploads/${url.replace(/^\/+/, '')}`;
        } catch {
          ctx.skip('emoji image missing (kept as its address)', 0);
        }
      }
      values.push({
        id: int(r.id),
        category: str(r.category),
        url,
        code: str(r.code),
        order: int(r.order),
        createdAt: timeOr(r.created_at, ctx.run.startedAt),
        updatedAt: timeOr(r.updated_at, ctx.run.startedAt),
      });
    }
    await insertChunks(values, (chunk) => ctx.db.insertInto('emoji').values(chunk).execute());
    ctx.wrote(values.length);
  },
};

export const accountSteps: TableStep[] = [
  settingsStep,
  groupsStep,
  groupPermissionStep,
  categoriesStep,
  usersStep,
  userWechatsStep,
  groupUserStep,
  emojiStep,
];

import { randomBytes } from 'node:crypto';
import {
  DEFAULT_GROUP_PERMISSIONS,
  GroupId,
  NotificationChannel,
  SETTING_DEFINITIONS,
  UserStatus,
} from '@luntan/shared';
import type { Kysely, Transaction } from 'kysely';
import { now } from './core/time.js';
import { hashPassword } from './modules/users/index.js';
import { addUserToGroup } from './modules/groups/index.js';
import { encodeSetting } from './modules/settings/index.js';
import { DEFAULT_TEMPLATES, EARLIER_DEFAULTS } from './modules/notification-templates/index.js';
import { readSetting, writeSettingIfAbsent } from './modules/settings/index.js';
import { ensureSandboxSecret } from './modules/payments/index.js';
import { ensureCaptchaSecret } from './modules/captcha/index.js';
import { findUserByUsername, insertUser, normalizeUsername } from './modules/users/index.js';
import { syncIdentity } from './db/migration-helpers.js';
import type { DB } from './db/schema.js';

const DEFAULT_GROUPS = [
  { id: GroupId.ADMINISTRATOR, name: '管理员', type: 'admin', isDefault: 0 },
  { id: GroupId.UNPAID, name: '待付费', type: 'unpaid', isDefault: 0 },
  { id: GroupId.GUEST, name: '游客', type: 'guest', isDefault: 0 },
  { id: GroupId.FREE_TRIAL, name: '免费试用', type: 'trial', isDefault: 0 },
  { id: GroupId.MEMBER, name: '普通会员', type: 'member', isDefault: 1 },
] as const;

const DEFAULT_CATEGORY = {
  id: 1,
  name: '默认分类',
  description: '',
  icon: '',
  sort: 0,
  parentId: 0,
} as const;

export interface SeedResult {
  /** Set when this start created the administrator. */
  admin?: { username: string; password?: string; generated: boolean };
}

/**
 * Fills what a fresh site needs: the default groups and their permissions, the default settings, the default
 * category and the first administrator. Idempotent: on later starts it adds only what is missing and never overwrites a change.
 */
export async function seed(
  db: Kysely<DB>,
  options: { adminUsername?: string; adminPassword?: string },
): Promise<SeedResult> {
  const result: SeedResult = {};
  const at = now();
  await db.transaction().execute(async (trx) => {
    const existing = await trx.selectFrom('groups').select('id').execute();
    if (existing.length === 0) {
      await trx
        .insertInto('groups')
        .values(
          DEFAULT_GROUPS.map((g) => ({
            id: g.id,
            name: g.name,
            type: g.type,
            color: '',
            icon: '',
            isDefault: g.isDefault,
            isDisplay: g.id === GroupId.ADMINISTRATOR ? 1 : 0,
            isPaid: 0,
            feeCents: 0,
            days: 0,
            scale: 0,
            isSubordinate: 0,
            isCommission: 0,
            createdAt: at,
            updatedAt: at,
          })),
        )
        .execute();
      await syncIdentity(trx as unknown as Kysely<unknown>, 'groups');
      const rows = Object.entries(DEFAULT_GROUP_PERMISSIONS).flatMap(([groupId, keys]) =>
        keys.map((permission) => ({ groupId: Number(groupId), permission })),
      );
      await trx.insertInto('groupPermission').values(rows).execute();
    }

    for (const def of SETTING_DEFINITIONS) {
      await writeSettingIfAbsent(trx, def.key, def.tag, encodeSetting(def.default));
    }
    // The secrets the site signs with, made here so that no read ever has to write them.
    await ensureSandboxSecret(trx);
    await ensureCaptchaSecret(trx);

    // The in-site template of each notification type, in the site's language; never overwrites an edited one.
    const locale = (await readSetting(trx, 'siteLocale', 'default'))?.value === 'en' ? 'en' : 'zh';
    await trx
      .insertInto('notificationTpls')
      .values(
        DEFAULT_TEMPLATES.map((d) => ({
          typeName: d.typeName,
          type: NotificationChannel.SITE,
          status: 1,
          title: d[locale].title,
          content: d[locale].content,
          vars: JSON.stringify(Object.fromEntries(Object.entries(d.vars).map(([k, label]) => [k, label[locale]]))),
          createdAt: at,
          updatedAt: at,
        })),
      )
      .onConflict((oc) => oc.columns(['typeName', 'type']).doNothing())
      .execute();
    await upgradeUneditedTemplates(trx, locale, at);

    // A fresh site has one category to post in.
    const anyCategory = await trx.selectFrom('categories').select('id').limit(1).executeTakeFirst();
    if (!anyCategory) {
      await trx
        .insertInto('categories')
        .values({ ...DEFAULT_CATEGORY, createdAt: at, updatedAt: at })
        .execute();
      await syncIdentity(trx as unknown as Kysely<unknown>, 'categories');
    }
  });

  const hasAdmin = await db
    .selectFrom('groupUser')
    .select('userId')
    .where('groupId', '=', GroupId.ADMINISTRATOR)
    .executeTakeFirst();
  if (!hasAdmin) {
    const username = options.adminUsername?.trim() || 'admin';
    const generated = !options.adminPassword;
    const password = options.adminPassword || randomBytes(12).toString('base64url');
    const passwordHash = await hashPassword(password);
    await db.transaction().execute(async (trx) => {
      // A user of that name may already exist (e.g. the administrator group was emptied): promote it.
      const user = await findUserByUsername(trx, username);
      const userId =
        user?.id ??
        (await insertUser(trx, {
          username,
          usernameNormalized: normalizeUsername(username),
          nickname: username,
          passwordHash,
          avatar: '',
          signature: '',
          status: UserStatus.NORMAL,
          rejectReason: '',
          registerIp: '',
          lastLoginIp: '',
          lastLoginAt: null,
          createdAt: at,
          updatedAt: at,
        }));
      await addUserToGroup(trx, userId, GroupId.ADMINISTRATOR);
    });
    result.admin = { username, generated, ...(generated ? { password } : {}) };
  }
  return result;
}

/**
 * Templates nobody edited move to the current default text, and every template's list of placeholders to the
 * current one (the back office accepts what the list names): a site made before a default changed gets it too.
 */
async function upgradeUneditedTemplates(trx: Transaction<DB>, locale: 'zh' | 'en', at: string): Promise<void> {
  const rows = await trx
    .selectFrom('notificationTpls')
    .select(['id', 'typeName', 'title', 'content', 'vars'])
    .where('type', '=', NotificationChannel.SITE)
    .execute();
  const defaults = new Map(DEFAULT_TEMPLATES.map((d) => [d.typeName, d]));
  for (const row of rows) {
    const d = defaults.get(row.typeName);
    if (!d) continue;
    const vars = JSON.stringify(Object.fromEntries(Object.entries(d.vars).map(([k, label]) => [k, label[locale]])));
    const unedited = (EARLIER_DEFAULTS.get(row.typeName) ?? []).some(
      (e) => e.title === row.title && e.content === row.content,
    );
    const text = unedited ? { title: d[locale].title, content: d[locale].content } : {};
    if (!unedited && row.vars === vars) continue;
    await trx
      .updateTable('notificationTpls')
      .set({ ...text, vars, updatedAt: at })
      .where('id', '=', row.id)
      .execute();
  }
}

import type { AdminMessages } from './zh-admin';
import { adminPeople } from './en/admin-people';
import { adminMoney } from './en/admin-money';
import { adminPlugins } from './en/admin-plugins';
import { adminContent } from './en/admin-content';
import { adminSite } from './en/admin-site';

/** The back office's messages in English (see zh-admin.ts). */
export const enAdmin: AdminMessages = { ...adminPeople, ...adminMoney, ...adminPlugins, ...adminContent, ...adminSite };

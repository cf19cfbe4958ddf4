import type { Catalogue } from './catalogue';
import { adminPeople } from './zh/admin-people';
import { adminMoney } from './zh/admin-money';
import { adminPlugins } from './zh/admin-plugins';
import { adminContent } from './zh/admin-content';
import { adminSite } from './zh/admin-site';

/**
 * The back office's messages in Chinese (`admin.*` but `admin.enter`, which the header shows): their own chunk,
 * loaded with the back office's pages (runtime.ts `loadAdminCatalogue`), bundled in the server renderer.
 */
export const zhAdmin = { ...adminPeople, ...adminMoney, ...adminPlugins, ...adminContent, ...adminSite };

export type AdminMessages = Catalogue<typeof zhAdmin>;

import {
  Code,
  comparePluginVersions,
  DEFAULT_LOCALE,
  pluginManifestSchema,
  pluginText,
  pluginTexts,
  type Locale,
  type PluginAdminItem,
  type PluginListItem,
  type PluginManifest,
  type PluginPlatform,
  type PluginSettingField,
} from '@luntan/shared';
import type { Kysely, Selectable } from 'kysely';
import type { AppContext } from '../../context.js';
import { bumpCacheVersion } from '../../core/cache-versions.js';
import { AppError, invalidField, notFound } from '../../core/errors.js';
import { now } from '../../core/time.js';
import type { DB, PluginsTable } from '../../db/schema.js';
import { enabledPluginsOf } from './kept-plugins.js';
import type { PluginPackage } from './plugin-package.js';
import {
  deleteOtherFiles,
  deletePluginRows,
  enabledManifests,
  findPluginRow,
  insertPluginFile,
  insertPluginRow,
  listPluginRows,
  updatePluginRow,
} from './plugins.repository.js';
import { msg } from '../../i18n/index.js';

/*
 * Installed plugins: what the back office manages and what pages load. Every change raises the `plugins` cache
 * version, which each process compares before using what it loaded (the web's plugin list, the server parts), so
 * enabling, disabling, updating and removing take effect on the next request in every process.
 */

export const PLUGINS_CACHE = 'plugins';

type Row = Selectable<PluginsTable>;

export type SettingValue = string | number | boolean;

export const pluginNotFound = () => notFound(msg('plugins.pluginNotFound'));

export function parseManifest(row: Pick<Row, 'manifest'>): PluginManifest {
  return pluginManifestSchema.parse(JSON.parse(row.manifest));
}

function storedSettings(row: Pick<Row, 'settings'>): Record<string, SettingValue> {
  try {
    const parsed = JSON.parse(row.settings) as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, SettingValue>) : {};
  } catch {
    return {};
  }
}

/** Every declared setting with its value (stored, else the default); `publicOnly` leaves secret ones out. */
export function settingsOf(row: Pick<Row, 'settings'>, schema: PluginSettingField[], publicOnly: boolean) {
  const stored = storedSettings(row);
  const out: Record<string, SettingValue> = {};
  for (const field of schema) {
    if (publicOnly && field.visibility === 'secret') continue;
    const value = stored[field.key] ?? field.default;
    if (value !== undefined) out[field.key] = value;
  }
  return out;
}

export const assetUrl = (appid: string, hash: string, file: string) => `/plugin-assets/${appid}/${hash}/${file}`;

/** `locale`: the answer's language, which the name is given in (both languages are in `pluginNames`). */
function listItem(row: Row, manifest: PluginManifest, publicOnly: boolean, locale: Locale): PluginListItem {
  return {
    appid: row.appid,
    pluginName: pluginText(manifest.pluginName, locale),
    pluginNames: pluginTexts(manifest.pluginName),
    version: manifest.version,
    type: manifest.type,
    author: manifest.author,
    platform: manifest.platform,
    entries: manifest.entries,
    moduleUrl: assetUrl(row.appid, row.contentHash, manifest.client),
    styleUrl: manifest.style ? assetUrl(row.appid, row.contentHash, manifest.style) : null,
    settings: settingsOf(row, manifest.settings, publicOnly),
    options: manifest.options,
  };
}

export function adminItem(row: Row, locale: Locale): PluginAdminItem {
  const manifest = parseManifest(row);
  return {
    ...listItem(row, manifest, true, locale),
    enabled: row.enabled === 1,
    description: pluginText(manifest.description, locale),
    descriptions: pluginTexts(manifest.description),
    settingsSchema: manifest.settings,
    allSettings: settingsOf(row, manifest.settings, false),
    hasServer: Boolean(manifest.server),
    serverError: row.serverError,
    installedAt: row.installedAt,
    updatedAt: row.updatedAt,
  };
}

export async function findPlugin(db: Kysely<DB>, appid: string): Promise<Row | undefined> {
  return findPluginRow(db, appid);
}

export async function listAdminPlugins(db: Kysely<DB>, locale: Locale): Promise<PluginAdminItem[]> {
  const rows = await listPluginRows(db);
  return rows.map((row) => adminItem(row, locale));
}

/** The enabled plugins for a platform, with public settings only (kept while the `plugins` counter stays). */
export async function listEnabledPlugins(
  ctx: AppContext,
  platform: PluginPlatform,
  locale: Locale,
): Promise<PluginListItem[]> {
  const out: PluginListItem[] = [];
  for (const { row, manifest } of await enabledPluginsOf(ctx, parseManifest)) {
    if (manifest.platform.includes(platform)) out.push(listItem(row, manifest, true, locale));
  }
  return out;
}

export async function publicSettings(db: Kysely<DB>, appid: string): Promise<Record<string, SettingValue>> {
  const row = await findPlugin(db, appid);
  if (!row || row.enabled !== 1) throw pluginNotFound();
  return settingsOf(row, parseManifest(row).settings, true);
}

export interface InstallResult {
  /** 'uploaded': the package is installed now; 'installed': the installed version is higher or equal and stays. */
  kept: 'uploaded' | 'installed';
  previousVersion: string | null;
  item: PluginAdminItem;
}

/**
 * Installs a checked package. A plugin already installed is replaced only by a higher version (the spec's
 * joined-digits rule), keeping its enabled state and settings; otherwise nothing is written and -4003 says which
 * version stays. The files and the record change in one transaction.
 */
export async function installPlugin(db: Kysely<DB>, pkg: PluginPackage, locale: Locale): Promise<InstallResult> {
  const { manifest } = pkg;
  const existing = await findPlugin(db, manifest.appid);
  if (existing && comparePluginVersions(manifest.version, existing.version) <= 0) {
    const name = pluginTexts(parseManifest(existing).pluginName);
    throw new AppError(
      Code.RESOURCE_EXIST,
      msg('plugins.installedNotLowerThan', {
        nameZh: name.zh,
        version: existing.version,
        version2: manifest.version,
        nameEn: name.en,
      }),
      { data: { kept: 'installed', version: existing.version, uploadedVersion: manifest.version } },
    );
  }
  const at = now();
  // The column names the plugin for people reading the database; the answers read plugin.json.
  const storedName = pluginText(manifest.pluginName, DEFAULT_LOCALE);
  await db.transaction().execute(async (trx) => {
    for (const [path, body] of pkg.files) {
      await insertPluginFile(trx, { appid: manifest.appid, contentHash: pkg.contentHash, path, body });
    }
    if (existing) {
      await updatePluginRow(trx, manifest.appid, {
        pluginName: storedName,
        version: manifest.version,
        manifest: JSON.stringify(manifest),
        contentHash: pkg.contentHash,
        serverError: null,
        updatedAt: at,
      });
      await deleteOtherFiles(trx, manifest.appid, pkg.contentHash);
    } else {
      await insertPluginRow(trx, {
        appid: manifest.appid,
        pluginName: storedName,
        version: manifest.version,
        manifest: JSON.stringify(manifest),
        contentHash: pkg.contentHash,
        enabled: 0,
        settings: '{}',
        installedAt: at,
        updatedAt: at,
      });
    }
  });
  await bumpCacheVersion(db, PLUGINS_CACHE);
  const row = (await findPlugin(db, manifest.appid))!;
  return { kept: 'uploaded', previousVersion: existing?.version ?? null, item: adminItem(row, locale) };
}

export async function setPluginEnabled(
  db: Kysely<DB>,
  appid: string,
  enabled: boolean,
  serverError: string | null = null,
) {
  const changed = await updatePluginRow(db, appid, { enabled: enabled ? 1 : 0, serverError, updatedAt: now() });
  if (changed === 0) throw pluginNotFound();
  await bumpCacheVersion(db, PLUGINS_CACHE);
}

/** Removes the plugin, its files and its store. */
export async function deletePlugin(db: Kysely<DB>, appid: string): Promise<void> {
  const deleted = await db.transaction().execute(async (trx) => {
    return deletePluginRows(trx, appid);
  });
  if (deleted === 0) throw pluginNotFound();
  await bumpCacheVersion(db, PLUGINS_CACHE);
}

/** Checks settings against the plugin's schema (unknown keys and wrong types refused) and stores them merged. */
export async function savePluginSettings(
  db: Kysely<DB>,
  appid: string,
  values: Record<string, SettingValue>,
  locale: Locale,
): Promise<PluginAdminItem> {
  const row = await findPlugin(db, appid);
  if (!row) throw pluginNotFound();
  const schema = parseManifest(row).settings;
  const next = storedSettings(row);
  for (const [key, value] of Object.entries(values)) {
    const field = schema.find((f) => f.key === key);
    if (!field) {
      throw invalidField(`settings.${key}`, msg('plugins.pluginNoSettingNamed', { key }));
    }
    const label = field.label;
    const wrong = (zh: string, en: string) =>
      invalidField(`settings.${key}`, msg('plugins.message', { labelZh: label.zh, zh, labelEn: label.en, en }));
    switch (field.type) {
      case 'boolean':
        if (typeof value !== 'boolean') throw wrong('需要是开或关', 'must be on or off');
        break;
      case 'number':
        if (typeof value !== 'number' || !Number.isFinite(value)) throw wrong('需要是数字', 'must be a number');
        break;
      case 'color':
        if (typeof value !== 'string' || !/^(#[0-9a-fA-F]{3,8})?$/.test(value)) {
          throw wrong('需要是 #RRGGBB 形式的颜色', 'must be a colour such as #RRGGBB');
        }
        break;
      case 'url':
        if (typeof value !== 'string' || (value !== '' && !/^(https?:\/\/[^\s]+|\/(?![/\\])[^\s]*)$/.test(value))) {
          throw wrong('需要是 http(s) 网址或本站路径', 'must be an http(s) address or a path on this site');
        }
        break;
      default:
        if (typeof value !== 'string') throw wrong('需要是文字', 'must be text');
        if (field.type === 'string' && /[\r\n]/.test(value)) throw wrong('只能有一行', 'must be one line');
    }
    next[key] = value;
  }
  await updatePluginRow(db, appid, { settings: JSON.stringify(next), updatedAt: now() });
  await bumpCacheVersion(db, PLUGINS_CACHE);
  return adminItem((await findPlugin(db, appid))!, locale);
}

/** The enabled plugins that have a server module (the ones that may hear events), oldest first. */
export async function enabledServerPlugins(db: Kysely<DB>): Promise<string[]> {
  const rows = await enabledManifests(db);
  return rows.filter((row) => parseManifest(row).server).map((row) => row.appid);
}

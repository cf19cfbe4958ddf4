import { z } from 'zod';
import {
  PLUGIN_HOOKS,
  PLUGIN_PLATFORMS,
  PLUGIN_TARGETS,
  PLUGIN_VERSION_PATTERN,
  type PluginPlatform,
} from '../constants.js';
import { LOCALES, type Locale } from '../locale.js';
import { problem } from '../validation-messages.js';
import { labeled } from './field-labels.js';

/*
 * Plugins (docs/plugins.md): the registration record a package's plugin.json carries, the hook slots of each target,
 * and the shapes of the plugin calls. The server checks an uploaded package with these schemas; the web app checks
 * each registration again before rendering it (a failure there is a console warning only, as the spec says).
 */

/** An appid: the plugin's id, also its folder and URL segment. */
export const PLUGIN_APPID_PATTERN = /^[a-z0-9][a-z0-9_-]{1,63}$/;
/** A file inside the package: relative, forward slashes, no `..`. */
const PACKAGE_FILE = /^(?!\/)(?!.*(?:^|\/)\.\.(?:\/|$))[A-Za-z0-9._/-]{1,200}$/;
/** An add_page_hook path: /plugin/<appid>/<path>. */
const PAGE_PATH = /^[a-z0-9][a-z0-9/_-]{0,99}$/;

const text = (max: number) => z.string().trim().min(1).max(max);
const sentence = (zh: string, en: string) => problem({ kind: 'sentence', zh, en });

/**
 * A text of plugin.json that people read (its name, its description): one string for every language, as the spec's
 * record and third-party plugins have it, or one per language, `{ "zh": "投票", "en": "Poll" }`, of which one may be
 * left out (the other stands in for it).
 */
export type PluginText = string | { zh?: string; en?: string };

const textPerLanguage = (max: number, label: { zh: string; en: string }) =>
  z
    .object({ zh: text(max).optional(), en: text(max).optional() })
    .refine(
      (v) => v.zh !== undefined || v.en !== undefined,
      sentence(`${label.zh}需要 zh 或 en 的文字`, `${label.en} needs a zh or an en text`),
    );
const NAME_LABEL = { zh: '插件名称', en: 'Plugin name' };
const DESCRIPTION_LABEL = { zh: '插件说明', en: 'Plugin description' };

/** A plugin text in one language: its own, else the other one's (a plain string is every language's). */
export function pluginText(value: PluginText | undefined, locale: Locale): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  return value[locale] ?? LOCALES.map((other) => value[other]).find((t) => t !== undefined) ?? '';
}

/** A plugin text in every language, each falling back as pluginText() does. */
export function pluginTexts(value: PluginText | undefined): Record<Locale, string> {
  return { zh: pluginText(value, 'zh'), en: pluginText(value, 'en') };
}

/** One placement: the component (an export of the client module) rendered in a target's hook slot. */
export const pluginEntrySchema = z
  .object({
    target: labeled(z.enum(PLUGIN_TARGETS), { zh: '插件位置', en: 'Plugin target' }),
    hookName: labeled(text(64), { zh: '钩子名称', en: 'Hook name' }),
    component: labeled(text(64), { zh: '组件', en: 'Component' }),
    /** add_page_hook only: the page's path under /plugin/<appid>/. */
    path: z
      .string()
      .refine(
        (v) => PAGE_PATH.test(v),
        sentence(
          '页面路径只能包含小写字母、数字、-、_ 和 /',
          'A page path may hold lower-case letters, digits, -, _ and / only',
        ),
      )
      .optional(),
  })
  .superRefine((entry, ctx) => {
    const hooks = PLUGIN_HOOKS[entry.target] as readonly string[];
    if (!hooks.includes(entry.hookName)) {
      ctx.addIssue({
        code: 'custom',
        path: ['hookName'],
        ...sentence(
          `位置 ${entry.target} 没有名为 ${entry.hookName} 的钩子（可用：${hooks.join('、') || '无'}）`,
          `Target ${entry.target} has no hook named ${entry.hookName} (it has: ${hooks.join(', ') || 'none'})`,
        ),
      });
    }
    if (entry.hookName === 'add_page_hook' && !entry.path) {
      ctx.addIssue({
        code: 'custom',
        path: ['path'],
        ...sentence('添加页面需要给出 path', 'add_page_hook needs a path'),
      });
    }
  });
export type PluginEntry = z.infer<typeof pluginEntrySchema>;

/** A setting a plugin declares: the back office builds its form from these. */
export const pluginSettingFieldSchema = z.object({
  key: z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/),
  type: z.enum(['string', 'text', 'number', 'boolean', 'color', 'url']),
  label: z.object({ zh: text(60), en: text(60) }),
  default: z.union([z.string().max(2000), z.number(), z.boolean()]).optional(),
  /** public: sent to every page with the plugin list; secret: only the plugin's server part reads it. */
  visibility: z.enum(['public', 'secret']).default('public'),
});
export type PluginSettingField = z.infer<typeof pluginSettingFieldSchema>;

/** plugin.json: the spec's registration record plus where the built files are. */
export const pluginManifestSchema = z.object({
  /** A string, or one per language (`{ zh, en }`). */
  pluginName: labeled(z.union([text(60), textPerLanguage(60, NAME_LABEL)]), NAME_LABEL),
  version: labeled(
    z
      .string()
      .refine(
        (v) => PLUGIN_VERSION_PATTERN.test(v),
        sentence(
          '版本号需要是三段数字，每段 1 到 3 位，例如 1.0.0',
          'The version must be three numbers of 1 to 3 digits, such as 1.0.0',
        ),
      ),
    { zh: '版本号', en: 'Version' },
  ),
  author: labeled(z.object({ name: text(60), email: z.string().trim().max(120) }), { zh: '作者', en: 'Author' }),
  type: labeled(z.union([text(30), z.number().int()]), { zh: '插件类型', en: 'Plugin type' }),
  appid: labeled(
    z
      .string()
      .refine(
        (v) => PLUGIN_APPID_PATTERN.test(v),
        sentence(
          'appid 只能包含小写字母、数字、- 和 _，2 到 64 位',
          'The appid may hold lower-case letters, digits, - and _, 2 to 64 characters',
        ),
      ),
    { zh: '插件 ID', en: 'Plugin id' },
  ),
  platform: labeled(z.array(z.enum(PLUGIN_PLATFORMS)).min(1), { zh: '平台', en: 'Platform' }),
  options: z.record(z.string(), z.unknown()).default({}),
  /** Shown in the back office: a string, or one per language (`{ zh, en }`). */
  description: labeled(
    z.union([z.string().max(500), textPerLanguage(500, DESCRIPTION_LABEL)]),
    DESCRIPTION_LABEL,
  ).optional(),
  settings: z.array(pluginSettingFieldSchema).max(50).default([]),
  entries: labeled(z.array(pluginEntrySchema).min(1).max(50), { zh: '插件入口', en: 'Entries' }),
  /** The browser ES module (a file of the package). */
  client: labeled(z.string().regex(PACKAGE_FILE), { zh: '客户端模块', en: 'Client module' }),
  /** Optional CSS file of the package. */
  style: z.string().regex(PACKAGE_FILE).optional(),
  /** Optional server module (a file of the package): its default export registers the plugin's routes. */
  server: z.string().regex(PACKAGE_FILE).optional(),
});
export type PluginManifest = z.infer<typeof pluginManifestSchema>;

/** GET /api/v3/plugin/list: the enabled plugins for a platform. */
export const pluginListQuery = z.object({ platform: z.enum(PLUGIN_PLATFORMS).default('pc') });

export interface PluginListItem {
  appid: string;
  /** The name in the answer's language (the page's, as every Message is). */
  pluginName: string;
  /** The name in each language, for a page that changes language without reading the list again. */
  pluginNames: Record<Locale, string>;
  version: string;
  type: string | number;
  author: { name: string; email: string };
  platform: PluginPlatform[];
  entries: PluginEntry[];
  /** The client module's URL; the content hash in it changes with every new version (served immutable). */
  moduleUrl: string;
  styleUrl: string | null;
  /** Public settings (secret ones never leave the server). */
  settings: Record<string, string | number | boolean>;
  options: Record<string, unknown>;
}

/** GET /api/v3/plugin/settinginfo */
export const pluginSettingInfoQuery = z.object({ appid: z.string().regex(PLUGIN_APPID_PATTERN) });

/** GET /api/backAdmin/plugin/list */
export interface PluginAdminItem extends PluginListItem {
  enabled: boolean;
  /** In the answer's language; empty when plugin.json has none. */
  description: string;
  /** In each language. */
  descriptions: Record<Locale, string>;
  settingsSchema: PluginSettingField[];
  /** All settings, secret ones included (administrators only). */
  allSettings: Record<string, string | number | boolean>;
  hasServer: boolean;
  /** Why the server part is off (it threw at load), or null. */
  serverError: string | null;
  installedAt: string;
  updatedAt: string;
}

/** POST /api/backAdmin/plugin/operate */
export const pluginOperateBody = z.object({
  appid: z.string().regex(PLUGIN_APPID_PATTERN),
  operate: labeled(z.enum(['enable', 'disable', 'delete']), { zh: '操作', en: 'Operation' }),
});

/** POST /api/backAdmin/plugin/settings */
export const pluginSettingsBody = z.object({
  appid: z.string().regex(PLUGIN_APPID_PATTERN),
  settings: z.record(z.string().max(64), z.union([z.string().max(2000), z.number(), z.boolean()])),
});

import { z } from 'zod';
import { bodyId } from './categories.js';
import { CONTROL_CHARS, noControlCharsInLines } from './common.js';
import { labeled } from './field-labels.js';
import { pageQuery } from './threads.js';

/** Notification channels: 0 in-site, 1 WeChat, 2 SMS, 3 WeCom, 4 mini-program. */
export const NotificationChannel = { SITE: 0, WECHAT: 1, SMS: 2, WECOM: 3, MINI_PROGRAM: 4 } as const;

export const TEMPLATE_TITLE_MAX = 100;
export const TEMPLATE_CONTENT_MAX = 2000;

/** GET /api/notification.v2/tpl: `name` a part of the type name; `typeStatus` 1 (on) or 0 (off) channels only. */
const TYPE_NAME = { zh: '通知类型', en: 'Notification type' };

export const notificationTplListQuery = z.object({
  ...pageQuery,
  name: labeled(z.string().trim().max(64), TYPE_NAME).optional(),
  typeStatus: labeled(z.enum(['0', '1']).transform(Number), { zh: '状态', en: 'Status' }).optional(),
});
export type NotificationTplListQuery = z.infer<typeof notificationTplListQuery>;

/** GET /api/notification.v2/tpl/detail */
export const notificationTplDetailQuery = z.object({ typeName: labeled(z.string().trim().min(1).max(64), TYPE_NAME) });

/** POST /api/backAdmin/notification/tpl/update: only the fields given change. */
export const notificationTplUpdateBody = z.object({
  id: bodyId,
  status: z.union([z.literal(0), z.literal(1)]).optional(),
  title: z.string().trim().min(1).max(TEMPLATE_TITLE_MAX).refine(noControlCharsInLines, CONTROL_CHARS).optional(),
  content: z.string().trim().min(1).max(TEMPLATE_CONTENT_MAX).refine(noControlCharsInLines, CONTROL_CHARS).optional(),
});
export type NotificationTplUpdateBody = z.infer<typeof notificationTplUpdateBody>;

/** One template: a type name on one channel. */
export interface NotificationTplItem {
  id: number;
  typeName: string;
  /** The channel (0 in-site, 1 WeChat, 2 SMS, 3 WeCom, 4 mini-program). */
  type: number;
  status: number;
  title: string;
  content: string;
  /** The placeholders the title and content may use, with what each stands for: {"{username}": "用户名"}. */
  vars: Record<string, string>;
}

/** A row of the list: a type name with the state of each of its channels. */
export interface NotificationTplGroup {
  name: string;
  typeStatus: { id: number; type: number; status: number; title: string }[];
}

/**
 * Fills a template's `{placeholders}` from `variables` (keys without braces: {username: '张三'}). A placeholder
 * without a value becomes empty text. The same function serves the back office's preview and the server.
 */
export function renderTemplate(
  template: { title: string; content: string },
  variables: Readonly<Record<string, string | number>>,
): { title: string; content: string } {
  const fill = (text: string) =>
    text.replace(/\{([a-z_]+)\}/g, (_all, name: string) =>
      Object.prototype.hasOwnProperty.call(variables, name) ? String(variables[name]) : '',
    );
  return { title: fill(template.title), content: fill(template.content) };
}

/** The placeholders a text uses, with braces: ['{username}', ...]. */
export function templatePlaceholders(text: string): string[] {
  return [...new Set(text.match(/\{[a-z_]+\}/g) ?? [])];
}

import {
  NOTIFICATION_TYPES,
  NotificationChannel,
  renderTemplate,
  templatePlaceholders,
  type NotificationTplGroup,
  type NotificationTplItem,
  type NotificationTplListQuery,
  type NotificationTplUpdateBody,
  type NotificationCategoryValue,
  type NotificationType,
  type Page,
} from '@luntan/shared';
import type { Kysely, Updateable } from 'kysely';
import { invalidField, notFoundField } from '../../core/errors.js';
import { now } from '../../core/time.js';
import type { DB, NotificationTpl, NotificationTplsTable } from '../../db/schema.js';
import { NOTICE_TYPE_BY_KEY, TYPE_NAME_BY_KEY } from './default-templates.js';
import {
  findTemplate,
  findTemplateByType,
  templatesOf,
  typeNamesPage,
  updateTemplate,
} from './notification-templates.repository.js';
import { msg } from '../../i18n/index.js';

const parseVars = (vars: string): Record<string, string> => {
  try {
    return JSON.parse(vars) as Record<string, string>;
  } catch {
    return {};
  }
};

function presentTemplate(t: NotificationTpl): NotificationTplItem {
  return {
    id: t.id,
    typeName: t.typeName,
    type: t.type,
    status: t.status,
    title: t.title,
    content: t.content,
    vars: parseVars(t.vars),
  };
}

export async function listTemplateGroups(
  db: Kysely<DB>,
  q: NotificationTplListQuery,
): Promise<Page<NotificationTplGroup>> {
  const filter = { name: q.name, status: q.typeStatus };
  const { total, typeNames } = await typeNamesPage(db, filter, (q.page - 1) * q.perPage, q.perPage);
  const rows = await templatesOf(db, typeNames, filter);
  return {
    pageData: typeNames.map((name) => ({
      name,
      typeStatus: rows
        .filter((r) => r.typeName === name)
        .map((r) => ({ id: r.id, type: r.type, status: r.status, title: r.title })),
    })),
    currentPage: q.page,
    perPage: q.perPage,
    totalCount: total,
    totalPage: Math.ceil(total / q.perPage),
  };
}

export async function templateDetail(db: Kysely<DB>, typeName: string): Promise<NotificationTplItem[]> {
  const rows = await templatesOf(db, [typeName]);
  if (rows.length === 0) {
    throw notFoundField('typeName', msg('notificationTemplates.noSuchNotificationType'));
  }
  return rows.map(presentTemplate);
}

/** Changes a template; its title and content may use only the placeholders of its type. */
export async function updateTemplateById(
  db: Kysely<DB>,
  body: NotificationTplUpdateBody,
): Promise<NotificationTplItem> {
  const current = await findTemplate(db, body.id);
  if (!current) throw notFoundField('id', msg('notificationTemplates.noSuchTemplate'));
  const allowed = Object.keys(parseVars(current.vars));
  for (const field of ['title', 'content'] as const) {
    const text = body[field];
    if (text === undefined) continue;
    const unknown = templatePlaceholders(text).find((p) => !allowed.includes(p));
    if (unknown) {
      throw invalidField(
        field,
        msg(
          field === 'title'
            ? 'notificationTemplates.titleUnknownPlaceholder'
            : 'notificationTemplates.contentUnknownPlaceholder',
          {
            unknown,
            available: allowed.join(' '),
          },
        ),
      );
    }
  }
  const changes: Updateable<NotificationTplsTable> = { updatedAt: now() };
  if (body.status !== undefined) changes.status = body.status;
  if (body.title !== undefined) changes.title = body.title;
  if (body.content !== undefined) changes.content = body.content;
  await updateTemplate(db, body.id, changes);
  return presentTemplate((await findTemplate(db, body.id))!);
}

/**
 * The text of a notification: the template of a type (its code key such as 'post.replied', or its type name) on a
 * channel (in-site by default), filled with `variables`. Null when the template is missing or switched off, in
 * which case nothing is to be sent on that channel.
 */
export async function renderNotification(
  db: Kysely<DB>,
  type: string,
  variables: Readonly<Record<string, string | number>>,
  channel: number = NotificationChannel.SITE,
): Promise<{ title: string; content: string } | null> {
  const tpl = await findTemplateByType(db, TYPE_NAME_BY_KEY.get(type) ?? type, channel);
  if (!tpl || tpl.status !== 1) return null;
  return renderTemplate(tpl, variables);
}

/**
 * An in-site notice of a code-level type ('post.liked'): the message centre's type and tab, and the template's
 * text filled with `variables`. Null when the template is switched off (or the key unknown): nothing is sent.
 */
export async function renderNotice(
  db: Kysely<DB>,
  key: string,
  variables: Readonly<Record<string, string | number>>,
): Promise<{ type: NotificationType; category: NotificationCategoryValue; title: string; content: string } | null> {
  const type = NOTICE_TYPE_BY_KEY.get(key);
  if (!type) return null;
  const text = await renderNotification(db, key, variables);
  return text && { type, category: NOTIFICATION_TYPES[type], ...text };
}

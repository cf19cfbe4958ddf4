import {
  renderTemplate,
  TEMPLATE_CONTENT_MAX,
  TEMPLATE_TITLE_MAX,
  type NotificationTplGroup,
  type NotificationTplItem,
  type Page,
} from '@luntan/shared';
import { useState, type FormEvent } from 'react';
import { useTranslation } from '../i18n/use-translation';
import { useSearchParams } from 'react-router';
import { positiveInt } from '../api/forum-queries';
import { Pager } from '../components/forum/pager';
import { Button, Spinner, Textarea, TextInput } from '../components/ui';
import type { RouteHandle } from '../routing/handle';
import { adminCall, useAdminQuery, useAdminRefresh } from './admin-api';
import { AdminSection } from './admin-ui';
import { adminApi } from '../api/admin-client';

export const handle: RouteHandle = { title: (t) => t('admin.section.templates') };

const CHANNELS = ['site', 'wechat', 'sms', 'wecom', 'mini'] as const;

/** Sample values for the preview: each placeholder shows what it stands for. */
export function sampleVariables(vars: Record<string, string>): Record<string, string> {
  const sample: Record<string, string> = {};
  for (const [placeholder, meaning] of Object.entries(vars))
    sample[placeholder.replace(/[{}]/g, '')] = `【${meaning}】`;
  return sample;
}

function TemplateEditor({ template }: { template: NotificationTplItem }) {
  const { t } = useTranslation();
  const refresh = useAdminRefresh();
  const [title, setTitle] = useState(template.title);
  const [content, setContent] = useState(template.content);
  const [on, setOn] = useState(template.status === 1);
  const preview = renderTemplate({ title, content }, sampleVariables(template.vars));
  const save = async (event: FormEvent) => {
    event.preventDefault();
    const body = { id: template.id, title, content, status: on ? 1 : 0 };
    if (await adminCall('POST', adminApi.templates.update, body, t('admin.saved'))) await refresh('templates');
  };
  return (
    <form className="lt-admin-form lt-review-item" onSubmit={(e) => void save(e)} data-testid="template-editor">
      <strong>{t(`admin.templates.channel.${CHANNELS[template.type] ?? 'site'}`)}</strong>
      <label className="lt-check">
        <input type="checkbox" checked={on} onChange={(e) => setOn(e.target.checked)} />
        {t('admin.templates.enabled')}
      </label>
      <TextInput label={t('admin.templates.title')} value={title} onChange={setTitle} maxLength={TEMPLATE_TITLE_MAX} />
      <Textarea
        label={t('admin.templates.content')}
        value={content}
        onChange={setContent}
        rows={4}
        maxLength={TEMPLATE_CONTENT_MAX}
      />
      <p className="lt-empty--small">
        {t('admin.templates.vars')}{' '}
        {Object.entries(template.vars)
          .map(([placeholder, meaning]) => `${placeholder} ${meaning}`)
          .join('，')}
      </p>
      <div className="lt-card" data-testid="template-preview">
        <strong>{t('admin.templates.preview')}</strong>
        <p>{preview.title}</p>
        <p className="lt-empty--small">{preview.content}</p>
      </div>
      <div className="lt-admin-form__actions">
        <Button type="primary" htmlType="submit" data-testid="template-save">
          {t('admin.save')}
        </Button>
      </div>
    </form>
  );
}

function TemplateDetail({ typeName }: { typeName: string }) {
  const detail = useAdminQuery<NotificationTplItem[]>(['templates', 'detail', typeName], adminApi.templates.detail, {
    typeName,
  });
  if (detail.error) return <p className="lt-empty">{detail.error}</p>;
  if (!detail.data) return <Spinner />;
  return (
    <>
      {detail.data.map((template) => (
        <TemplateEditor
          key={`${template.id}:${template.title}:${template.content}:${template.status}`}
          template={template}
        />
      ))}
    </>
  );
}

/** Notification templates: the family's types, one row per type with its channels; edit, preview, switch on or off. */
export function Component() {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const page = positiveInt(search.get('page'), 1);
  const name = search.get('name') ?? '';
  const [draft, setDraft] = useState(name);
  const [open, setOpen] = useState<string | null>(null);
  const list = useAdminQuery<Page<NotificationTplGroup>>(['templates', page, name], adminApi.templates.list, {
    page,
    perPage: 30,
    ...(name ? { name } : {}),
  });
  return (
    <AdminSection name="templates" title={t('admin.section.templates')}>
      <form
        className="lt-toolbar"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          setSearch(draft.trim() ? { name: draft.trim() } : {});
        }}
      >
        <TextInput name="name" label={t('admin.templates.search')} value={draft} onChange={setDraft} maxLength={64} />
        <Button htmlType="submit">{t('admin.users.searchButton')}</Button>
      </form>
      {list.error ? <p className="lt-empty">{list.error}</p> : null}
      {!list.data ? <Spinner /> : null}
      {list.data?.pageData.map((group) => (
        <div key={group.name} data-testid="template-row">
          <div className="lt-toolbar">
            <strong>{group.name}</strong>
            <span className="lt-table__actions">
              {group.typeStatus.map((channel) => (
                <span
                  key={channel.id}
                  className={`lt-tag ${channel.status === 1 ? 'lt-tag--sticky' : 'lt-tag--review'}`}
                >
                  {t(`admin.templates.channel.${CHANNELS[channel.type] ?? 'site'}`)}·
                  {channel.status === 1 ? t('admin.templates.on') : t('admin.templates.off')}
                </span>
              ))}
              <Button
                size="small"
                aria-expanded={open === group.name}
                onClick={() => setOpen(open === group.name ? null : group.name)}
              >
                {t('admin.templates.edit')}
              </Button>
            </span>
          </div>
          {open === group.name ? <TemplateDetail typeName={group.name} /> : null}
        </div>
      ))}
      {list.data ? <Pager current={list.data.currentPage} total={list.data.totalPage} /> : null}
    </AdminSection>
  );
}

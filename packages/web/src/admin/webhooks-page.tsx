import {
  WEBHOOK_EVENT_NAMES,
  type DomainEventName,
  type WebhookDeliveryItem,
  type WebhookDeliveryStatus,
  type WebhookItem,
} from '@luntan/shared';
import { useState, type FormEvent } from 'react';
import { TimeText } from '../components/forum/time-text';
import { Button, Dialog, TextInput } from '../components/ui';
import { useTranslation } from '../i18n/use-translation';
import type { RouteHandle } from '../routing/handle';
import { adminCall, useAdminQuery, useAdminRefresh } from './admin-api';
import { AdminSection, useConfirmDelete } from './admin-ui';
import { AdminTable } from './admin-table';
import { adminApi } from '../api/admin-client';

export const handle: RouteHandle = { title: (t) => t('admin.section.webhooks') };

/** The events grouped by what they are about (the part before the first dot). */
const EVENT_GROUPS = [
  'user',
  'thread',
  'post',
  'dialog',
  'order',
  'payment',
  'red_packet',
  'bounty',
  'withdrawal',
  'report',
  'stop_words',
  'notification',
] as const;
type EventGroup = (typeof EVENT_GROUPS)[number];
/** Every event a hook may pick falls in a group (a new kind of event needs its group here, or this fails to compile). */
type GroupOf<N> = N extends `${infer G}.${string}` ? G : never;
const everyEventGrouped: [Exclude<GroupOf<DomainEventName>, EventGroup>] extends [never] ? true : false = true;
void everyEventGrouped;
const eventsOf = (group: EventGroup): DomainEventName[] =>
  WEBHOOK_EVENT_NAMES.filter((name) => name.split('.')[0] === group);

interface Draft {
  url: string;
  secret: string;
  events: DomainEventName[];
  enabled: boolean;
}
const EMPTY: Draft = { url: '', secret: '', events: ['post.created', 'thread.created'], enabled: true };

function StatusText({ status }: { status: WebhookDeliveryStatus | null }) {
  const { t } = useTranslation();
  if (!status) return <span className="lt-empty--small">{t('admin.webhooks.never')}</span>;
  return (
    <span className={`lt-admin-webhooks__status lt-admin-webhooks__status--${status}`} data-status={status}>
      {t(`admin.webhooks.status.${status}`)}
    </span>
  );
}

/** Add or edit a hook, in a dialog; the secret is never shown back (left empty, the stored one stays). */
function WebhookDialog({ editing, onClose }: { editing: WebhookItem | 'new'; onClose: () => void }) {
  const { t } = useTranslation();
  const refresh = useAdminRefresh();
  const [draft, setDraft] = useState<Draft>(
    editing === 'new' ? EMPTY : { url: editing.url, secret: '', events: editing.events, enabled: editing.enabled },
  );
  const [saving, setSaving] = useState(false);
  const toggle = (name: DomainEventName, on: boolean) =>
    setDraft((d) => ({ ...d, events: on ? [...d.events, name] : d.events.filter((e) => e !== name) }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    const body = { url: draft.url.trim(), events: draft.events, enabled: draft.enabled };
    const saved =
      editing === 'new'
        ? await adminCall('POST', adminApi.webhooks.save, { ...body, secret: draft.secret }, t('admin.saved'))
        : await adminCall(
            'POST',
            adminApi.webhooks.update,
            { ...body, id: editing.id, ...(draft.secret ? { secret: draft.secret } : {}) },
            t('admin.saved'),
          );
    setSaving(false);
    if (!saved) return;
    await refresh('webhooks');
    onClose();
  };

  return (
    <Dialog
      open
      className="lt-admin-webhooks__dialog"
      title={editing === 'new' ? t('admin.webhooks.add') : t('admin.webhooks.edit')}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>{t('admin.cancel')}</Button>
          <Button type="primary" htmlType="submit" form="webhook-form" loading={saving} data-testid="webhook-save">
            {t('admin.webhooks.save')}
          </Button>
        </>
      }
    >
      <form id="webhook-form" className="lt-admin-form lt-admin-webhooks__form" onSubmit={(e) => void submit(e)}>
        <TextInput
          name="url"
          label={t('admin.webhooks.url')}
          placeholder="https://example.com/luntan-hook"
          value={draft.url}
          onChange={(url) => setDraft((d) => ({ ...d, url }))}
        />
        <TextInput
          name="secret"
          mode="password"
          autoComplete="new-password"
          label={t('admin.webhooks.secret')}
          placeholder={editing === 'new' ? t('admin.webhooks.secretHint') : t('admin.webhooks.secretKept')}
          value={draft.secret}
          onChange={(secret) => setDraft((d) => ({ ...d, secret }))}
        />
        <fieldset className="lt-admin-webhooks__events">
          <legend>{t('admin.webhooks.events')}</legend>
          {EVENT_GROUPS.map((group) => (
            <div key={group} className="lt-admin-webhooks__group">
              <h3 className="lt-admin-webhooks__group-title">{t(`admin.webhooks.group.${group}`)}</h3>
              {eventsOf(group).map((name) => (
                <label key={name} className="lt-check">
                  <input
                    type="checkbox"
                    name="events"
                    value={name}
                    checked={draft.events.includes(name)}
                    onChange={(e) => toggle(name, e.target.checked)}
                  />
                  <code>{name}</code>
                </label>
              ))}
            </div>
          ))}
        </fieldset>
        <label className="lt-check">
          <input
            type="checkbox"
            name="enabled"
            checked={draft.enabled}
            onChange={(e) => setDraft((d) => ({ ...d, enabled: e.target.checked }))}
          />
          {t('admin.webhooks.enabled')}
        </label>
        <p className="lt-settings__hint">{t('admin.webhooks.signatureHint')}</p>
      </form>
    </Dialog>
  );
}

/** A hook's recent deliveries, newest first, in a dialog. */
function DeliveriesDialog({ hook, onClose }: { hook: WebhookItem; onClose: () => void }) {
  const { t } = useTranslation();
  const list = useAdminQuery<WebhookDeliveryItem[]>(['webhooks', hook.id], adminApi.webhooks.deliveries, {
    id: hook.id,
  });
  return (
    <Dialog
      open
      className="lt-admin-webhooks__dialog"
      title={t('admin.webhooks.deliveriesOf', { url: hook.url })}
      onClose={onClose}
      footer={<Button onClick={onClose}>{t('admin.webhooks.close')}</Button>}
    >
      <AdminTable
        label={t('admin.webhooks.deliveries')}
        testId="webhook-deliveries"
        columns={[
          { key: 'event', header: t('admin.webhooks.event') },
          { key: 'status', header: t('admin.webhooks.statusLabel') },
          { key: 'attempts', header: t('admin.webhooks.attempts') },
          { key: 'answer', header: t('admin.webhooks.answer') },
          { key: 'time', header: t('admin.webhooks.time') },
        ]}
        rows={list.data}
        error={list.error}
        empty={t('admin.webhooks.noDeliveries')}
        row={(d) => (
          <tr key={d.id} data-testid="webhook-delivery-row">
            <td>
              <code>{d.event}</code>
            </td>
            <td>
              <StatusText status={d.status} />
            </td>
            <td>{d.attempts}</td>
            <td className="lt-admin-webhooks__answer">
              {d.error ?? (d.responseStatus ? `HTTP ${d.responseStatus}` : '')}
              {d.durationMs !== null ? <div className="lt-empty--small">{d.durationMs} ms</div> : null}
            </td>
            <td>
              <TimeText iso={d.updatedAt} />
            </td>
          </tr>
        )}
      />
    </Dialog>
  );
}

function WebhookRow({
  hook,
  onEdit,
  onDeliveries,
}: {
  hook: WebhookItem;
  onEdit: () => void;
  onDeliveries: () => void;
}) {
  const { t } = useTranslation();
  const refresh = useAdminRefresh();
  const { confirmDelete, dialog } = useConfirmDelete();
  const ping = async () => {
    if (await adminCall('POST', adminApi.webhooks.ping, { id: hook.id }, t('admin.webhooks.pinged'))) {
      await refresh('webhooks');
    }
  };
  const remove = async () => {
    if (!(await confirmDelete(t('admin.webhooks.confirmDelete', { url: hook.url })))) return;
    if (await adminCall('POST', adminApi.webhooks.delete, { id: hook.id }, t('admin.deleted'))) {
      await refresh('webhooks');
    }
  };
  return (
    <tr data-testid="webhook-row">
      <td>
        <div className="lt-admin-webhooks__url">{hook.url}</div>
        <div className="lt-empty--small">{hook.enabled ? t('admin.webhooks.on') : t('admin.webhooks.off')}</div>
      </td>
      <td>
        <div className="lt-admin-webhooks__event-list">
          {hook.events.map((e) => (
            <code key={e}>{e}</code>
          ))}
        </div>
      </td>
      <td>
        <StatusText status={hook.lastStatus} />
      </td>
      <td className="lt-table__end">
        <div className="lt-toolbar">
          <Button size="small" onClick={onEdit} data-testid="webhook-edit">
            {t('admin.webhooks.editButton')}
          </Button>
          <Button size="small" onClick={() => void ping()} data-testid="webhook-ping">
            {t('admin.webhooks.ping')}
          </Button>
          <Button size="small" onClick={onDeliveries} data-testid="webhook-deliveries-button">
            {t('admin.webhooks.deliveries')}
          </Button>
          <Button size="small" type="text" onClick={() => void remove()} data-testid="webhook-delete">
            {t('admin.delete')}
          </Button>
        </div>
        {dialog}
      </td>
    </tr>
  );
}

/** Webhooks: other services told what happens here (list, add, edit, test, recent deliveries, delete). */
export function Component() {
  const { t } = useTranslation();
  const list = useAdminQuery<WebhookItem[]>(['webhooks'], adminApi.webhooks.list);
  const [editing, setEditing] = useState<WebhookItem | 'new' | null>(null);
  const [viewing, setViewing] = useState<WebhookItem | null>(null);
  return (
    <AdminSection name="webhooks" title={t('admin.section.webhooks')}>
      <p className="lt-settings__hint">{t('admin.webhooks.intro')}</p>
      <div className="lt-toolbar">
        <Button type="primary" onClick={() => setEditing('new')} data-testid="webhook-add">
          {t('admin.webhooks.add')}
        </Button>
      </div>
      <AdminTable
        label={t('admin.section.webhooks')}
        columns={[
          { key: 'url', header: t('admin.webhooks.url') },
          { key: 'events', header: t('admin.webhooks.events') },
          { key: 'status', header: t('admin.webhooks.lastStatus') },
          { key: 'actions', header: t('admin.actions'), end: true },
        ]}
        rows={list.data}
        error={list.error}
        row={(hook) => (
          <WebhookRow
            key={`${hook.id}:${hook.updatedAt}`}
            hook={hook}
            onEdit={() => setEditing(hook)}
            onDeliveries={() => setViewing(hook)}
          />
        )}
      />
      {editing ? <WebhookDialog editing={editing} onClose={() => setEditing(null)} /> : null}
      {viewing ? <DeliveriesDialog hook={viewing} onClose={() => setViewing(null)} /> : null}
    </AdminSection>
  );
}

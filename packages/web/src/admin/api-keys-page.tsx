import { API_KEY_SCOPES, type ApiKeyCreated, type ApiKeyItem, type ApiKeyScope } from '@luntan/shared';
import { startTransition, useEffect, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { adminApi } from '../api/admin-client';
import { isSuccess, request } from '../api/dispatcher';
import { TimeText } from '../components/forum/time-text';
import { Button, Dialog, TextInput, toast, useConfirm } from '../components/ui';
import { useTranslation } from '../i18n/use-translation';
import type { RouteHandle } from '../routing/handle';
import { useAdminQuery, useAdminRefresh } from './admin-api';
import { AdminSection } from './admin-ui';
import { AdminTable } from './admin-table';
import './api-keys-page.css';

export const handle: RouteHandle = { title: (t) => t('admin.section.apiKeys') };

/** What the help card writes for a key: never a real one. */
const KEY_SAMPLE = 'lt_…';

/**
 * A write whose refusal the page shows itself, in the server's words. The shared handler is left out: it would take a
 * -4004 (no such member, a key already gone) to the not-found page.
 */
async function send<T>(
  method: 'POST' | 'DELETE',
  url: string,
  data?: unknown,
): Promise<{ data: T } | { error: string }> {
  // A DELETE goes without a body, so with no JSON content type (Fastify refuses an empty JSON body).
  const result = await request<T>({ url, method, data, handleError: false });
  return isSuccess(result) ? { data: result.Data } : { error: result.Message };
}

/** The site's own address once the page runs (the server's HTML has a stand-in, so hydration matches). */
function useOrigin(): string {
  const [origin, setOrigin] = useState('https://your.site');
  useEffect(() => {
    startTransition(() => setOrigin(window.location.origin));
  }, []);
  return origin;
}

/** The key just made, shown this once: a warning, the key with a copy button; only the button closes it. */
function CreatedKeyDialog({ created, onClose }: { created: ApiKeyCreated; onClose: () => void }) {
  const { t } = useTranslation();
  const secret = useRef<HTMLElement>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.key);
      toast.success(t('admin.apiKeys.created.copied'));
    } catch {
      // No clipboard (an insecure address, a refused permission): the key selected, for the keyboard's copy.
      if (secret.current) window.getSelection()?.selectAllChildren(secret.current);
      toast.info(t('admin.apiKeys.created.copyFailed'));
    }
  };
  return (
    <Dialog
      open
      className="lt-admin-apikeys__dialog"
      title={t('admin.apiKeys.created.title', { name: created.name })}
      // Escape or a stray click on the backdrop must not lose a key that cannot be shown again.
      onClose={() => undefined}
      footer={
        <Button type="primary" onClick={onClose} data-testid="apikey-created-close">
          {t('admin.apiKeys.created.close')}
        </Button>
      }
    >
      <p className="lt-admin-apikeys__warning" role="alert" data-testid="apikey-created-warning">
        {t('admin.apiKeys.created.warning')}
      </p>
      <div className="lt-admin-apikeys__secret">
        <span id="apikey-secret-label" className="lt-field__label">
          {t('admin.apiKeys.created.key')}
        </span>
        <div className="lt-admin-apikeys__secret-row">
          {/* Text rather than a box: a phone shows the whole key on two lines; a click selects all of it. */}
          <code ref={secret} className="lt-admin-apikeys__secret-key" data-testid="apikey-secret">
            {created.key}
          </code>
          <Button type="primary" onClick={() => void copy()} data-testid="apikey-copy">
            {t('admin.apiKeys.created.copy')}
          </Button>
        </div>
      </div>
      <p className="lt-hint">
        {t(`admin.apiKeys.scope.${created.scope}`)} · {created.nickname} (ID {created.userId})
      </p>
    </Dialog>
  );
}

/** Name, scope (each one explained) and, maybe, the member the key acts as; the server checks the values. */
function CreateKeyForm({ onCreated }: { onCreated: (created: ApiKeyCreated) => void }) {
  const { t } = useTranslation();
  const refresh = useAdminRefresh();
  const [name, setName] = useState('');
  const [scope, setScope] = useState<ApiKeyScope>('read');
  const [userId, setUserId] = useState('');
  const [pending, setPending] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setPending(true);
    setRefusal(null);
    // Sent as typed (a name of spaces, an id that is not one): the server's message names what is wrong.
    const body = { name, scope, ...(userId.trim() === '' ? {} : { userId: Number(userId) }) };
    const sent = await send<ApiKeyCreated>('POST', adminApi.apiKeys.create, body);
    setPending(false);
    if ('error' in sent) {
      setRefusal(sent.error);
      return;
    }
    setName('');
    setUserId('');
    onCreated(sent.data);
    await refresh('apiKeys');
  };

  return (
    <form
      className="lt-admin-form lt-admin-apikeys__form"
      onSubmit={(e) => void submit(e)}
      aria-labelledby="apikey-create-title"
      data-testid="apikey-form"
    >
      <h2 id="apikey-create-title" className="lt-card__title">
        {t('admin.apiKeys.create.title')}
      </h2>
      <div className="lt-admin-form__row lt-admin-apikeys__fields">
        <TextInput
          name="name"
          label={t('admin.apiKeys.create.name')}
          placeholder={t('admin.apiKeys.create.namePlaceholder')}
          maxLength={100}
          autoComplete="off"
          value={name}
          onChange={(value) => {
            setName(value);
            setRefusal(null);
          }}
        />
        <div className="lt-field">
          <label className="lt-field__label" htmlFor="apikey-scope">
            {t('admin.apiKeys.create.scope')}
          </label>
          <select
            id="apikey-scope"
            name="scope"
            className="lt-select"
            value={scope}
            aria-describedby="apikey-scopes"
            onChange={(e) => {
              setScope(e.target.value as ApiKeyScope);
              setRefusal(null);
            }}
          >
            {API_KEY_SCOPES.map((s) => (
              <option key={s} value={s}>
                {t(`admin.apiKeys.scopeOption.${s}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="lt-admin-apikeys__acts-as">
          <TextInput
            name="userId"
            mode="number"
            label={t('admin.apiKeys.create.actsAs')}
            placeholder={t('admin.apiKeys.create.actsAsPlaceholder')}
            autoComplete="off"
            aria-describedby="apikey-acts-as-hint"
            value={userId}
            onChange={(value) => {
              setUserId(value);
              setRefusal(null);
            }}
          />
          <p id="apikey-acts-as-hint" className="lt-hint">
            {t('admin.apiKeys.create.actsAsHint')} <Link to="/admin/users">{t('admin.section.users')}</Link>
          </p>
        </div>
      </div>
      <ul id="apikey-scopes" className="lt-admin-apikeys__scopes" data-testid="apikey-scopes">
        {API_KEY_SCOPES.map((s) => (
          <li key={s} className={s === scope ? 'lt-admin-apikeys__scope--chosen' : undefined}>
            <strong>{t(`admin.apiKeys.scope.${s}`)}</strong>
            <span>{t(`admin.apiKeys.scopeHint.${s}`)}</span>
          </li>
        ))}
      </ul>
      <div className="lt-admin-form__actions lt-admin-apikeys__actions">
        {refusal ? (
          <p className="lt-admin-apikeys__refusal" role="alert" data-testid="apikey-error">
            {refusal}
          </p>
        ) : null}
        <Button type="primary" htmlType="submit" loading={pending} data-testid="apikey-create">
          {t('admin.apiKeys.create.submit')}
        </Button>
      </div>
    </form>
  );
}

function ApiKeyRow({ item }: { item: ApiKeyItem }) {
  const { t } = useTranslation();
  const refresh = useAdminRefresh();
  const { confirm, dialog } = useConfirm();
  const [revoking, setRevoking] = useState(false);
  const column = (key: 'key' | 'scope' | 'actsAs' | 'created' | 'lastUsed' | 'status') =>
    t(`admin.apiKeys.column.${key}`);
  const revoked = item.revokedAt !== null;

  const revoke = async () => {
    const asked = await confirm({
      title: t('admin.apiKeys.confirmRevokeTitle'),
      message: t('admin.apiKeys.confirmRevoke', { name: item.name, prefix: item.keyPrefix }),
      confirmText: t('admin.apiKeys.revoke'),
      cancelText: t('admin.cancel'),
      danger: true,
    });
    if (!asked) return;
    setRevoking(true);
    const sent = await send<ApiKeyItem>('DELETE', adminApi.apiKeys.revoke(item.id));
    setRevoking(false);
    if ('error' in sent) toast.error(sent.error);
    else toast.success(t('admin.apiKeys.revokedToast'));
    await refresh('apiKeys');
  };

  return (
    <tr
      className={revoked ? 'lt-admin-apikeys__row--revoked' : undefined}
      data-testid="apikey-row"
      data-apikey-id={item.id}
      data-status={revoked ? 'revoked' : 'active'}
    >
      <td className="lt-admin-apikeys__name">{item.name}</td>
      <td data-label={column('key')}>
        <code className="lt-admin-apikeys__prefix">{item.keyPrefix}…</code>
      </td>
      <td data-label={column('scope')} title={t(`admin.apiKeys.scopeHint.${item.scope}`)}>
        {t(`admin.apiKeys.scope.${item.scope}`)}
      </td>
      <td data-label={column('actsAs')} data-testid="apikey-acts-as">
        {item.nickname}
        <span className="lt-hint"> ID {item.userId}</span>
      </td>
      <td data-label={column('created')}>
        <TimeText iso={item.createdAt} />
      </td>
      <td data-label={column('lastUsed')} data-testid="apikey-last-used">
        {item.lastUsedAt ? (
          <TimeText iso={item.lastUsedAt} />
        ) : (
          <span className="lt-hint">{t('admin.apiKeys.never')}</span>
        )}
      </td>
      <td data-label={column('status')} data-testid="apikey-status">
        <span className={`lt-admin-apikeys__status lt-admin-apikeys__status--${revoked ? 'revoked' : 'active'}`}>
          {t(`admin.apiKeys.status.${revoked ? 'revoked' : 'active'}`)}
        </span>
        {item.revokedAt ? (
          <span className="lt-hint">
            {' '}
            <TimeText iso={item.revokedAt} />
          </span>
        ) : null}
      </td>
      <td className="lt-table__end">
        {revoked ? null : (
          <div className="lt-table__actions">
            <Button
              size="small"
              type="danger"
              loading={revoking}
              onClick={() => void revoke()}
              data-testid="apikey-revoke"
            >
              {t('admin.apiKeys.revoke')}
            </Button>
          </div>
        )}
        {dialog}
      </td>
    </tr>
  );
}

/** How a program sends a key, its budget of requests, and where every call is described. */
function UsageHelp() {
  const { t } = useTranslation();
  const origin = useOrigin();
  return (
    <section className="lt-card lt-admin-apikeys__help" aria-labelledby="apikey-help-title" data-testid="apikey-help">
      <h2 id="apikey-help-title" className="lt-card__title">
        {t('admin.apiKeys.help.title')}
      </h2>
      <p>{t('admin.apiKeys.help.header')}</p>
      <pre>
        <code>{`Authorization: Bearer ${KEY_SAMPLE}`}</code>
      </pre>
      <p>{t('admin.apiKeys.help.example')}</p>
      <pre>
        <code data-testid="apikey-curl">{`curl -H "Authorization: Bearer ${KEY_SAMPLE}" ${origin}/api/v3/thread.list`}</code>
      </pre>
      <p>{t('admin.apiKeys.help.rateLimit', { variable: 'RATE_LIMIT_API_KEY' })}</p>
      <p>{t('admin.apiKeys.help.errors')}</p>
      <p>
        {t('admin.apiKeys.help.docs')}{' '}
        <a href="/api/docs" target="_blank" rel="noreferrer" data-testid="apikey-docs">
          /api/docs
        </a>
      </p>
    </section>
  );
}

/** API keys: make one (shown once), the list with last use, revoke; how programs send them. */
export function Component() {
  const { t } = useTranslation();
  const list = useAdminQuery<ApiKeyItem[]>(['apiKeys'], adminApi.apiKeys.list);
  const [created, setCreated] = useState<ApiKeyCreated | null>(null);
  return (
    <>
      <AdminSection name="apikeys" title={t('admin.section.apiKeys')}>
        <p className="lt-admin-apikeys__intro">{t('admin.apiKeys.intro')}</p>
        <CreateKeyForm onCreated={setCreated} />
      </AdminSection>
      <section className="lt-card" aria-labelledby="apikey-list-title">
        <h2 id="apikey-list-title" className="lt-card__title">
          {t('admin.apiKeys.listTitle')}
        </h2>
        <AdminTable
          label={t('admin.apiKeys.listTitle')}
          className="lt-admin-apikeys"
          testId="apikey-table"
          stack
          columns={[
            { key: 'name', header: t('admin.apiKeys.column.name') },
            { key: 'key', header: t('admin.apiKeys.column.key') },
            { key: 'scope', header: t('admin.apiKeys.column.scope') },
            { key: 'actsAs', header: t('admin.apiKeys.column.actsAs') },
            { key: 'created', header: t('admin.apiKeys.column.created') },
            { key: 'lastUsed', header: t('admin.apiKeys.column.lastUsed') },
            { key: 'status', header: t('admin.apiKeys.column.status') },
            { key: 'actions', header: t('admin.actions'), end: true },
          ]}
          rows={list.data}
          error={list.error}
          empty={t('admin.apiKeys.empty')}
          row={(item) => <ApiKeyRow key={`${item.id}:${item.revokedAt ?? ''}`} item={item} />}
        />
      </section>
      <UsageHelp />
      {created ? <CreatedKeyDialog created={created} onClose={() => setCreated(null)} /> : null}
    </>
  );
}

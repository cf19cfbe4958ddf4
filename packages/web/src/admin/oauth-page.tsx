import type { OauthProviderAdminItem } from '@luntan/shared';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from '../i18n/use-translation';
import { Button, Spinner, TextInput } from '../components/ui';
import type { RouteHandle } from '../routing/handle';
import { adminCall, useAdminQuery, useAdminRefresh } from './admin-api';
import { AdminSection, useConfirmDelete } from './admin-ui';
import { AdminTable } from './admin-table';
import { adminApi } from '../api/admin-client';
import { useSettingsForm } from './use-settings-form';

export const handle: RouteHandle = { title: (t) => t('admin.section.oauth') };

const EMPTY = {
  slug: '',
  issuer: '',
  clientId: '',
  clientSecret: '',
  labelZh: '',
  labelEn: '',
  scopes: 'openid profile email',
  sort: '0',
  enabled: true,
};
type Draft = typeof EMPTY;

const draftOf = (p: OauthProviderAdminItem): Draft => ({
  slug: p.slug,
  issuer: p.issuer,
  clientId: p.clientId,
  clientSecret: '',
  labelZh: p.labelZh,
  labelEn: p.labelEn,
  scopes: p.scopes,
  sort: String(p.sort),
  enabled: p.enabled,
});

const bodyOf = (d: Draft, id?: number) => ({
  ...(id ? { id } : {}),
  slug: d.slug.trim(),
  issuer: d.issuer.trim(),
  clientId: d.clientId.trim(),
  ...(d.clientSecret ? { clientSecret: d.clientSecret } : {}),
  labelZh: d.labelZh,
  labelEn: d.labelEn,
  scopes: d.scopes,
  sort: Number(d.sort) || 0,
  enabled: d.enabled,
});

/** Add or edit a provider; the secret is never shown back (left empty, the stored one stays). */
function ProviderForm({ editing, onDone }: { editing: OauthProviderAdminItem | null; onDone: () => void }) {
  const { t, i18n } = useTranslation();
  const refresh = useAdminRefresh();
  const [draft, setDraft] = useState<Draft>(editing ? draftOf(editing) : EMPTY);
  useEffect(() => setDraft(editing ? draftOf(editing) : EMPTY), [editing]);
  const set = (key: keyof Draft) => (value: string) => setDraft((d) => ({ ...d, [key]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const saved = await adminCall<OauthProviderAdminItem>(
      'POST',
      adminApi.oauth.save,
      bodyOf(draft, editing?.id),
      t('admin.saved'),
    );
    if (!saved) return;
    setDraft(EMPTY);
    await refresh('oauth-providers');
    onDone();
  };

  return (
    <form className="lt-card lt-admin-form" onSubmit={(e) => void submit(e)} aria-labelledby="oauth-form-title">
      <h2 id="oauth-form-title" className="lt-card__title">
        {editing
          ? t('oauth.admin.editing', { name: i18n.language === 'en' ? editing.labelEn : editing.labelZh })
          : t('oauth.admin.add')}
      </h2>
      <div className="lt-admin-form__row">
        <TextInput name="labelZh" label={t('oauth.admin.labelZh')} value={draft.labelZh} onChange={set('labelZh')} />
        <TextInput name="labelEn" label={t('oauth.admin.labelEn')} value={draft.labelEn} onChange={set('labelEn')} />
        <TextInput name="slug" label={t('oauth.admin.slug')} value={draft.slug} onChange={set('slug')} maxLength={32} />
      </div>
      <TextInput
        name="issuer"
        label={t('oauth.admin.issuer')}
        placeholder="https://accounts.example.com"
        value={draft.issuer}
        onChange={set('issuer')}
      />
      <div className="lt-admin-form__row">
        <TextInput
          name="clientId"
          label={t('oauth.admin.clientId')}
          value={draft.clientId}
          onChange={set('clientId')}
        />
        <TextInput
          name="clientSecret"
          mode="password"
          autoComplete="new-password"
          label={t('oauth.admin.clientSecret')}
          placeholder={editing?.hasSecret ? t('oauth.admin.secretKept') : ''}
          value={draft.clientSecret}
          onChange={set('clientSecret')}
        />
      </div>
      <div className="lt-admin-form__row">
        <TextInput name="scopes" label={t('oauth.admin.scopes')} value={draft.scopes} onChange={set('scopes')} />
        <TextInput name="sort" mode="number" label={t('oauth.admin.sort')} value={draft.sort} onChange={set('sort')} />
      </div>
      {editing ? (
        <p className="lt-settings__hint">{t('oauth.admin.callbackHint', { url: editing.callbackUrl })}</p>
      ) : null}
      <div className="lt-toolbar">
        <label className="lt-check">
          <input
            type="checkbox"
            checked={draft.enabled}
            onChange={(e) => setDraft((d) => ({ ...d, enabled: e.target.checked }))}
          />
          {t('oauth.admin.enabled')}
        </label>
        <div className="lt-admin-oauth__buttons">
          {editing ? <Button onClick={onDone}>{t('oauth.admin.cancel')}</Button> : null}
          <Button type="primary" htmlType="submit" data-testid="oauth-save">
            {t('oauth.admin.save')}
          </Button>
        </div>
      </div>
    </form>
  );
}

function ProviderRow({ provider, onEdit }: { provider: OauthProviderAdminItem; onEdit: () => void }) {
  const { t, i18n } = useTranslation();
  const refresh = useAdminRefresh();
  const label = i18n.language === 'en' ? provider.labelEn : provider.labelZh;
  const { confirmDelete, dialog } = useConfirmDelete();
  const toggle = async () => {
    const body = { ...bodyOf(draftOf(provider), provider.id), enabled: !provider.enabled };
    if (await adminCall('POST', adminApi.oauth.save, body, t('admin.saved'))) {
      await refresh('oauth-providers');
    }
  };
  const remove = async () => {
    if (!(await confirmDelete(t('oauth.admin.confirmDelete', { name: label })))) return;
    const done = await adminCall('POST', adminApi.oauth.delete, { id: provider.id }, t('admin.deleted'));
    if (done) await refresh('oauth-providers');
  };
  return (
    <tr data-testid="oauth-provider-row" data-slug={provider.slug}>
      <td>
        <strong>{label}</strong>
        <div className="lt-empty--small">{provider.slug}</div>
      </td>
      <td>
        <div className="lt-admin-oauth__issuer">{provider.issuer}</div>
      </td>
      <td>{provider.enabled ? t('oauth.admin.on') : t('oauth.admin.off')}</td>
      <td>{provider.identityCount}</td>
      <td className="lt-table__end">
        <div className="lt-toolbar">
          <Button size="small" onClick={onEdit} data-testid="oauth-edit">
            {t('oauth.admin.edit')}
          </Button>
          <Button size="small" type={provider.enabled ? 'default' : 'primary'} onClick={() => void toggle()}>
            {provider.enabled ? t('oauth.admin.disable') : t('oauth.admin.enable')}
          </Button>
          <Button size="small" type="text" onClick={() => void remove()} data-testid="oauth-delete">
            {t('oauth.admin.delete')}
          </Button>
        </div>
        {dialog}
      </td>
    </tr>
  );
}

const WECHAT_KEYS = ['wechatAppId', 'wechatAppSecret', 'wechatApiBase'] as const;

/** WeChat's app id and secret (settings of tag `wechat`): with both set the login page offers WeChat. */
function WechatSettings() {
  const { t } = useTranslation();
  const form = useSettingsForm(WECHAT_KEYS, { secrets: ['wechatAppSecret'], asText: true });
  const value = (key: string) => String(form.get(key) ?? '');

  return (
    <form className="lt-card lt-admin-form" onSubmit={(e) => void form.save(e)} aria-labelledby="oauth-wechat-title">
      <h2 id="oauth-wechat-title" className="lt-card__title">
        {t('oauth.admin.wechatTitle')}
      </h2>
      <p className="lt-settings__hint">{t('oauth.admin.wechatHint')}</p>
      {!form.values ? (
        <Spinner />
      ) : (
        <>
          <div className="lt-admin-form__row">
            {WECHAT_KEYS.slice(0, 2).map((key) => (
              <TextInput
                key={key}
                name={key}
                mode={key === 'wechatAppSecret' ? 'password' : 'text'}
                autoComplete="off"
                label={t(`oauth.admin.${key}`)}
                value={value(key)}
                onChange={(v) => form.set(key, v)}
              />
            ))}
          </div>
          <TextInput
            name="wechatApiBase"
            label={t('oauth.admin.wechatApiBase')}
            value={value('wechatApiBase')}
            onChange={(v) => form.set('wechatApiBase', v)}
          />
          <div className="lt-toolbar">
            <Button type="primary" htmlType="submit" data-testid="wechat-save">
              {t('oauth.admin.save')}
            </Button>
          </div>
        </>
      )}
    </form>
  );
}

/** 第三方登录 / Sign-in providers: OpenID Connect providers (list, add, edit, switch, delete) and WeChat. */
export function Component() {
  const { t } = useTranslation();
  const list = useAdminQuery<OauthProviderAdminItem[]>(['oauth-providers'], adminApi.oauth.list);
  const [editing, setEditing] = useState<OauthProviderAdminItem | null>(null);
  return (
    <>
      <AdminSection name="oauth" title={t('admin.section.oauth')}>
        <h2 className="lt-card__title">{t('oauth.admin.providers')}</h2>
        <AdminTable
          label={t('oauth.admin.providers')}
          columns={[
            { key: 'label', header: t('oauth.admin.label') },
            { key: 'issuer', header: t('oauth.admin.issuer') },
            { key: 'status', header: t('oauth.admin.status') },
            { key: 'linked', header: t('oauth.admin.linkedCount') },
            { key: 'actions', header: t('admin.actions'), end: true },
          ]}
          rows={list.data}
          error={list.error}
          row={(p) => <ProviderRow key={`${p.id}:${p.updatedAt}`} provider={p} onEdit={() => setEditing(p)} />}
        />
      </AdminSection>
      <ProviderForm editing={editing} onDone={() => setEditing(null)} />
      <WechatSettings />
    </>
  );
}

import { LOGO_TYPES, SETTING_DEFINITIONS, type LogoType } from '@luntan/shared';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from '../i18n/use-translation';
import { isSuccess } from '../api/dispatcher';
import { postForm } from '../api/upload';
import { Button, Spinner, Textarea, TextInput, toast } from '../components/ui';
import type { RouteHandle } from '../routing/handle';
import { adminCall, useAdminQuery, useAdminRefresh } from './admin-api';
import { useConfirmDelete } from './admin-ui';
import { usePending } from '../hooks/use-pending';
import { AgreementSettings } from './agreement-settings';

export const handle: RouteHandle = { title: (t) => t('admin.section.settings') };

type Values = Record<string, string | number | boolean>;

/** The setting each site image is stored under. */
const IMAGE_SETTING: Record<LogoType, string> = {
  logo: 'siteLogo',
  header_logo: 'siteHeaderLogo',
  background_image: 'siteBackgroundImage',
  watermark_image: 'siteWatermarkImage',
  favicon: 'siteFavicon',
};

const TEXT_FIELDS = ['siteName', 'siteTitle', 'siteKeywords', 'siteUrl', 'siteRecord', 'siteRecordCode'] as const;
const LONG_FIELDS = ['siteIntroduction', 'siteStat'] as const;
const SWITCHES = [
  'siteClose',
  'registerClose',
  'registerValidate',
  'registerInviteOnly',
  'registerCaptcha',
  'loginCaptcha',
  'dialogOpen',
] as const;
const IMAGE_KEYS = new Set(Object.values(IMAGE_SETTING));

function SiteImage({ type, url, onChanged }: { type: LogoType; url: string; onChanged: () => Promise<void> }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const { confirmDelete, dialog } = useConfirmDelete();
  const upload = async (file: File) => {
    const form = new FormData();
    form.append('type', type);
    form.append('file', file, file.name);
    setBusy(true);
    try {
      const result = await postForm<{ url: string }>('/api/settings/logo.v2', form);
      if (!isSuccess(result)) toast.error(result.Message);
      else {
        toast.success(t('admin.saved'));
        await onChanged();
      }
    } finally {
      setBusy(false);
    }
  };
  const remove = async () => {
    if (!(await confirmDelete(t('admin.settings.confirmDeleteImage')))) return;
    if (await adminCall('POST', '/api/settings/delete.logo.v2', { type }, t('admin.deleted'))) await onChanged();
  };
  return (
    <div className="lt-admin-image" data-testid={`site-image-${type}`}>
      <strong>{t(`admin.settings.image.${type}`)}</strong>
      <div className="lt-admin-image__preview">{url ? <img src={url} alt="" /> : t('admin.settings.noImage')}</div>
      <div className="lt-admin-image__actions">
        <label className="lt-button lt-button--default lt-button--small">
          {busy ? <Spinner size={14} /> : t('admin.settings.upload')}
          <input
            type="file"
            hidden
            accept={
              type === 'favicon'
                ? 'image/png,image/x-icon,image/vnd.microsoft.icon,image/gif,image/webp,image/jpeg'
                : 'image/png,image/jpeg,image/gif,image/webp'
            }
            aria-label={t('admin.settings.uploadOf', { name: t(`admin.settings.image.${type}`) })}
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = '';
              if (file) void upload(file);
            }}
          />
        </label>
        {url ? (
          <Button size="small" type="text" onClick={() => void remove()}>
            {t('admin.delete')}
          </Button>
        ) : null}
      </div>
      {dialog}
    </div>
  );
}

/** Site settings: names and texts, records, language, registration and site switches, site images. */
export function Component() {
  const { t } = useTranslation();
  const refresh = useAdminRefresh();
  const stored = useAdminQuery<Array<{ key: string; tag: string; value: string | number | boolean }>>(
    ['settings'],
    '/api/backAdmin/settings',
  );
  const [values, setValues] = useState<Values | null>(null);
  const { pending, run } = usePending();

  useEffect(() => {
    if (!stored.data) return;
    const next: Values = {};
    for (const def of SETTING_DEFINITIONS) next[def.key] = def.default;
    for (const row of stored.data) if (row.tag === 'default') next[row.key] = row.value;
    setValues(next);
  }, [stored.data]);

  if (stored.error) return <p className="lt-card lt-empty">{stored.error}</p>;
  if (!values) return <Spinner />;

  const set = (key: string, value: string | number | boolean) => setValues((v) => ({ ...v, [key]: value }));
  const text = (key: string) => String(values[key] ?? '');

  const save = async (event: FormEvent) => {
    event.preventDefault();
    await run(async () => {
      const data = SETTING_DEFINITIONS.filter((d) => d.tag === 'default' && !IMAGE_KEYS.has(d.key)).map((d) => ({
        key: d.key,
        value: values[d.key] ?? d.default,
        tag: 'default',
      }));
      if (await adminCall('POST', '/api/settings.v2', { data }, t('admin.saved'))) await refresh('settings');
    });
  };

  return (
    <>
      <form className="lt-card lt-admin-form" onSubmit={(e) => void save(e)} aria-labelledby="settings-title">
        <h1 id="settings-title" className="lt-page__title">
          {t('admin.section.settings')}
        </h1>
        <div className="lt-admin-form__row">
          {TEXT_FIELDS.map((key) => (
            <TextInput
              key={key}
              name={key}
              label={t(`admin.settings.field.${key}`)}
              value={text(key)}
              onChange={(value) => set(key, value)}
              maxLength={key === 'siteName' ? 50 : 500}
            />
          ))}
        </div>
        {LONG_FIELDS.map((key) => (
          <Textarea
            key={key}
            name={key}
            label={t(`admin.settings.field.${key}`)}
            value={text(key)}
            onChange={(value) => set(key, value)}
            rows={key === 'siteStat' ? 4 : 3}
          />
        ))}
        <div className="lt-admin-form__row">
          <div className="lt-field">
            <label className="lt-field__label" htmlFor="setting-locale">
              {t('admin.settings.field.siteLocale')}
            </label>
            <select
              id="setting-locale"
              className="lt-select"
              value={text('siteLocale')}
              onChange={(event) => set('siteLocale', event.target.value)}
            >
              <option value="zh">中文</option>
              <option value="en">English</option>
            </select>
          </div>
          <TextInput
            name="attachmentSizeLimit"
            label={t('admin.settings.field.attachmentSizeLimit')}
            mode="number"
            value={text('attachmentSizeLimit')}
            onChange={(value) => set('attachmentSizeLimit', Number(value) || 0)}
          />
        </div>
        <fieldset className="lt-admin-form__row lt-fieldset">
          <legend>{t('admin.settings.switches')}</legend>
          {SWITCHES.map((key) => (
            <label key={key} className="lt-check">
              <input
                type="checkbox"
                name={key}
                checked={values[key] === true}
                onChange={(e) => set(key, e.target.checked)}
              />
              {t(`admin.settings.field.${key}`)}
            </label>
          ))}
        </fieldset>
        {values.siteClose === true ? (
          <Textarea
            name="siteCloseMsg"
            label={t('admin.settings.field.siteCloseMsg')}
            value={text('siteCloseMsg')}
            onChange={(value) => set('siteCloseMsg', value)}
            rows={2}
          />
        ) : null}
        <div className="lt-admin-form__actions">
          <Button type="primary" htmlType="submit" loading={pending} data-testid="settings-save">
            {t('admin.save')}
          </Button>
        </div>
      </form>
      <AgreementSettings stored={stored.data} onSaved={() => refresh('settings')} />
      <section className="lt-card" aria-labelledby="images-title">
        <h2 id="images-title" className="lt-card__title">
          {t('admin.settings.images')}
        </h2>
        <div className="lt-admin-images">
          {LOGO_TYPES.map((type) => (
            <SiteImage key={type} type={type} url={text(IMAGE_SETTING[type])} onChanged={() => refresh('settings')} />
          ))}
        </div>
      </section>
    </>
  );
}

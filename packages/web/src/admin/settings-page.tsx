import { LOGO_TYPES, SETTING_DEFINITIONS, type LogoType } from '@luntan/shared';
import { useState } from 'react';
import { useTranslation } from '../i18n/use-translation';
import { isSuccess } from '../api/dispatcher';
import { postForm } from '../api/upload';
import { Button, Spinner, Textarea, TextInput, toast } from '../components/ui';
import type { RouteHandle } from '../routing/handle';
import { adminCall } from './admin-api';
import { useSettingsForm } from './use-settings-form';
import { useConfirmDelete } from './admin-ui';
import { AgreementSettings } from './agreement-settings';
import { adminApi } from '../api/admin-client';

export const handle: RouteHandle = { title: (t) => t('admin.section.settings') };

/** The site settings of tag default (the images are shown here, and saved by their own buttons). */
const DEFAULT_KEYS = SETTING_DEFINITIONS.filter((d) => d.tag === 'default').map((d) => d.key);

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
      const result = await postForm<{ url: string }>(adminApi.settings.uploadLogo, form);
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
    if (await adminCall('POST', adminApi.settings.deleteLogo, { type }, t('admin.deleted'))) await onChanged();
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
  const form = useSettingsForm(DEFAULT_KEYS);
  const { values, pending, save, refresh } = form;

  if (form.error) return <p className="lt-card lt-empty">{form.error}</p>;
  if (!values) return <Spinner />;

  const set = (key: string, value: string | number | boolean) => form.set(key, value);
  const text = (key: string) => String(form.get(key) ?? '');
  const checked = (key: string) => form.get(key) === true;

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
              <input type="checkbox" name={key} checked={checked(key)} onChange={(e) => set(key, e.target.checked)} />
              {t(`admin.settings.field.${key}`)}
            </label>
          ))}
        </fieldset>
        {checked('siteClose') ? (
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
      <AgreementSettings />
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

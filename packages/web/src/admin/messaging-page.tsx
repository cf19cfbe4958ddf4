import { useTranslation } from '../i18n/use-translation';
import { Button, Spinner, TextInput } from '../components/ui';
import type { RouteHandle } from '../routing/handle';
import { useSettingsForm } from './use-settings-form';

export const handle: RouteHandle = { title: (t) => t('admin.section.messaging') };

/** Keys shown as password boxes: the SMTP address carries its password, the rest are provider secrets. */
const SECRET_FIELDS = new Set(['smtpUrl', 'tencentSecretKey', 'aliyunAccessKeySecret']);

const GROUPS = [
  { key: 'mail', fields: ['smtpUrl', 'mailFrom'] },
  { key: 'sms', fields: ['smsProvider', 'smsSignName', 'smsTemplateId'] },
  { key: 'tencent', fields: ['tencentSecretId', 'tencentSecretKey', 'tencentSmsSdkAppId', 'tencentSmsRegion'] },
  { key: 'aliyun', fields: ['aliyunAccessKeyId', 'aliyunAccessKeySecret'] },
] as const;

type FieldKey = (typeof GROUPS)[number]['fields'][number];

/**
 * Mail and SMS settings: the SMTP server and sender, the SMS provider with its sign, template and keys. Only what
 * changed is sent, so a secret never travels back unread. SMTP_URL / MAIL_FROM and SMS_PROVIDER=log in the
 * environment win over these.
 */
export function Component() {
  const { t } = useTranslation();
  const form = useSettingsForm(
    GROUPS.flatMap((g) => g.fields),
    { secrets: [...SECRET_FIELDS], asText: true },
  );
  const { values, pending, save } = form;

  if (form.error) return <p className="lt-card lt-empty">{form.error}</p>;
  if (!values) return <Spinner />;

  const get = (key: FieldKey) => String(form.get(key) ?? '');
  const set = (key: FieldKey, value: string) => form.set(key, value);

  const field = (key: FieldKey) => {
    const label = t(`admin.messaging.field.${key}`);
    if (key === 'smsProvider') {
      return (
        <div key={key} className="lt-field">
          <label className="lt-field__label" htmlFor="messaging-smsProvider">
            {label}
          </label>
          <select
            id="messaging-smsProvider"
            className="lt-select"
            value={get(key)}
            onChange={(e) => set(key, e.target.value)}
          >
            <option value="">{t('admin.messaging.provider.off')}</option>
            <option value="tencent">{t('admin.messaging.provider.tencent')}</option>
            <option value="aliyun">{t('admin.messaging.provider.aliyun')}</option>
          </select>
        </div>
      );
    }
    const secret = SECRET_FIELDS.has(key);
    return (
      <TextInput
        key={key}
        name={key}
        label={label}
        mode={secret ? 'password' : 'text'}
        value={get(key)}
        onChange={(text) => set(key, text)}
        autoComplete={secret ? 'new-password' : 'off'}
        spellCheck={false}
        maxLength={500}
        placeholder={key === 'smtpUrl' ? 'smtps://user:pass@smtp.example.com:465' : undefined}
      />
    );
  };

  return (
    <form className="lt-card lt-admin-form" onSubmit={(e) => void save(e)} aria-labelledby="messaging-title">
      <h1 id="messaging-title" className="lt-page__title">
        {t('admin.section.messaging')}
      </h1>
      <p className="lt-hint">{t('admin.messaging.envNote')}</p>
      {GROUPS.map((group) => (
        <fieldset key={group.key} className="lt-fieldset lt-admin-group" data-testid={`messaging-group-${group.key}`}>
          <legend>{t(`admin.messaging.group.${group.key}`)}</legend>
          <div className="lt-admin-form__row">{group.fields.map(field)}</div>
        </fieldset>
      ))}
      <div className="lt-admin-form__actions">
        <Button type="primary" htmlType="submit" loading={pending} data-testid="messaging-save">
          {t('admin.save')}
        </Button>
      </div>
    </form>
  );
}

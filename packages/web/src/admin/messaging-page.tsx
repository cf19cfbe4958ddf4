import { SETTING_DEFINITIONS, type SettingDefinition } from '@luntan/shared';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from '../i18n/use-translation';
import { Button, Spinner, TextInput } from '../components/ui';
import { usePending } from '../hooks/use-pending';
import type { RouteHandle } from '../routing/handle';
import { adminCall, useAdminQuery, useAdminRefresh } from './admin-api';

export const handle: RouteHandle = { title: (t) => t('admin.section.messaging') };

type Values = Record<string, string>;

/** The settings this page owns, as `tag:key` (tags mail and sms). */
const id = (def: Pick<SettingDefinition, 'tag' | 'key'>) => `${def.tag}:${def.key}`;

/** Keys shown as password boxes: the SMTP address carries its password, the rest are provider secrets. */
const SECRET_FIELDS = new Set(['smtpUrl', 'tencentSecretKey', 'aliyunAccessKeySecret']);

const GROUPS = [
  { key: 'mail', fields: ['smtpUrl', 'mailFrom'] },
  { key: 'sms', fields: ['smsProvider', 'smsSignName', 'smsTemplateId'] },
  { key: 'tencent', fields: ['tencentSecretId', 'tencentSecretKey', 'tencentSmsSdkAppId', 'tencentSmsRegion'] },
  { key: 'aliyun', fields: ['aliyunAccessKeyId', 'aliyunAccessKeySecret'] },
] as const;

type FieldKey = (typeof GROUPS)[number]['fields'][number];

function definition(key: FieldKey): SettingDefinition {
  const def = SETTING_DEFINITIONS.find((d) => d.key === key);
  if (!def) throw new Error(`unknown setting ${key}`);
  return def;
}

/**
 * Mail and SMS settings: the SMTP server and sender, the SMS provider with its sign, template and keys. Only what
 * changed is sent, so a secret never travels back unread. SMTP_URL / MAIL_FROM and SMS_PROVIDER=log in the
 * environment win over these.
 */
export function Component() {
  const { t } = useTranslation();
  const refresh = useAdminRefresh();
  const stored = useAdminQuery<Array<{ key: string; tag: string; value: unknown }>>(
    ['settings'],
    '/api/backAdmin/settings',
  );
  const [values, setValues] = useState<Values | null>(null);
  const [initial, setInitial] = useState<Values>({});
  const { pending, run } = usePending();

  useEffect(() => {
    if (!stored.data) return;
    const next: Values = {};
    for (const group of GROUPS)
      for (const key of group.fields) next[id(definition(key))] = String(definition(key).default);
    for (const row of stored.data) if (id(row) in next) next[id(row)] = String(row.value ?? '');
    setValues(next);
    setInitial(next);
  }, [stored.data]);

  if (stored.error) return <p className="lt-card lt-empty">{stored.error}</p>;
  if (!values) return <Spinner />;

  const get = (key: FieldKey) => values[id(definition(key))] ?? '';
  const set = (key: FieldKey, value: string) => setValues((v) => ({ ...v, [id(definition(key))]: value }));

  const save = async (event: FormEvent) => {
    event.preventDefault();
    await run(async () => {
      const data = GROUPS.flatMap((g) => g.fields)
        .map(definition)
        .filter((def) => values[id(def)] !== initial[id(def)])
        .map((def) => ({ key: def.key, tag: def.tag, value: values[id(def)]! }));
      if (data.length === 0) return;
      if (await adminCall('POST', '/api/settings.v2', { data }, t('admin.saved'))) {
        setInitial(values);
        await refresh('settings');
      }
    });
  };

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

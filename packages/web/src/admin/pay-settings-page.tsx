import { useTranslation } from '../i18n/use-translation';
import { Button, Spinner, Textarea, TextInput } from '../components/ui';
import type { RouteHandle } from '../routing/handle';
import { settingDefinition, settingId, useSettingsForm, type SettingValue } from './use-settings-form';

export const handle: RouteHandle = { title: (t) => t('admin.section.paySettings') };

type Value = SettingValue;

/** The settings this page owns: `tag:key`, so that the pay tag's credentials and the default tag's rules share it. */
const id = settingId;
const definition = settingDefinition;

/** Credentials: left blank, the stored one stays. */
const SECRET_FIELDS = ['alipayPrivateKey', 'wxpayApiV3Key', 'wxpayPrivateKey'];

/** Keys shown as multi-line text (PEM keys). */
const KEY_FIELDS = new Set(['alipayPrivateKey', 'alipayPublicKey', 'wxpayPrivateKey', 'wxpayPublicKey']);

/** The page's groups of settings (tag default unless the key says pay). */
const GROUPS = [
  { key: 'join', fields: ['siteMode', 'sitePrice', 'siteExpire'] },
  { key: 'split', fields: ['siteAuthorScale', 'siteMasterScale'] },
  { key: 'cash', fields: ['cashMinSum', 'cashMaxSum', 'cashSumLimit', 'cashRate'] },
  { key: 'recharge', fields: ['rechargeMinSum', 'rechargeMaxSum'] },
  { key: 'payments', fields: ['paySandbox', 'cashPayoutProvider'] },
  { key: 'alipay', fields: ['alipayEnabled', 'alipayAppId', 'alipayGateway', 'alipayPrivateKey', 'alipayPublicKey'] },
  {
    key: 'wxpay',
    fields: [
      'wxpayEnabled',
      'wxpayMchId',
      'wxpayAppId',
      'wxpaySerialNo',
      'wxpayApiV3Key',
      'wxpayPublicKeyId',
      'wxpayPrivateKey',
      'wxpayPublicKey',
    ],
  },
] as const;

type FieldKey = (typeof GROUPS)[number]['fields'][number];
type GroupKey = (typeof GROUPS)[number]['key'];

/** A unit after the box: money, percent, days, tenths. */
const UNITS: Partial<Record<FieldKey, 'yuan' | 'percent' | 'days' | 'tenths' | 'times'>> = {
  sitePrice: 'yuan',
  siteExpire: 'days',
  siteAuthorScale: 'tenths',
  siteMasterScale: 'tenths',
  cashMinSum: 'yuan',
  cashMaxSum: 'yuan',
  cashSumLimit: 'times',
  cashRate: 'percent',
  rechargeMinSum: 'yuan',
  rechargeMaxSum: 'yuan',
};

/**
 * Payment settings: paid joining, the income split, withdrawal and recharge rules, the sandbox, who pays out, and the
 * Alipay / WeChat Pay credentials (tag pay). Only what changed is sent, so a credential never travels back unread.
 */
export function Component() {
  const { t } = useTranslation();
  const form = useSettingsForm(
    GROUPS.flatMap((g) => g.fields),
    { secrets: SECRET_FIELDS },
  );
  const { values, pending, save } = form;

  if (form.error) return <p className="lt-card lt-empty">{form.error}</p>;
  if (!values) return <Spinner />;

  // Settings the server's environment decides (PAYMENT_SANDBOX=1): shown as they are in force, not editable.
  const fromEnvironment = new Map(
    (form.stored ?? []).flatMap((row) => (row.fromEnvironment ? [[id(row), row.fromEnvironment] as const] : [])),
  );
  const get = (key: FieldKey) => form.get(key)!;
  const set = (key: FieldKey, value: Value) => form.set(key, value);

  const field = (key: FieldKey) => {
    const def = definition(key);
    const label = t(`admin.paySettings.field.${key}`);
    const value = get(key);
    if (def.kind === 'boolean') {
      const variable = fromEnvironment.get(id(def));
      const box = (
        <label key={key} className="lt-check lt-admin-form__wide">
          <input
            type="checkbox"
            name={key}
            checked={value === true}
            disabled={variable !== undefined}
            aria-describedby={variable ? `pay-${key}-env` : undefined}
            onChange={(e) => set(key, e.target.checked)}
          />
          {label}
        </label>
      );
      if (!variable) return box;
      return (
        <div key={key} className="lt-admin-form__wide lt-admin-env">
          {box}
          <p id={`pay-${key}-env`} className="lt-hint" data-testid={`pay-env-${key}`}>
            {t('admin.paySettings.fromEnvironment', { name: variable })}
          </p>
        </div>
      );
    }
    if (key === 'siteMode') {
      return (
        <div key={key} className="lt-field">
          <label className="lt-field__label" htmlFor="pay-siteMode">
            {label}
          </label>
          <select
            id="pay-siteMode"
            className="lt-select"
            value={String(value)}
            onChange={(e) => set(key, e.target.value)}
          >
            <option value="public">{t('admin.paySettings.mode.public')}</option>
            <option value="pay">{t('admin.paySettings.mode.pay')}</option>
          </select>
        </div>
      );
    }
    if (key === 'cashPayoutProvider') {
      return (
        <div key={key} className="lt-field">
          <label className="lt-field__label" htmlFor="pay-cashPayoutProvider">
            {label}
          </label>
          <select
            id="pay-cashPayoutProvider"
            className="lt-select"
            value={String(value)}
            onChange={(e) => set(key, e.target.value)}
          >
            <option value="">{t('admin.paySettings.payout.manual')}</option>
            <option value="alipay">{t('admin.paySettings.payout.alipay')}</option>
            <option value="wxpay">{t('admin.paySettings.payout.wxpay')}</option>
            <option value="sandbox">{t('admin.paySettings.payout.sandbox')}</option>
          </select>
        </div>
      );
    }
    if (KEY_FIELDS.has(key)) {
      return (
        <Textarea
          key={key}
          name={key}
          className="lt-admin-form__wide lt-mono"
          label={label}
          value={String(value)}
          onChange={(text) => set(key, text)}
          rows={4}
          spellCheck={false}
          placeholder="-----BEGIN …-----"
        />
      );
    }
    const unit = UNITS[key];
    return (
      <TextInput
        key={key}
        name={key}
        label={label}
        mode={def.kind === 'number' ? 'number' : 'text'}
        inputMode={def.kind === 'money' ? 'decimal' : undefined}
        value={String(value)}
        onChange={(text) => set(key, text)}
        append={unit ? t(`admin.paySettings.unit.${unit}`) : undefined}
        appendWidth="56px"
        autoComplete="off"
        spellCheck={false}
        maxLength={def.kind === 'url' ? 500 : 200}
      />
    );
  };

  const hint = (group: GroupKey) => {
    if (group !== 'split') return null;
    const author = Number(get('siteAuthorScale')) || 0;
    const site = Number(get('siteMasterScale')) || 0;
    return (
      <p className={`lt-admin-form__wide lt-hint${author + site === 10 ? '' : ' lt-hint--warning'}`}>
        {t('admin.paySettings.splitHint', { author, site })}
      </p>
    );
  };

  return (
    <form className="lt-card lt-admin-form" onSubmit={(e) => void save(e)} aria-labelledby="pay-settings-title">
      <h1 id="pay-settings-title" className="lt-page__title">
        {t('admin.section.paySettings')}
      </h1>
      {GROUPS.map((group) => (
        <fieldset key={group.key} className="lt-fieldset lt-admin-group" data-testid={`pay-group-${group.key}`}>
          <legend>{t(`admin.paySettings.group.${group.key}`)}</legend>
          <div className="lt-admin-form__row">
            {group.fields.map(field)}
            {hint(group.key)}
          </div>
        </fieldset>
      ))}
      <div className="lt-admin-form__actions">
        <Button type="primary" htmlType="submit" loading={pending} data-testid="pay-settings-save">
          {t('admin.save')}
        </Button>
      </div>
    </form>
  );
}

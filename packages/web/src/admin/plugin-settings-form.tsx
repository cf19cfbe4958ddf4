import type { PluginAdminItem, PluginSettingField } from '@luntan/shared';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from '../i18n/use-translation';
import { Button, Textarea, TextInput, toast } from '../components/ui';

type SettingValue = string | number | boolean;

/** What a field shows at first: the saved value, else the declared default, else empty. */
export function initialSettingValue(field: PluginSettingField, saved: Record<string, SettingValue>): SettingValue {
  const value = saved[field.key] ?? field.default;
  if (field.type === 'boolean') return value === true || value === 'true';
  if (field.type === 'number') return value === undefined || value === '' ? '' : String(value);
  if (field.type === 'color') return typeof value === 'string' && /^#[0-9a-f]{6}$/i.test(value) ? value : '#000000';
  return value === undefined ? '' : String(value);
}

/**
 * The form's values as the settings call wants them (a blank secret is left out); a number field that is not a number
 * answers its key.
 */
export function settingsToSend(
  fields: readonly PluginSettingField[],
  values: Record<string, SettingValue>,
): { settings: Record<string, SettingValue> } | { invalid: PluginSettingField } {
  const settings: Record<string, SettingValue> = {};
  for (const field of fields) {
    const value = values[field.key];
    if (field.type === 'number') {
      const text = String(value ?? '').trim();
      if (text === '') continue;
      const number = Number(text);
      if (!Number.isFinite(number)) return { invalid: field };
      settings[field.key] = number;
    } else if (field.type === 'boolean') {
      settings[field.key] = value === true;
    } else if (field.visibility === 'secret' && String(value ?? '').trim() === '') {
      // The settings pages' one rule for secrets: left blank, the stored one stays (the server merges).
      continue;
    } else {
      settings[field.key] = String(value ?? '');
    }
  }
  return { settings };
}

/**
 * A plugin's settings, as a form built from its settingsSchema: string, text, number, boolean, color and url
 * fields, labelled in the page's language; secret fields (read only by the plugin's server part) as password
 * inputs.
 */
export function PluginSettingsForm({
  plugin,
  onSave,
}: {
  plugin: PluginAdminItem;
  onSave: (settings: Record<string, SettingValue>) => Promise<boolean>;
}) {
  const { t, i18n } = useTranslation();
  const formId = useId();
  const [values, setValues] = useState<Record<string, SettingValue>>(() =>
    Object.fromEntries(plugin.settingsSchema.map((f) => [f.key, initialSettingValue(f, plugin.allSettings)])),
  );
  const [pending, setPending] = useState(false);
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const set = (key: string, value: SettingValue) => setValues((current) => ({ ...current, [key]: value }));

  if (plugin.settingsSchema.length === 0) return <p className="lt-empty--small">{t('plugins.admin.noSettings')}</p>;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const answer = settingsToSend(plugin.settingsSchema, values);
    if ('invalid' in answer) {
      toast.warning(t('plugins.admin.invalidNumber', { label: answer.invalid.label[lang] }));
      return;
    }
    setPending(true);
    try {
      await onSave(answer.settings);
    } finally {
      setPending(false);
    }
  };

  return (
    <form
      className="lt-plugin-settings"
      onSubmit={(e) => void submit(e)}
      aria-label={t('plugins.admin.settingsTitle', { name: plugin.pluginNames[lang] })}
      data-testid="plugin-settings-form"
    >
      {plugin.settingsSchema.map((field) => {
        const label = field.label[lang];
        const secret = field.visibility === 'secret';
        const hint = secret ? <span className="lt-plugin-settings__hint">{t('plugins.admin.secret')}</span> : null;
        const value = values[field.key];
        const id = `${formId}-${field.key}`;
        if (field.type === 'boolean') {
          return (
            <label key={field.key} className="lt-check">
              <input type="checkbox" checked={value === true} onChange={(e) => set(field.key, e.target.checked)} />
              {label}
              {hint}
            </label>
          );
        }
        if (field.type === 'color') {
          return (
            <div key={field.key} className="lt-field">
              <label className="lt-field__label" htmlFor={id}>
                {label}
              </label>
              <input
                id={id}
                className="lt-plugin-settings__color"
                type="color"
                value={String(value)}
                onChange={(e) => set(field.key, e.target.value)}
              />
              {hint}
            </div>
          );
        }
        if (field.type === 'text' && !secret) {
          return (
            <Textarea
              key={field.key}
              label={label}
              value={String(value)}
              onChange={(v) => set(field.key, v)}
              rows={3}
            />
          );
        }
        return (
          <div key={field.key} className="lt-plugin-settings__field">
            <TextInput
              label={label}
              value={String(value)}
              onChange={(v) => set(field.key, v)}
              mode={secret ? 'password' : field.type === 'number' ? 'number' : 'text'}
              inputMode={field.type === 'url' ? 'url' : undefined}
              autoComplete={secret ? 'new-password' : 'off'}
              placeholder={field.type === 'url' ? 'https://' : undefined}
            />
            {hint}
          </div>
        );
      })}
      <div className="lt-admin-form__actions">
        <Button type="primary" htmlType="submit" loading={pending} data-testid="plugin-settings-save">
          {t('plugins.admin.save')}
        </Button>
      </div>
    </form>
  );
}

import { SETTING_DEFINITIONS, type SettingDefinition } from '@luntan/shared';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from '../i18n/use-translation';
import { toast } from '../components/ui';
import { usePending } from '../hooks/use-pending';
import { adminApi, type StoredSetting } from '../api/admin-client';
import { adminCall, useAdminQuery, useAdminRefresh } from './admin-api';

export type SettingValue = string | number | boolean;
export type SettingValues = Record<string, SettingValue>;

/** The form's name for a setting: `tag:key`, so that two tags may use one key. */
export const settingId = (def: Pick<SettingDefinition, 'tag' | 'key'>) => `${def.tag}:${def.key}`;

/** A known setting by its key (the keys a page owns are unique across tags). */
export function settingDefinition(key: string): SettingDefinition {
  const def = SETTING_DEFINITIONS.find((d) => d.key === key);
  if (!def) throw new Error(`unknown setting ${key}`);
  return def;
}

/** A stored value as the form edits it: booleans stay booleans, `asText` turns the rest into text. */
function editable(value: unknown, def: SettingDefinition, asText: boolean): SettingValue {
  if (def.kind === 'boolean') return value === true || value === 'true';
  if (asText) return value === undefined || value === null ? '' : String(value);
  return (value ?? def.default) as SettingValue;
}

/**
 * What a save sends: only the settings that changed, numbers as numbers. The one rule for secrets, on every settings
 * page: a secret left blank is not sent (the stored one stays), so a credential never travels back unread and an
 * empty box never wipes it.
 */
export function changedSettings(
  defs: readonly SettingDefinition[],
  values: SettingValues,
  initial: SettingValues,
  secrets: ReadonlySet<string>,
): Array<{ key: string; tag: string; value: SettingValue }> {
  return defs
    .filter((def) => values[settingId(def)] !== initial[settingId(def)])
    .filter((def) => !(secrets.has(def.key) && String(values[settingId(def)] ?? '').trim() === ''))
    .map((def) => {
      const value = values[settingId(def)]!;
      return { key: def.key, tag: def.tag, value: def.kind === 'number' ? Number(value) || 0 : value };
    });
}

/**
 * One back-office settings form: loads the stored settings, keeps the edited values beside the loaded ones, and
 * saves only what changed (see `changedSettings` for secrets), with the page's toasts and the server's message on a
 * failure. `get`/`set` take the setting's key.
 */
export function useSettingsForm(
  fields: readonly string[],
  options: { secrets?: readonly string[]; asText?: boolean } = {},
) {
  const { t } = useTranslation();
  const refresh = useAdminRefresh();
  const stored = useAdminQuery<StoredSetting[]>(['settings'], adminApi.settings.list);
  const [values, setValues] = useState<SettingValues | null>(null);
  const [initial, setInitial] = useState<SettingValues>({});
  const { pending, run } = usePending();
  const defs = fields.map(settingDefinition);
  const asText = options.asText === true;

  useEffect(() => {
    if (!stored.data) return;
    const next: SettingValues = {};
    for (const def of defs) next[settingId(def)] = editable(def.default, def, asText);
    for (const row of stored.data) {
      const def = defs.find((d) => d.key === row.key && d.tag === row.tag);
      if (def) next[settingId(def)] = editable(row.value, def, asText);
    }
    setValues(next);
    setInitial(next);
    // The fields are constants of the page; only new data reloads the form.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [stored.data]);

  const get = (key: string): SettingValue | undefined => values?.[settingId(settingDefinition(key))];
  const set = (key: string, value: SettingValue) =>
    setValues((current) => ({ ...current, [settingId(settingDefinition(key))]: value }));

  const save = async (event?: FormEvent) => {
    event?.preventDefault();
    if (!values) return;
    await run(async () => {
      const data = changedSettings(defs, values, initial, new Set(options.secrets ?? []));
      if (data.length === 0) {
        toast.success(t('admin.saved'));
        return;
      }
      if (await adminCall('POST', adminApi.settings.save, { data }, t('admin.saved'))) {
        setInitial(values);
        await refresh('settings');
      }
    });
  };

  return { stored: stored.data, error: stored.error, values, get, set, save, pending, refresh };
}

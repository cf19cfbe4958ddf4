import type { Locale, PluginAdminItem, PluginEntry } from '@luntan/shared';
import type { TFunction } from 'i18next';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from '../i18n/use-translation';
import { isSuccess } from '../api/dispatcher';
import { postForm } from '../api/upload';
import { Button, buttonClassName, Dialog, Spinner, toast } from '../components/ui';
import type { RouteHandle } from '../routing/handle';
import { adminCall, useAdminQuery, useAdminRefresh } from './admin-api';
import { AdminSection } from './admin-ui';
import { PluginSettingsForm } from './plugin-settings-form';
import './plugins-page.css';
import { adminApi } from '../api/admin-client';

export const handle: RouteHandle = { title: (t) => t('admin.section.plugins') };

/**
 * What an upload answers: the installed plugin and the version it replaced. When the installed version is not
 * lower, the server keeps it and answers a failure (-4003) whose message says so, like any broken rule (-4001).
 */
interface UploadAnswer {
  kept: 'uploaded' | 'installed';
  previousVersion: string | null;
  item: PluginAdminItem;
}

/** The page's language, for the texts plugin.json gives per language. */
function usePageLocale(): Locale {
  const { i18n } = useTranslation();
  return i18n.language === 'en' ? 'en' : 'zh';
}

/** Where an entry places its component, in words; the hook's id is the tooltip, for the plugin's developer. */
function placement(entry: PluginEntry, appid: string, t: TFunction): { text: string; id: string } {
  const id = `${entry.target} · ${entry.hookName}${entry.path ? ` /${entry.path}` : ''}`;
  // Typed as one of the keys: the hook names come from plugin.json, checked against the same list on install.
  const key = `admin.pluginHooks.${entry.target}.${entry.hookName}` as 'admin.pluginHooks.plugin_system.add_page_hook';
  // A hook this version does not name (a newer plugin's) keeps its id.
  return { text: t(key, { appid, path: entry.path ?? '', defaultValue: id }), id };
}

/** Re-reads the back office's list and the public plugin lists (the forum's pages follow at once). */
function usePluginsRefresh(): () => Promise<void> {
  const refresh = useAdminRefresh();
  const queryClient = useQueryClient();
  return async () => {
    await Promise.all([refresh('plugins'), queryClient.invalidateQueries({ queryKey: ['plugins'] })]);
  };
}

function UploadForm() {
  const { t } = useTranslation();
  const locale = usePageLocale();
  const refresh = usePluginsRefresh();
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [pending, setPending] = useState(false);
  const [answer, setAnswer] = useState<{ ok: boolean; text: string } | null>(null);
  const [fileName, setFileName] = useState('');

  const upload = async (event: FormEvent) => {
    event.preventDefault();
    const file = input.current?.files?.[0];
    if (!file) {
      setAnswer({ ok: false, text: t('plugins.admin.chooseFile') });
      return;
    }
    const form = new FormData();
    form.append('file', file, file.name);
    setPending(true);
    try {
      const result = await postForm<UploadAnswer>(adminApi.plugins.upload, form);
      if (isSuccess(result)) {
        const { item, previousVersion } = result.Data;
        const names = { name: item.pluginNames[locale], version: item.version, from: previousVersion };
        setAnswer({
          ok: true,
          text: previousVersion ? t('plugins.admin.updated', names) : t('plugins.admin.installed', names),
        });
        if (input.current) input.current.value = '';
        setFileName('');
        await refresh();
      } else {
        // The server names the broken rule (-4001) in its message.
        setAnswer({ ok: false, text: result.Message });
      }
    } finally {
      setPending(false);
    }
  };

  return (
    <form className="lt-plugin-upload" onSubmit={(e) => void upload(e)} data-testid="plugin-upload">
      <div className="lt-field">
        <span className="lt-field__label">{t('plugins.admin.file')}</span>
        {/* The browser's own file button speaks the browser's language: this one speaks the page's. */}
        <div className="lt-plugin-upload__pick">
          <input
            id={inputId}
            ref={input}
            type="file"
            name="file"
            accept=".zip,.tgz,.tar.gz,application/zip,application/gzip"
            className="lt-visually-hidden"
            onChange={(event) => {
              setAnswer(null);
              setFileName(event.target.files?.[0]?.name ?? '');
            }}
          />
          <label htmlFor={inputId} className={buttonClassName({ size: 'small' })}>
            {t('plugins.admin.pick')}
          </label>
          <span className="lt-plugin-upload__name" data-testid="plugin-upload-name">
            {fileName || t('plugins.admin.noFile')}
          </span>
        </div>
      </div>
      <Button type="primary" htmlType="submit" loading={pending} data-testid="plugin-upload-submit">
        {t('plugins.admin.upload')}
      </Button>
      {answer ? (
        <p
          className={`lt-plugin-upload__answer lt-plugin-upload__answer--${answer.ok ? 'ok' : 'error'}`}
          role={answer.ok ? 'status' : 'alert'}
          data-testid="plugin-upload-answer"
        >
          {answer.text}
        </p>
      ) : null}
    </form>
  );
}

function PluginCard({ plugin, onDelete }: { plugin: PluginAdminItem; onDelete: (plugin: PluginAdminItem) => void }) {
  const { t } = useTranslation();
  const locale = usePageLocale();
  const name = plugin.pluginNames[locale];
  const description = plugin.descriptions[locale];
  const refresh = usePluginsRefresh();
  const [showSettings, setShowSettings] = useState(false);
  const [pending, setPending] = useState(false);

  const toggle = async () => {
    setPending(true);
    try {
      const operate = plugin.enabled ? 'disable' : 'enable';
      const done = t(plugin.enabled ? 'plugins.admin.disabledToast' : 'plugins.admin.enabledToast', { name });
      if ((await adminCall('POST', adminApi.plugins.operate, { appid: plugin.appid, operate }, done)) !== null)
        await refresh();
    } finally {
      setPending(false);
    }
  };
  const saveSettings = async (settings: Record<string, string | number | boolean>): Promise<boolean> => {
    const saved = await adminCall(
      'POST',
      adminApi.plugins.settings,
      { appid: plugin.appid, settings },
      t('plugins.admin.saved'),
    );
    if (saved === null) return false;
    await refresh();
    return true;
  };
  const places = [...new Map(plugin.entries.map((e) => placement(e, plugin.appid, t)).map((p) => [p.id, p])).values()];

  return (
    <article
      className={`lt-plugin-card${plugin.enabled ? '' : ' lt-plugin-card--off'}`}
      data-testid="plugin-row"
      data-appid={plugin.appid}
    >
      <header className="lt-plugin-card__head">
        <h2 className="lt-plugin-card__name">{name}</h2>
        <span className="lt-plugin-card__version">v{plugin.version}</span>
        <span
          className={`lt-tag lt-plugin-status lt-plugin-status--${plugin.enabled ? 'on' : 'off'}`}
          data-testid="plugin-status"
        >
          {plugin.enabled ? t('plugins.admin.enabled') : t('plugins.admin.disabled')}
        </span>
      </header>
      {description ? <p className="lt-plugin-card__description">{description}</p> : null}
      <dl className="lt-plugin-card__meta">
        <dt>{t('plugins.admin.author')}</dt>
        <dd>
          {plugin.author.name}
          {plugin.author.email ? <span className="lt-plugin-card__muted"> &lt;{plugin.author.email}&gt;</span> : null}
        </dd>
        <dt>{t('plugins.admin.platforms')}</dt>
        <dd>{plugin.platform.map((p) => t(`plugins.admin.platform.${p}`)).join(t('plugins.listSeparator'))}</dd>
        <dt>{t('plugins.admin.targets')}</dt>
        <dd>
          <ul className="lt-plugin-card__targets">
            {places.map((place) => (
              <li key={place.id} title={place.id} data-hook={place.id}>
                {place.text}
              </li>
            ))}
          </ul>
        </dd>
        <dt title={t('plugins.admin.appidHint')}>{t('plugins.admin.appid')}</dt>
        <dd title={t('plugins.admin.appidHint')}>
          <code>{plugin.appid}</code>
        </dd>
      </dl>
      {plugin.serverError ? (
        <p className="lt-plugin-card__error" role="alert" data-testid="plugin-server-error">
          {t('plugins.admin.serverError', { message: plugin.serverError })}
        </p>
      ) : null}
      <div className="lt-plugin-card__actions">
        <Button
          size="small"
          type={plugin.enabled ? 'default' : 'primary'}
          loading={pending}
          onClick={() => void toggle()}
          data-testid="plugin-toggle"
        >
          {plugin.enabled ? t('plugins.admin.disable') : t('plugins.admin.enable')}
        </Button>
        <Button
          size="small"
          onClick={() => setShowSettings((v) => !v)}
          aria-expanded={showSettings}
          data-testid="plugin-settings"
        >
          {t('plugins.admin.settings')}
        </Button>
        <Button size="small" type="danger" onClick={() => onDelete(plugin)} data-testid="plugin-delete">
          {t('plugins.admin.delete')}
        </Button>
      </div>
      {showSettings ? <PluginSettingsForm key={plugin.updatedAt} plugin={plugin} onSave={saveSettings} /> : null}
    </article>
  );
}

/** Plugins: upload (install or update), enable, disable, settings, delete. They work at once, without a restart. */
export function Component() {
  const { t } = useTranslation();
  const locale = usePageLocale();
  const refresh = usePluginsRefresh();
  const list = useAdminQuery<PluginAdminItem[]>(['plugins'], adminApi.plugins.list);
  const [deleting, setDeleting] = useState<PluginAdminItem | null>(null);
  const [pending, setPending] = useState(false);

  const remove = async () => {
    if (!deleting) return;
    setPending(true);
    try {
      const body = { appid: deleting.appid, operate: 'delete' };
      const done = t('plugins.admin.deleted', { name: deleting.pluginNames[locale] });
      if ((await adminCall('POST', adminApi.plugins.operate, body, done)) !== null) {
        setDeleting(null);
        await refresh();
      }
    } catch (error) {
      toast.error(String(error));
    } finally {
      setPending(false);
    }
  };

  return (
    <AdminSection name="plugins" title={t('admin.section.plugins')}>
      <p className="lt-plugin-intro">{t('plugins.admin.intro')}</p>
      <UploadForm />
      {list.error ? (
        <p className="lt-empty">{list.error}</p>
      ) : !list.data ? (
        <Spinner />
      ) : list.data.length === 0 ? (
        <p className="lt-empty" data-testid="plugins-empty">
          {t('plugins.admin.empty')}
        </p>
      ) : (
        <div className="lt-plugin-list">
          {list.data.map((plugin) => (
            <PluginCard key={plugin.appid} plugin={plugin} onDelete={setDeleting} />
          ))}
        </div>
      )}
      <Dialog
        open={deleting !== null}
        title={t('plugins.admin.deleteTitle')}
        onClose={() => setDeleting(null)}
        footer={
          <>
            <Button onClick={() => setDeleting(null)}>{t('plugins.admin.cancel')}</Button>
            <Button type="danger" loading={pending} onClick={() => void remove()} data-testid="plugin-delete-confirm">
              {t('plugins.admin.delete')}
            </Button>
          </>
        }
      >
        <p>{t('plugins.admin.confirmDelete', { name: deleting?.pluginNames[locale] ?? '' })}</p>
      </Dialog>
    </AdminSection>
  );
}

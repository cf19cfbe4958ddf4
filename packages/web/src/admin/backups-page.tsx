import type { BackupListData, BackupListItem, BackupSchedule } from '@luntan/shared';
import { useQuery } from '@tanstack/react-query';
import { startTransition, useEffect, useState, type FormEvent } from 'react';
import { adminApi } from '../api/admin-client';
import { isSuccess, request, type ApiResult } from '../api/dispatcher';
import { useAppContext } from '../app-context';
import { dateTimeText, stableTime } from '../components/forum/time-text';
import { Button, buttonClassName, Spinner, TextInput, toast } from '../components/ui';
import { useTranslation } from '../i18n/use-translation';
import type { RouteHandle } from '../routing/handle';
import { useAdminRefresh } from './admin-api';
import { AdminSection, useConfirmDelete } from './admin-ui';
import { AdminTable } from './admin-table';
import './backups-page.css';

export const handle: RouteHandle = { title: (t) => t('admin.section.backups') };

/** While a backup is being made, the list is read again this often, until it is done or failed. */
const POLL_MS = 2000;

const UNITS = ['KB', 'MB', 'GB', 'TB'] as const;

/** "96 B", "820.0 KB", "4.4 MB", "120 GB". */
export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(value >= 100 ? 0 : 1)} ${UNITS[unit]}`;
}

const hasRunning = (data: BackupListData | null | undefined) =>
  Boolean(data?.backups.some((backup) => backup.status === 'running'));

/** The list and the schedule; read again every 2 s while a backup is running. */
function useBackupList() {
  const { api } = useAppContext();
  const query = useQuery({
    queryKey: ['admin', 'backups'],
    queryFn: (): Promise<ApiResult<BackupListData>> => api.get<BackupListData>(adminApi.backups.list),
    refetchInterval: ({ state }) =>
      state.data && isSuccess(state.data) && hasRunning(state.data.Data) ? POLL_MS : false,
  });
  const result = query.data;
  return {
    data: result && isSuccess(result) ? result.Data : null,
    error: result && !isSuccess(result) ? result.Message : null,
  };
}

/**
 * A write whose refusal the page shows itself (beside the button or the form): the server's message. `redirects`
 * false keeps the shared handler from leaving the page (deleting a backup already gone answers -4004).
 */
async function send<T>(url: string, data: unknown, redirects = true): Promise<{ data: T } | { error: string }> {
  const result = await request<T>({ url, method: 'POST', data, handleError: redirects });
  return isSuccess(result) ? { data: result.Data } : { error: result.Message };
}

/** A moment as the reader's date and time: the UTC text in the server's HTML, the local one once the page runs. */
function MadeAt({ iso }: { iso: string }) {
  const { t } = useTranslation();
  const [text, setText] = useState(() => stableTime(iso));
  useEffect(() => {
    startTransition(() => setText(dateTimeText(Date.parse(iso), t)));
  }, [iso, t]);
  return (
    <time dateTime={iso} title={stableTime(iso)}>
      {text}
    </time>
  );
}

function StatusText({ backup }: { backup: BackupListItem }) {
  const { t } = useTranslation();
  return (
    <>
      <span
        className={`lt-admin-backups__status lt-admin-backups__status--${backup.status}`}
        data-testid="backup-status"
      >
        {backup.status === 'running' ? <Spinner size={14} label={t('admin.backups.status.running')} /> : null}
        {t(`admin.backups.status.${backup.status}`)}
      </span>
      {backup.status === 'failed' && backup.error ? (
        <div className="lt-admin-backups__error" data-testid="backup-error">
          {backup.error}
        </div>
      ) : null}
    </>
  );
}

function BackupRow({ backup }: { backup: BackupListItem }) {
  const { t } = useTranslation();
  const refresh = useAdminRefresh();
  const { confirmDelete, dialog } = useConfirmDelete();
  const [deleting, setDeleting] = useState(false);
  const done = backup.status === 'done';
  const column = (key: 'status' | 'archive' | 'counts' | 'walletSum' | 'files') => t(`admin.backups.column.${key}`);

  const remove = async () => {
    const time = dateTimeText(Date.parse(backup.createdAt), t);
    if (!(await confirmDelete(t('admin.backups.confirmDelete', { time })))) return;
    setDeleting(true);
    const sent = await send(adminApi.backups.delete, { id: backup.id }, false);
    setDeleting(false);
    if ('error' in sent) {
      toast.error(sent.error);
      return;
    }
    toast.success(t('admin.deleted'));
    await refresh('backups');
  };

  // An archive on a disk that is not this machine's (several machines behind one address) cannot come from here.
  const where = backup.location === 'bucket' ? 'bucket' : backup.available ? 'disk' : 'elsewhere';
  const { counts, files } = backup;
  return (
    <tr data-testid="backup-row" data-backup-id={backup.id} data-status={backup.status}>
      <td className="lt-admin-backups__made" title={backup.name}>
        <MadeAt iso={backup.createdAt} />
        <div className="lt-hint" data-testid="backup-origin">
          {t(`admin.backups.origin.${backup.origin}`)}
        </div>
      </td>
      <td className="lt-admin-backups__status-cell" data-label={column('status')}>
        <StatusText backup={backup} />
      </td>
      <td className="lt-num" data-label={column('archive')}>
        {done ? (
          <>
            {sizeText(backup.bytes)}
            <div className="lt-hint" data-testid="backup-where">
              {t(`admin.backups.where.${where}`)}
            </div>
          </>
        ) : (
          '—'
        )}
      </td>
      <td
        className="lt-num"
        data-label={column('counts')}
        data-testid="backup-counts"
        title={counts ? t('admin.backups.counts', counts) : undefined}
      >
        {counts ? `${counts.users} / ${counts.threads} / ${counts.posts}` : '—'}
      </td>
      <td className="lt-num" data-label={column('walletSum')} data-testid="backup-wallet-sum">
        {backup.walletSum ?? '—'}
      </td>
      <td className="lt-admin-backups__files" data-label={column('files')}>
        {!files ? (
          '—'
        ) : files.where === 'archive' ? (
          <>
            {t('admin.backups.files.archive', { count: files.count })}
            <div className="lt-hint">{sizeText(files.bytes)}</div>
          </>
        ) : (
          t('admin.backups.files.bucket')
        )}
      </td>
      <td className="lt-table__end">
        <div className="lt-table__actions">
          {done && backup.available ? (
            <a
              className={buttonClassName({ size: 'small' })}
              href={adminApi.backups.download(backup.id)}
              download={backup.name}
              title={backup.name}
              data-testid="backup-download"
            >
              {t('admin.backups.download')}
            </a>
          ) : null}
          {done && !backup.available ? (
            <span className="lt-hint" title={t('admin.backups.notHereHint')} data-testid="backup-not-here">
              {t('admin.backups.notHere')}
            </span>
          ) : null}
          {backup.status !== 'running' ? (
            <Button
              size="small"
              type="text"
              loading={deleting}
              onClick={() => void remove()}
              data-testid="backup-delete"
            >
              {t('admin.delete')}
            </Button>
          ) : null}
        </div>
        {dialog}
      </td>
    </tr>
  );
}

interface ScheduleDraft {
  enabled: boolean;
  time: string;
  keep: string;
}
const draftOf = (schedule: BackupSchedule): ScheduleDraft => ({ ...schedule, keep: String(schedule.keep) });

/** The daily backup: on or off, its time and how many scheduled archives are kept; the server checks the values. */
function ScheduleForm({ saved }: { saved: BackupSchedule }) {
  const { t } = useTranslation();
  const refresh = useAdminRefresh();
  const [draft, setDraft] = useState(() => draftOf(saved));
  const [pending, setPending] = useState(false);
  const [outcome, setOutcome] = useState<{ error: string } | 'saved' | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setPending(true);
    setOutcome(null);
    // The keep box is left as typed (empty too): the server's message names what is wrong.
    const keep = draft.keep.trim() === '' ? null : Number(draft.keep);
    const sent = await send<BackupSchedule>(adminApi.backups.schedule, { ...draft, time: draft.time.trim(), keep });
    setPending(false);
    if ('error' in sent) {
      setOutcome({ error: sent.error });
      return;
    }
    setDraft(draftOf(sent.data));
    setOutcome('saved');
    toast.success(t('admin.saved'));
    await refresh('backups');
  };
  const edit = (change: Partial<ScheduleDraft>) => {
    setDraft((d) => ({ ...d, ...change }));
    setOutcome(null);
  };

  return (
    <form
      className="lt-card lt-admin-form"
      onSubmit={(e) => void submit(e)}
      aria-labelledby="backup-schedule-title"
      data-testid="backup-schedule"
    >
      <h2 id="backup-schedule-title" className="lt-card__title">
        {t('admin.backups.schedule.title')}
      </h2>
      <p className="lt-admin-backups__intro" data-testid="backup-schedule-state">
        {saved.enabled
          ? t('admin.backups.schedule.on', { time: saved.time, keep: saved.keep })
          : t('admin.backups.schedule.off')}
      </p>
      <div className="lt-admin-form__row lt-admin-backups__schedule">
        <label className="lt-check lt-admin-backups__switch">
          <input
            type="checkbox"
            role="switch"
            name="enabled"
            checked={draft.enabled}
            onChange={(e) => edit({ enabled: e.target.checked })}
          />
          {t('admin.backups.schedule.enabled')}
        </label>
        <TextInput
          name="time"
          label={t('admin.backups.schedule.time')}
          placeholder="03:00"
          maxLength={5}
          spellCheck={false}
          autoComplete="off"
          value={draft.time}
          onChange={(time) => edit({ time })}
        />
        <TextInput
          name="keep"
          mode="number"
          label={t('admin.backups.schedule.keep')}
          value={draft.keep}
          onChange={(keep) => edit({ keep })}
        />
      </div>
      <div className="lt-admin-form__actions lt-admin-backups__actions">
        {outcome === 'saved' ? (
          <span className="lt-admin-backups__saved" role="status" data-testid="backup-schedule-saved">
            {t('admin.backups.schedule.saved')}
          </span>
        ) : null}
        {outcome && outcome !== 'saved' ? (
          <p className="lt-admin-backups__refusal" role="alert" data-testid="backup-schedule-error">
            {outcome.error}
          </p>
        ) : null}
        <Button type="primary" htmlType="submit" loading={pending} data-testid="backup-schedule-save">
          {t('admin.backups.schedule.save')}
        </Button>
      </div>
    </form>
  );
}

/** What the server's commands do (they are not buttons: restoring replaces the forum this page runs on). */
function CommandHelp() {
  const { t } = useTranslation();
  return (
    <section className="lt-card" aria-labelledby="backup-help-title" data-testid="backup-help">
      <h2 id="backup-help-title" className="lt-card__title">
        {t('admin.backups.help.title')}
      </h2>
      <dl className="lt-admin-backups__commands">
        <dt>
          <code>npm run backup</code>
        </dt>
        <dd>{t('admin.backups.help.backup')}</dd>
        <dt>
          <code>npm run restore -- FILE</code>
        </dt>
        <dd>{t('admin.backups.help.restore')}</dd>
      </dl>
      <p className="lt-admin-backups__intro">{t('admin.backups.help.docs', { file: 'docs/operations.md' })}</p>
    </section>
  );
}

/** Backups: make one now, the list (download, delete), the daily schedule, and the commands that restore. */
export function Component() {
  const { t } = useTranslation();
  const list = useBackupList();
  const refresh = useAdminRefresh();
  const [starting, setStarting] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const running = hasRunning(list.data);

  const start = async () => {
    setStarting(true);
    setRefusal(null);
    const sent = await send<{ id: number }>(adminApi.backups.start, {});
    if ('error' in sent) setRefusal(sent.error);
    else toast.success(t('admin.backups.started'));
    await refresh('backups');
    setStarting(false);
  };

  return (
    <>
      <AdminSection name="backups" title={t('admin.section.backups')}>
        <p className="lt-admin-backups__intro">{t('admin.backups.intro')}</p>
        <div className="lt-toolbar lt-admin-backups__toolbar">
          <Button
            type="primary"
            loading={starting}
            disabled={running || !list.data}
            onClick={() => void start()}
            data-testid="backup-start"
          >
            {t('admin.backups.makeNow')}
          </Button>
          {running ? <span className="lt-hint">{t('admin.backups.runningNote')}</span> : null}
        </div>
        {refusal ? (
          <p className="lt-admin-backups__refusal" role="alert" data-testid="backup-refusal">
            {refusal}
          </p>
        ) : null}
        <AdminTable
          label={t('admin.section.backups')}
          className="lt-admin-backups"
          testId="backup-table"
          stack
          columns={[
            { key: 'created', header: t('admin.backups.column.created') },
            { key: 'status', header: t('admin.backups.column.status') },
            { key: 'archive', header: t('admin.backups.column.archive') },
            { key: 'counts', header: t('admin.backups.column.counts') },
            { key: 'walletSum', header: t('admin.backups.column.walletSum') },
            { key: 'files', header: t('admin.backups.column.files') },
            { key: 'actions', header: t('admin.actions'), end: true },
          ]}
          rows={list.data?.backups ?? null}
          error={list.error}
          empty={t('admin.backups.empty')}
          row={(backup) => <BackupRow key={backup.id} backup={backup} />}
        />
      </AdminSection>
      {list.data ? <ScheduleForm saved={list.data.schedule} /> : null}
      <CommandHelp />
    </>
  );
}

import type { Page, ReportBatchResult, ReportItem } from '@luntan/shared';
import { useState } from 'react';
import { useTranslation } from '../i18n/use-translation';
import { Link, useSearchParams } from 'react-router';
import { positiveInt } from '../api/forum-queries';
import { Pager } from '../components/forum/pager';
import { TimeText } from '../components/forum/time-text';
import { Button, Spinner, TextInput, toast } from '../components/ui';
import type { RouteHandle } from '../routing/handle';
import { adminCall, useAdminQuery, useAdminRefresh } from './admin-api';
import { AdminSection, useSelection } from './admin-ui';
import '../components/community/community.css';
import { adminApi } from '../api/admin-client';

export const handle: RouteHandle = { title: (t) => t('admin.section.reports') };

const STATUSES = ['0', '1', '2'] as const;
const TYPES = ['0', '1', '2'] as const;

/** Where a report's target is seen. */
function targetLink(r: ReportItem): string {
  if (r.type === 0) return `/user/${r.target.userId ?? 0}`;
  return `/thread/${r.target.threadId ?? 0}`;
}

function ReportRow({
  report,
  open,
  checked,
  onCheck,
  onDecide,
}: {
  report: ReportItem;
  open: boolean;
  checked: boolean;
  onCheck: (on: boolean) => void;
  onDecide: (status: 1 | 2) => void;
}) {
  const { t } = useTranslation();
  const title =
    report.type === 0
      ? report.target.nickname || report.target.username
      : report.target.title || `#${report.target.threadId}`;
  return (
    <article className="lt-review-item lt-report-item" data-testid="report-item" data-id={report.id}>
      <header className="lt-toolbar">
        <label className="lt-check">
          {open ? <input type="checkbox" checked={checked} onChange={(e) => onCheck(e.target.checked)} /> : null}
          <span className="lt-tag">{t(`community.admin.reports.typeOf.${String(report.type) as '0'}`)}</span>
          <Link to={targetLink(report)}>{title}</Link>
          {report.target.deleted ? (
            <span className="lt-tag lt-tag--review">{t('community.admin.reports.deleted')}</span>
          ) : null}
        </label>
        <span className="lt-empty--small">
          {t('community.admin.reports.reporter')}: {report.reporter?.nickname ?? '-'} ·{' '}
          <TimeText iso={report.createdAt} />
        </span>
      </header>
      {report.type !== 0 && report.target.excerpt ? <p className="lt-empty--small">{report.target.excerpt}</p> : null}
      {report.type !== 0 ? (
        <p className="lt-empty--small">
          {t('community.admin.reports.target')}: {report.target.nickname}
        </p>
      ) : null}
      <p data-testid="report-reason">
        <strong>{t('community.admin.reports.reason')}:</strong> {report.reason}
      </p>
      {open ? (
        <div className="lt-table__actions">
          <Button size="small" type="primary" onClick={() => onDecide(1)} data-testid="report-handle">
            {t('community.admin.reports.handle')}
          </Button>
          <Button size="small" onClick={() => onDecide(2)} data-testid="report-ignore">
            {t('community.admin.reports.ignore')}
          </Button>
        </div>
      ) : (
        <p className="lt-empty--small">
          {t('community.admin.reports.handler')}: {report.handler?.nickname ?? '-'}
          {report.handledAt ? (
            <>
              {' · '}
              <TimeText iso={report.handledAt} />
            </>
          ) : null}
          {report.remark ? ` · ${report.remark}` : ''}
        </p>
      )}
    </article>
  );
}

/** Reports: open ones to handle or ignore (one or many, with a remark the reporters are told), and decided ones. */
export function Component() {
  const { t } = useTranslation();
  const refresh = useAdminRefresh();
  const [search, setSearch] = useSearchParams();
  const status = STATUSES.find((s) => s === search.get('status')) ?? '0';
  const type = TYPES.find((s) => s === search.get('type')) ?? '';
  const page = positiveInt(search.get('page'), 1);
  const list = useAdminQuery<Page<ReportItem>>(['reports', status, type, page], adminApi.reports.list, {
    page,
    perPage: 20,
    filter: type ? { status, type } : { status },
  });
  const { selected, toggle, clear } = useSelection();
  const [remark, setRemark] = useState('');
  const open = status === '0';

  const decide = async (ids: number[], to: 1 | 2) => {
    const body = { ids, status: to, ...(remark.trim() ? { remark: remark.trim() } : {}) };
    const done = await adminCall<ReportBatchResult>('POST', adminApi.reports.batch, body);
    if (!done) return;
    if (done.updated.length === 0) toast.warning(t('community.admin.reports.alreadyDecided'));
    else toast.success(to === 1 ? t('community.admin.reports.handled') : t('community.admin.reports.ignored'));
    clear();
    setRemark('');
    await refresh('reports');
  };
  const go = (values: { status?: string; type?: string }) => {
    const next = new URLSearchParams();
    const s = values.status ?? status;
    const ty = values.type ?? type;
    if (s !== '0') next.set('status', s);
    if (ty) next.set('type', ty);
    clear();
    setSearch(next);
  };
  const items = list.data?.pageData ?? [];

  return (
    <AdminSection name="reports" title={t('admin.section.reports')}>
      <div className="lt-toolbar">
        <nav className="lt-tabs" aria-label={t('community.admin.reports.status')}>
          {STATUSES.map((s) => (
            <button
              key={s}
              type="button"
              className={`lt-tab${s === status ? ' lt-tab--active' : ''}`}
              aria-pressed={s === status}
              onClick={() => go({ status: s })}
            >
              {t(`community.admin.reports.statusOf.${s}`)}
            </button>
          ))}
        </nav>
        <select
          className="lt-select lt-select--small"
          aria-label={t('community.admin.reports.type')}
          value={type}
          onChange={(e) => go({ type: e.target.value })}
        >
          <option value="">{t('community.admin.reports.allTypes')}</option>
          {TYPES.map((ty) => (
            <option key={ty} value={ty}>
              {t(`community.admin.reports.typeOf.${ty}`)}
            </option>
          ))}
        </select>
      </div>
      {list.error ? <p className="lt-empty">{list.error}</p> : null}
      {!list.data ? <Spinner /> : null}
      {list.data && items.length === 0 ? <p className="lt-empty">{t('community.admin.reports.empty')}</p> : null}
      {open && items.length > 0 ? (
        <>
          <TextInput
            name="remark"
            label={t('community.admin.reports.remark')}
            value={remark}
            onChange={setRemark}
            maxLength={200}
          />
          <label className="lt-check">
            <input
              type="checkbox"
              checked={items.length > 0 && items.every((r) => selected.has(r.id))}
              onChange={(e) => items.forEach((r) => toggle(r.id, e.target.checked))}
            />
            {t('community.admin.reports.selectAll')}
          </label>
        </>
      ) : null}
      {items.map((r) => (
        <ReportRow
          key={r.id}
          report={r}
          open={open}
          checked={selected.has(r.id)}
          onCheck={(on) => toggle(r.id, on)}
          onDecide={(to) => void decide([r.id], to)}
        />
      ))}
      {items.length > 0 ? (
        <div className="lt-toolbar">
          {open ? (
            <div className="lt-table__actions">
              <Button
                type="primary"
                disabled={selected.size === 0}
                onClick={() => void decide([...selected], 1)}
                data-testid="reports-handle-selected"
              >
                {t('community.admin.reports.handleSelected', { count: selected.size })}
              </Button>
              <Button disabled={selected.size === 0} onClick={() => void decide([...selected], 2)}>
                {t('community.admin.reports.ignoreSelected', { count: selected.size })}
              </Button>
            </div>
          ) : (
            <span />
          )}
          {list.data ? <Pager current={list.data.currentPage} total={list.data.totalPage} /> : null}
        </div>
      ) : null}
    </AdminSection>
  );
}

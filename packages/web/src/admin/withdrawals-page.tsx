import { CashStatus, type CashItem, type Page } from '@luntan/shared';
import { useState, type FormEvent } from 'react';
import { useTranslation } from '../i18n/use-translation';
import { useSearchParams } from 'react-router';
import { positiveInt } from '../api/forum-queries';
import { TimeText } from '../components/forum/time-text';
import { Button, PromptDialog, TextInput, toast } from '../components/ui';
import type { RouteHandle } from '../routing/handle';
import { adminCall, useAdminQuery, useAdminRefresh } from './admin-api';
import { AdminSection, RowCheckbox, useSelection } from './admin-ui';
import { AdminTable } from './admin-table';
import { adminApi } from '../api/admin-client';

export const handle: RouteHandle = { title: (t) => t('admin.section.withdrawals') };

/** Withdrawal statuses and their text keys. */
const STATUS_KEYS = { 1: 'pending', 2: 'approved', 3: 'rejected', 5: 'paid', 6: 'payoutFailed' } as const;
const STATUSES = [1, 2, 3, 5, 6] as const;
const statusKey = (status: number) => STATUS_KEYS[status as keyof typeof STATUS_KEYS] ?? 'pending';

/** What a review sets: 2 approve, 3 reject, 5 mark paid (by hand). */
type Decision = 2 | 3 | 5;
const DECISION_KEYS: Record<Decision, 'approve' | 'reject' | 'markPaid'> = { 2: 'approve', 3: 'reject', 5: 'markPaid' };

/** Which decisions a withdrawal in this status can take: approve or reject a pending one, pay or reject an approved one. */
function decisionsFor(status: number): Decision[] {
  if (status === CashStatus.PENDING) return [2, 3];
  if (status === CashStatus.APPROVED) return [5, 3];
  return [];
}

/** wallet.cash.review's answer: the ids that went through, and those that did not with why (a key and a sentence). */
interface ReviewAnswer {
  succeeded: number[];
  failed: Array<{ id: number; reason: string; message: string }>;
}

/** Withdrawals: filter by status and member, approve, reject or mark paid, singly or in bulk, with a remark. */
export function Component() {
  const { t } = useTranslation();
  const refresh = useAdminRefresh();
  const [search, setSearch] = useSearchParams();
  const page = positiveInt(search.get('page'), 1);
  const status = search.get('status') ?? String(CashStatus.PENDING);
  const username = search.get('username') ?? '';
  const [draft, setDraft] = useState(username);
  const filter: Record<string, unknown> = {};
  if (status !== '') filter.status = Number(status);
  if (username) filter.username = username;
  const list = useAdminQuery<Page<CashItem>>(['cash', page, status, username], adminApi.withdrawals.list, {
    page,
    perPage: 20,
    filter,
  });
  const { selected, toggle, clear } = useSelection();
  const [asking, setAsking] = useState<{ ids: number[]; decision: Decision } | null>(null);
  const [outcome, setOutcome] = useState<{
    succeeded: number;
    failed: Array<{ id: number; sn: string; message: string }>;
  } | null>(null);

  const apply = (values: { status?: string; username?: string }) => {
    const next = new URLSearchParams();
    const s = values.status ?? status;
    const u = values.username ?? username;
    next.set('status', s);
    if (u) next.set('username', u);
    clear();
    setOutcome(null);
    setSearch(next);
  };
  const submitSearch = (event: FormEvent) => {
    event.preventDefault();
    apply({ username: draft.trim() });
  };

  const review = async (remark: string): Promise<void> => {
    if (!asking) return;
    const answer = await adminCall<ReviewAnswer>('POST', adminApi.withdrawals.review, {
      ids: asking.ids,
      cashStatus: asking.decision,
      remark,
    });
    if (!answer) return;
    const succeeded = answer.succeeded.length;
    // Named by their numbers now: after the refresh they may have left the filtered list.
    const failed = answer.failed.map((f) => ({
      id: f.id,
      sn: list.data?.pageData.find((row) => row.id === f.id)?.cashSn ?? `#${f.id}`,
      message: f.message || f.reason,
    }));
    setOutcome({ succeeded, failed });
    if (answer.failed.length === 0) toast.success(t('admin.cash.done', { count: succeeded }));
    else toast.warning(t('admin.cash.partly', { succeeded, failed: answer.failed.length }));
    setAsking(null);
    clear();
    await refresh('cash');
  };

  const rows = list.data?.pageData ?? [];
  const selectable = rows.filter((row) => decisionsFor(row.cashStatus).length > 0);
  // The bulk buttons offer what every ticked row can take.
  const ticked = rows.filter((row) => selected.has(row.id));
  const bulk = ([2, 5, 3] as Decision[]).filter(
    (d) => ticked.length > 0 && ticked.every((row) => decisionsFor(row.cashStatus).includes(d)),
  );

  return (
    <AdminSection name="withdrawals" title={t('admin.section.withdrawals')}>
      <form className="lt-toolbar lt-toolbar--start" onSubmit={submitSearch} role="search">
        <div className="lt-field">
          <label className="lt-field__label" htmlFor="cash-status">
            {t('admin.cash.statusLabel')}
          </label>
          <select
            id="cash-status"
            className="lt-select"
            value={status}
            onChange={(e) => apply({ status: e.target.value })}
          >
            <option value="">{t('admin.cash.allStatuses')}</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(`admin.cash.status.${statusKey(s)}`)}
              </option>
            ))}
          </select>
        </div>
        <TextInput name="username" label={t('admin.cash.username')} value={draft} onChange={setDraft} maxLength={50} />
        <Button type="primary" htmlType="submit">
          {t('admin.users.searchButton')}
        </Button>
      </form>
      {outcome ? (
        <div className="lt-outcome" role="status" data-testid="cash-outcome">
          <p>{t('admin.cash.succeeded', { count: outcome.succeeded })}</p>
          {outcome.failed.length > 0 ? (
            <>
              <p className="lt-outcome__failed">{t('admin.cash.failed', { count: outcome.failed.length })}</p>
              <ul>
                {outcome.failed.map((f) => (
                  <li key={f.id}>{t('admin.cash.failedOne', { sn: f.sn, reason: f.message })}</li>
                ))}
              </ul>
            </>
          ) : null}
        </div>
      ) : null}
      <AdminTable
        label={t('admin.section.withdrawals')}
        stack
        columns={[
          { key: 'select', header: <span className="lt-visually-hidden">{t('admin.select')}</span> },
          { key: 'member', header: t('admin.cash.member') },
          { key: 'amount', header: t('admin.cash.amount') },
          { key: 'account', header: t('admin.cash.account') },
          { key: 'status', header: t('admin.cash.statusLabel') },
          { key: 'applied', header: t('admin.cash.applied') },
          { key: 'actions', header: t('admin.actions') },
        ]}
        rows={list.data}
        error={list.error}
        headWhenEmpty
        toolbar={
          <div className="lt-toolbar lt-toolbar--start">
            <label className="lt-check">
              <input
                type="checkbox"
                disabled={selectable.length === 0}
                checked={selectable.length > 0 && selectable.every((row) => selected.has(row.id))}
                onChange={(e) => selectable.forEach((row) => toggle(row.id, e.target.checked))}
              />
              {t('admin.cash.selectAll')}
            </label>
            {bulk.map((d) => (
              <Button
                key={d}
                size="small"
                type={d === 3 ? 'danger' : 'primary'}
                onClick={() => setAsking({ ids: ticked.map((r) => r.id), decision: d })}
                data-testid={`cash-bulk-${DECISION_KEYS[d]}`}
              >
                {t(`admin.cash.bulk.${DECISION_KEYS[d]}`, { count: ticked.length })}
              </Button>
            ))}
          </div>
        }
        row={(row) => {
          const decisions = decisionsFor(row.cashStatus);
          return (
            <tr key={row.id} data-testid="cash-row" data-cash-id={row.id}>
              <td>
                <RowCheckbox
                  label={t('admin.selectOne', { name: row.cashSn })}
                  checked={selected.has(row.id)}
                  disabled={decisions.length === 0}
                  onChange={(on) => toggle(row.id, on)}
                />
              </td>
              <td>
                <strong>{row.username ?? `#${row.userId}`}</strong>
                <div className="lt-empty--small lt-num">{row.cashSn}</div>
              </td>
              <td className="lt-num" data-label={t('admin.cash.amount')}>
                ¥{row.cashApplyAmount}
                <div className="lt-empty--small">{t('admin.cash.feeOf', { amount: row.cashCharge })}</div>
              </td>
              <td className="lt-table__wrap" data-label={t('admin.cash.account')}>
                {row.receiveAccount}
              </td>
              <td data-label={t('admin.cash.statusLabel')}>
                <span className={`lt-cash-status lt-cash-status--${statusKey(row.cashStatus)}`}>
                  {t(`admin.cash.status.${statusKey(row.cashStatus)}`)}
                </span>
                {row.remark ? <div className="lt-empty--small">{row.remark}</div> : null}
              </td>
              <td data-label={t('admin.cash.applied')}>
                <TimeText iso={row.createdAt} />
              </td>
              <td>
                <div className="lt-table__actions">
                  {decisions.map((d) => (
                    <Button
                      key={d}
                      size="small"
                      type={d === 3 ? 'danger' : 'primary'}
                      onClick={() => setAsking({ ids: [row.id], decision: d })}
                    >
                      {t(`admin.cash.${DECISION_KEYS[d]}`)}
                    </Button>
                  ))}
                </div>
              </td>
            </tr>
          );
        }}
      />
      <PromptDialog
        open={asking !== null}
        title={
          !asking
            ? ''
            : asking.ids.length === 1
              ? t(`admin.cash.confirmOne.${DECISION_KEYS[asking.decision]}`)
              : t(`admin.cash.confirm.${DECISION_KEYS[asking.decision]}`, { count: asking.ids.length })
        }
        label={t('admin.cash.remark')}
        placeholder={t('admin.cash.remarkPlaceholder')}
        confirmText={asking ? t(`admin.cash.${DECISION_KEYS[asking.decision]}`) : ''}
        cancelText={t('admin.cancel')}
        danger={asking?.decision === 3}
        maxLength={200}
        onCancel={() => setAsking(null)}
        onConfirm={review}
      />
    </AdminSection>
  );
}

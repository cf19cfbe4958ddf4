import {
  OrderStatus,
  OrderType,
  WalletChangeType,
  type OrderInfo,
  type Page,
  type WalletLogItem,
} from '@luntan/shared';
import type { TFunction } from 'i18next';
import { useState, type FormEvent } from 'react';
import { changeTypeLabel, orderTypeLabel } from '../components/money/money-format';
import { useTranslation } from '../i18n/use-translation';
import { TimeText } from '../components/forum/time-text';
import { Button, Spinner, TextInput } from '../components/ui';
import { usePending } from '../hooks/use-pending';
import type { AdminMessages } from '../i18n/zh-admin';
import { adminCall, useAdminQuery, useAdminRefresh } from './admin-api';
import { AdminTable } from './admin-table';
import { adminApi } from '../api/admin-client';

/** The text keys of ledger change types, order types and order states (others read as the member's wallet names them). */
const CHANGE_KEYS: Record<number, keyof AdminMessages['wallet']['change']> = {
  [WalletChangeType.CASH_FREEZE]: 'cashFreeze',
  [WalletChangeType.CASH_PAID]: 'cashPaid',
  [WalletChangeType.CASH_THAW]: 'cashThaw',
  [WalletChangeType.ADMIN_ADD]: 'adminAdd',
  [WalletChangeType.RECHARGE]: 'recharge',
  [WalletChangeType.REWARD_INCOME]: 'rewardIncome',
  [WalletChangeType.THREAD_INCOME]: 'threadIncome',
  [WalletChangeType.REWARD_EXPENSE]: 'rewardExpense',
  [WalletChangeType.THREAD_EXPENSE]: 'threadExpense',
  [WalletChangeType.GROUP_EXPENSE]: 'groupExpense',
  [WalletChangeType.REGISTER_EXPENSE]: 'registerExpense',
  [WalletChangeType.ADMIN_SUBTRACT]: 'adminSubtract',
};
const ORDER_TYPE_KEYS: Record<number, keyof AdminMessages['wallet']['orderType']> = {
  [OrderType.REGISTER]: 'register',
  [OrderType.REWARD]: 'reward',
  [OrderType.THREAD]: 'thread',
  [OrderType.GROUP]: 'group',
  [OrderType.RECHARGE]: 'recharge',
};
const ORDER_STATE_KEYS: Record<number, keyof AdminMessages['wallet']['orderState']> = {
  [OrderStatus.PENDING]: 'pending',
  [OrderStatus.PAID]: 'paid',
  [OrderStatus.CANCELLED]: 'cancelled',
  [OrderStatus.FAILED]: 'failed',
  [OrderStatus.EXPIRED]: 'expired',
  [OrderStatus.REFUNDED]: 'refunded',
};

/** What wallet.update answers. */
interface WalletState {
  availableAmount: string;
  freezeAmount: string;
  walletStatus: number | null;
}

/** A signed amount, green when money came in. */
function Signed({ amount }: { amount: string }) {
  const negative = amount.startsWith('-');
  const zero = /^-?0\.00$/.test(amount);
  return (
    <span className={`lt-num ${zero ? '' : negative ? 'lt-num--out' : 'lt-num--in'}`}>
      {negative || zero ? amount : `+${amount}`}
    </span>
  );
}

function Ledger({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const list = useAdminQuery<Page<WalletLogItem>>(['walletLogs', userId, page], adminApi.users.walletLogs, {
    page,
    perPage: 10,
    filter: { userId },
  });
  if (list.error) return <p className="lt-empty">{list.error}</p>;
  if (!list.data) return <Spinner />;
  return (
    <AdminTable
      label={t('admin.wallet.tab.ledger')}
      className="lt-table--compact"
      testId="wallet-ledger"
      columns={[
        { key: 'time', header: t('admin.wallet.time') },
        { key: 'kind', header: t('admin.wallet.kind') },
        { key: 'available', header: t('admin.wallet.available') },
        { key: 'frozen', header: t('admin.wallet.frozen') },
        { key: 'after', header: t('admin.wallet.balanceAfter') },
        { key: 'note', header: t('admin.wallet.note') },
      ]}
      rows={list.data.pageData}
      empty={t('admin.wallet.noLogs')}
      emptySmall
      row={(row) => (
        <tr key={row.id}>
          <td>
            <TimeText iso={row.createdAt} />
          </td>
          <td>
            {CHANGE_KEYS[row.changeType]
              ? t(`admin.wallet.change.${CHANGE_KEYS[row.changeType]!}`)
              : changeTypeLabel(t as TFunction, row.changeType)}
          </td>
          <td>
            <Signed amount={row.changeAvailableAmount} />
          </td>
          <td>
            <Signed amount={row.changeFreezeAmount} />
          </td>
          <td className="lt-num">
            {row.availableAmount} / {row.freezeAmount}
          </td>
          <td className="lt-table__wrap">{row.changeDesc}</td>
        </tr>
      )}
      pager={<LocalPager page={page} total={list.data.totalPage} onPage={setPage} />}
    />
  );
}

function Orders({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const list = useAdminQuery<Page<OrderInfo>>(['orderLogs', userId, page], adminApi.users.orderLogs, {
    page,
    perPage: 10,
    filter: { userId },
  });
  if (list.error) return <p className="lt-empty">{list.error}</p>;
  if (!list.data) return <Spinner />;
  return (
    <AdminTable
      label={t('admin.wallet.tab.orders')}
      className="lt-table--compact"
      testId="wallet-orders"
      columns={[
        { key: 'time', header: t('admin.wallet.time') },
        { key: 'sn', header: t('admin.wallet.orderSn') },
        { key: 'kind', header: t('admin.wallet.kind') },
        { key: 'amount', header: t('admin.wallet.amount') },
        { key: 'status', header: t('admin.wallet.orderStatus') },
        { key: 'for', header: t('admin.wallet.orderFor') },
      ]}
      rows={list.data.pageData}
      empty={t('admin.wallet.noOrders')}
      emptySmall
      row={(order) => (
        <tr key={order.id}>
          <td>
            <TimeText iso={order.createdAt} />
          </td>
          <td className="lt-num">{order.orderSn}</td>
          <td>
            {ORDER_TYPE_KEYS[order.type]
              ? t(`admin.wallet.orderType.${ORDER_TYPE_KEYS[order.type]!}`)
              : orderTypeLabel(t as TFunction, order.type)}
          </td>
          <td className="lt-num">¥{order.amount}</td>
          <td>
            {ORDER_STATE_KEYS[order.status]
              ? t(`admin.wallet.orderState.${ORDER_STATE_KEYS[order.status]!}`)
              : order.status}
          </td>
          <td className="lt-table__wrap">{order.title}</td>
        </tr>
      )}
      pager={<LocalPager page={page} total={list.data.totalPage} onPage={setPage} />}
    />
  );
}

/** Previous / next inside a panel (the page's own ?page= belongs to the user list). */
function LocalPager({ page, total, onPage }: { page: number; total: number; onPage: (page: number) => void }) {
  const { t } = useTranslation();
  if (total <= 1) return null;
  return (
    <div className="lt-table__actions lt-local-pager">
      <Button size="small" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t('forum.prevPage')}
      </Button>
      <span className="lt-empty--small">
        {page} / {total}
      </span>
      <Button size="small" disabled={page >= total} onClick={() => onPage(page + 1)}>
        {t('forum.nextPage')}
      </Button>
    </div>
  );
}

/**
 * A member's wallet, under their row on the users page: add or subtract money with a reason, freeze or unfreeze it,
 * and read its ledger and orders.
 */
export function UserWallet({ userId, username, colSpan }: { userId: number; username: string; colSpan: number }) {
  const { t } = useTranslation();
  const refresh = useAdminRefresh();
  const [tab, setTab] = useState<'ledger' | 'orders'>('ledger');
  const [operateType, setOperateType] = useState<1 | 2>(1);
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const { pending, run } = usePending();
  // The balances after the latest change (the ledger's newest row), and the status once an update has told it.
  const latest = useAdminQuery<Page<WalletLogItem>>(['walletLogs', userId, 'latest'], adminApi.users.walletLogs, {
    page: 1,
    perPage: 1,
    filter: { userId },
  });
  const [state, setState] = useState<WalletState | null>(null);
  const newest = latest.data?.pageData[0];
  const balance = state ?? (newest ? { ...newest, walletStatus: null } : null);

  const update = async (body: Record<string, unknown>, done: string): Promise<boolean> => {
    const answer = await adminCall<WalletState>('POST', adminApi.users.updateWallet, { userId, ...body }, done);
    if (answer === null) return false;
    setState(answer);
    await refresh('walletLogs');
    await refresh('orderLogs');
    return true;
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const done = await update(
        { operateType, operateAmount: amount.trim(), operateReason: reason.trim() },
        t(operateType === 1 ? 'admin.wallet.added' : 'admin.wallet.subtracted', { amount: amount.trim() }),
      );
      if (done) {
        setAmount('');
        setReason('');
      }
    });
  };

  return (
    <tr className="lt-wallet-row">
      <td colSpan={colSpan}>
        <section className="lt-wallet" aria-label={t('admin.wallet.of', { name: username })} data-testid="user-wallet">
          <p className="lt-wallet__balance" data-testid="wallet-balance">
            {balance
              ? t('admin.wallet.balance', { available: balance.availableAmount, frozen: balance.freezeAmount })
              : t('admin.wallet.balance', { available: '0.00', frozen: '0.00' })}
            {balance?.walletStatus === 1 ? (
              <span className="lt-cash-status lt-cash-status--rejected">{t('admin.wallet.isFrozen')}</span>
            ) : null}
          </p>
          <form className="lt-wallet__form" onSubmit={submit}>
            <div className="lt-field">
              <label className="lt-field__label" htmlFor={`wallet-op-${userId}`}>
                {t('admin.wallet.operation')}
              </label>
              <select
                id={`wallet-op-${userId}`}
                className="lt-select"
                value={operateType}
                onChange={(e) => setOperateType(Number(e.target.value) === 2 ? 2 : 1)}
              >
                <option value={1}>{t('admin.wallet.add')}</option>
                <option value={2}>{t('admin.wallet.subtract')}</option>
              </select>
            </div>
            <TextInput
              name="operateAmount"
              label={t('admin.wallet.amount')}
              inputMode="decimal"
              value={amount}
              onChange={setAmount}
              append="¥"
              appendWidth="32px"
              maxLength={14}
            />
            <TextInput
              name="operateReason"
              label={t('admin.wallet.reason')}
              value={reason}
              onChange={setReason}
              maxLength={200}
            />
            <Button type="primary" htmlType="submit" loading={pending} data-testid="wallet-apply">
              {t('admin.wallet.apply')}
            </Button>
          </form>
          <div className="lt-table__actions">
            <Button
              size="small"
              type="danger"
              onClick={() => void update({ walletStatus: 1 }, t('admin.wallet.frozenDone'))}
            >
              {t('admin.wallet.freeze')}
            </Button>
            <Button size="small" onClick={() => void update({ walletStatus: 0 }, t('admin.wallet.unfrozenDone'))}>
              {t('admin.wallet.unfreeze')}
            </Button>
          </div>
          <nav className="lt-tabs" aria-label={t('admin.wallet.records')}>
            {(['ledger', 'orders'] as const).map((key) => (
              <button
                key={key}
                type="button"
                className={`lt-tab${tab === key ? ' lt-tab--active' : ''}`}
                aria-pressed={tab === key}
                onClick={() => setTab(key)}
              >
                {t(`admin.wallet.tab.${key}`)}
              </button>
            ))}
          </nav>
          {tab === 'ledger' ? <Ledger userId={userId} /> : <Orders userId={userId} />}
        </section>
      </td>
    </tr>
  );
}

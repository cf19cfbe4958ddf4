import type { CashItem, OrderInfo, WalletLogItem } from '@luntan/shared';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { useLocation, useNavigate } from 'react-router';
import { isSuccess } from '../../api/dispatcher';
import { cashListQuery, orderListQuery, walletLogQuery, type LedgerFilter } from '../../api/money-queries';
import { useAppContext } from '../../app-context';
import { Pager } from '../forum/pager';
import { TimeText } from '../forum/time-text';
import { Button, Spinner } from '../ui';
import {
  CHANGE_TYPES,
  cashStatusLabel,
  changeTypeLabel,
  moneyText,
  orderStatusLabel,
  orderTypeLabel,
  payTypeLabel,
} from './money-format';

/*
 * The wallet's three lists: the ledger (with its filter), my orders, my withdrawals. Rows rather than tables, so
 * the same markup reads on a phone.
 */

const isDate = (value: string | null): value is string => value !== null && /^\d{4}-\d{2}-\d{2}$/.test(value);

/** The ledger's filter from the address: `?type=31&from=2026-11-01&to=2026-11-30`. */
export function readLedgerFilter(params: URLSearchParams): LedgerFilter {
  const type = params.get('type');
  const from = params.get('from');
  const to = params.get('to');
  return {
    changeType: type && /^\d{1,3}$/.test(type) ? type : '',
    from: isDate(from) ? from : '',
    to: isDate(to) ? to : '',
  };
}

/** A signed change: +20.00 in green, -5.00 plain. */
function Change({ amount }: { amount: string }) {
  const { t } = useTranslation();
  const negative = amount.startsWith('-');
  const zero = /^-?0+(\.0+)?$/.test(amount);
  return (
    <span className={`lt-money-change${negative ? ' lt-money-change--out' : zero ? '' : ' lt-money-change--in'}`}>
      {negative ? '-' : zero ? '' : '+'}
      {moneyText(t, negative ? amount.slice(1) : amount)}
    </span>
  );
}

function LedgerFilterForm({ filter }: { filter: LedgerFilter }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const [draft, setDraft] = useState(filter);

  const go = (next: LedgerFilter): void => {
    const params = new URLSearchParams(location.search);
    params.delete('page');
    for (const [key, value] of [
      ['type', next.changeType],
      ['from', next.from],
      ['to', next.to],
    ] as const) {
      if (value) params.set(key, value);
      else params.delete(key);
    }
    const query = params.toString();
    void navigate(`${location.pathname}${query ? `?${query}` : ''}`, { preventScrollReset: true });
  };

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    go(draft);
  };

  return (
    <form className="lt-ledger-filter" onSubmit={submit} data-testid="ledger-filter">
      <label className="lt-ledger-filter__field">
        <span className="lt-field__label">{t('money.log.type')}</span>
        <select
          className="lt-select"
          value={draft.changeType}
          onChange={(event) => setDraft((d) => ({ ...d, changeType: event.target.value }))}
          data-testid="ledger-type"
        >
          <option value="">{t('money.log.allTypes')}</option>
          {CHANGE_TYPES.map((type) => (
            <option key={type} value={String(type)}>
              {changeTypeLabel(t, type)}
            </option>
          ))}
        </select>
      </label>
      <label className="lt-ledger-filter__field">
        <span className="lt-field__label">{t('money.log.from')}</span>
        <input
          type="date"
          className="lt-select"
          value={draft.from}
          max={draft.to || undefined}
          onChange={(event) => setDraft((d) => ({ ...d, from: event.target.value }))}
          data-testid="ledger-from"
        />
      </label>
      <label className="lt-ledger-filter__field">
        <span className="lt-field__label">{t('money.log.to')}</span>
        <input
          type="date"
          className="lt-select"
          value={draft.to}
          min={draft.from || undefined}
          onChange={(event) => setDraft((d) => ({ ...d, to: event.target.value }))}
          data-testid="ledger-to"
        />
      </label>
      <div className="lt-ledger-filter__actions">
        <Button type="primary" htmlType="submit" data-testid="ledger-apply">
          {t('money.log.filter')}
        </Button>
        <Button
          onClick={() => {
            const empty = { changeType: '', from: '', to: '' };
            setDraft(empty);
            go(empty);
          }}
        >
          {t('money.log.clear')}
        </Button>
      </div>
    </form>
  );
}

function LedgerRow({ item }: { item: WalletLogItem }) {
  const { t } = useTranslation();
  const frozenMoved = !/^-?0+(\.0+)?$/.test(item.changeFreezeAmount);
  const label = changeTypeLabel(t, item.changeType);
  // The server's description often repeats the type ("充值"): shown only when it says more.
  const desc = item.changeDesc.trim() && item.changeDesc.trim() !== label ? item.changeDesc : '';
  return (
    <li className="lt-money-row" data-testid="ledger-row" data-change-type={item.changeType}>
      <div className="lt-money-row__main">
        <span className="lt-money-row__title">{label}</span>
        {desc ? <span className="lt-money-row__desc">{desc}</span> : null}
        <TimeText iso={item.createdAt} className="lt-money-row__time" />
      </div>
      <div className="lt-money-row__side">
        <Change amount={item.changeAvailableAmount} />
        {frozenMoved ? (
          <span className="lt-money-row__sub">
            {t('money.log.frozenChange')} <Change amount={item.changeFreezeAmount} />
          </span>
        ) : null}
        <span className="lt-money-row__sub">
          {t('money.log.balance')} {moneyText(t, item.availableAmount)}
        </span>
      </div>
    </li>
  );
}

export function Ledger({ viewerId, page, filter }: { viewerId: number; page: number; filter: LedgerFilter }) {
  const { t } = useTranslation();
  const { api } = useAppContext();
  const result = useQuery(walletLogQuery(api, viewerId, page, filter)).data;
  const list = result && isSuccess(result) ? result.Data : null;
  const filterKey = `${filter.changeType}|${filter.from}|${filter.to}`;
  return (
    <div className="lt-money-list" data-testid="ledger">
      <LedgerFilterForm key={filterKey} filter={filter} />
      {!result ? <Spinner /> : null}
      {result && !list ? <p className="lt-empty">{t('money.loadFailed', { message: result.Message })}</p> : null}
      {list && list.pageData.length === 0 ? <p className="lt-empty">{t('money.log.empty')}</p> : null}
      {list && list.pageData.length > 0 ? (
        <ul className="lt-money-rows">
          {list.pageData.map((item) => (
            <LedgerRow key={item.id} item={item} />
          ))}
        </ul>
      ) : null}
      {list ? <Pager current={list.currentPage} total={list.totalPage} /> : null}
    </div>
  );
}

function OrderRow({ order }: { order: OrderInfo }) {
  const { t } = useTranslation();
  return (
    <li className="lt-money-row" data-testid="order-row" data-order-sn={order.orderSn}>
      <div className="lt-money-row__main">
        <span className="lt-money-row__title">
          {orderTypeLabel(t, order.type)}
          {order.title ? <span className="lt-money-row__desc"> · {order.title}</span> : null}
        </span>
        <span className="lt-money-row__desc">
          {t('money.order.sn')} {order.orderSn}
          {order.paymentType !== null ? ` · ${payTypeLabel(t, order.paymentType)}` : ''}
        </span>
        <TimeText iso={order.createdAt} className="lt-money-row__time" />
      </div>
      <div className="lt-money-row__side">
        <span className="lt-money-row__amount">{moneyText(t, order.amount)}</span>
        <span className={`lt-money-status lt-money-status--order-${order.status}`} data-testid="order-status">
          {orderStatusLabel(t, order.status)}
        </span>
      </div>
    </li>
  );
}

export function OrderList({ viewerId, page }: { viewerId: number; page: number }) {
  const { t } = useTranslation();
  const { api } = useAppContext();
  const result = useQuery(orderListQuery(api, viewerId, page)).data;
  const list = result && isSuccess(result) ? result.Data : null;
  return (
    <div className="lt-money-list" data-testid="order-list">
      {!result ? <Spinner /> : null}
      {result && !list ? <p className="lt-empty">{t('money.loadFailed', { message: result.Message })}</p> : null}
      {list && list.pageData.length === 0 ? <p className="lt-empty">{t('money.order.empty')}</p> : null}
      {list && list.pageData.length > 0 ? (
        <ul className="lt-money-rows">
          {list.pageData.map((order) => (
            <OrderRow key={order.id} order={order} />
          ))}
        </ul>
      ) : null}
      {list ? <Pager current={list.currentPage} total={list.totalPage} /> : null}
    </div>
  );
}

function CashRow({ item }: { item: CashItem }) {
  const { t } = useTranslation();
  return (
    <li className="lt-money-row" data-testid="cash-row" data-cash-sn={item.cashSn}>
      <div className="lt-money-row__main">
        <span className="lt-money-row__title">{t('money.cash.accountLine', { account: item.receiveAccount })}</span>
        <span className="lt-money-row__desc">
          {t('money.cash.sn')} {item.cashSn} · {t('money.cash.fee')} {moneyText(t, item.cashCharge)}
        </span>
        {item.remark ? (
          <span className="lt-money-row__desc">{t('money.cash.remarkLine', { remark: item.remark })}</span>
        ) : null}
        <TimeText iso={item.createdAt} className="lt-money-row__time" />
      </div>
      <div className="lt-money-row__side">
        <span className="lt-money-row__amount">{moneyText(t, item.cashApplyAmount)}</span>
        <span className={`lt-money-status lt-money-status--cash-${item.cashStatus}`} data-testid="cash-status">
          {cashStatusLabel(t, item.cashStatus)}
        </span>
      </div>
    </li>
  );
}

export function CashList({ viewerId, page }: { viewerId: number; page: number }) {
  const { t } = useTranslation();
  const { api } = useAppContext();
  const result = useQuery(cashListQuery(api, viewerId, page)).data;
  const list = result && isSuccess(result) ? result.Data : null;
  return (
    <div className="lt-money-list" data-testid="cash-list">
      {!result ? <Spinner /> : null}
      {result && !list ? <p className="lt-empty">{t('money.loadFailed', { message: result.Message })}</p> : null}
      {list && list.pageData.length === 0 ? <p className="lt-empty">{t('money.cash.empty')}</p> : null}
      {list && list.pageData.length > 0 ? (
        <ul className="lt-money-rows">
          {list.pageData.map((item) => (
            <CashRow key={item.id} item={item} />
          ))}
        </ul>
      ) : null}
      {list ? <Pager current={list.currentPage} total={list.totalPage} /> : null}
    </div>
  );
}

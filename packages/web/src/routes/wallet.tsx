import { OrderStatus, type WalletInfo } from '@luntan/shared';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../i18n/use-translation';
import { Link, useNavigate, useSearchParams, type LoaderFunctionArgs } from 'react-router';
import { isSuccess } from '../api/dispatcher';
import { cashListQuery, orderDetailQuery, orderListQuery, walletLogQuery, walletQuery } from '../api/money-queries';
import { cachedForum } from '../api/queries';
import { useAppContext, type AppContext } from '../app-context';
import { readProfileParams } from '../components/people/profile-header';
import { moneyText } from '../components/money/money-format';
import { PayPasswordForm } from '../components/money/pay-password';
import { CashList, Ledger, OrderList, readLedgerFilter } from '../components/money/wallet-lists';
import { WithdrawForm } from '../components/money/withdraw-form';
import { Icon, LinkButton, Spinner } from '../components/ui';
import { useViewer } from '../hooks/use-forum';
import type { RouteHandle } from '../routing/handle';
import '../components/forum/forum.css';
import '../components/money/money.css';

export const handle: RouteHandle = { title: (t) => t('money.title') };

/** The wallet's sections, each an address of its own (`?tab=`). */
export const WALLET_TABS = ['log', 'orders', 'cash', 'withdraw', 'payPassword'] as const;
export type WalletTab = (typeof WALLET_TABS)[number];

export async function loader(ctx: AppContext, { request }: LoaderFunctionArgs): Promise<null> {
  // The login guard has run: the viewer is known.
  const viewerId = cachedForum(ctx.queryClient)?.user?.userId;
  if (!viewerId) return null;
  const params = new URL(request.url).searchParams;
  const { tab, page } = readProfileParams(params, WALLET_TABS);
  const q = ctx.queryClient;
  await Promise.all([
    q.ensureQueryData(walletQuery(ctx.api, viewerId)),
    tab === 'log' ? q.ensureQueryData(walletLogQuery(ctx.api, viewerId, page, readLedgerFilter(params))) : null,
    tab === 'orders' ? q.ensureQueryData(orderListQuery(ctx.api, viewerId, page)) : null,
    tab === 'cash' ? q.ensureQueryData(cashListQuery(ctx.api, viewerId, page)) : null,
  ]);
  return null;
}

const tabHref = (tab: WalletTab): string => (tab === WALLET_TABS[0] ? '/wallet' : `/wallet?tab=${tab}`);

function WalletTabs({ current }: { current: WalletTab }) {
  const { t } = useTranslation();
  return (
    <nav className="lt-tabs lt-wallet__tabs" aria-label={t('money.title')}>
      {WALLET_TABS.map((tab) => (
        <Link
          key={tab}
          to={tabHref(tab)}
          className={`lt-tab${tab === current ? ' lt-tab--active' : ''}`}
          aria-current={tab === current ? 'page' : undefined}
          data-testid={`wallet-tab-${tab}`}
          preventScrollReset
        >
          {t(`money.tabs.${tab}`)}
        </Link>
      ))}
    </nav>
  );
}

function Balances({ wallet }: { wallet: WalletInfo }) {
  const { t } = useTranslation();
  return (
    <section className="lt-card lt-wallet__summary" aria-label={t('money.title')}>
      <div className="lt-wallet__balances">
        <div className="lt-wallet__balance">
          <span className="lt-wallet__label">{t('money.available')}</span>
          <strong className="lt-wallet__amount" data-testid="wallet-available">
            {moneyText(t, wallet.availableAmount)}
          </strong>
        </div>
        <div className="lt-wallet__balance">
          <span className="lt-wallet__label">{t('money.frozen')}</span>
          <strong className="lt-wallet__amount lt-wallet__amount--frozen" data-testid="wallet-frozen">
            {moneyText(t, wallet.freezeAmount)}
          </strong>
        </div>
      </div>
      <div className="lt-wallet__actions">
        <LinkButton to="/wallet/recharge" type="primary" icon={<Icon name="plus" size={16} />} data-testid="recharge">
          {t('money.rechargeAction')}
        </LinkButton>
        <LinkButton to="/wallet?tab=withdraw" preventScrollReset data-testid="withdraw">
          {t('money.tabs.withdraw')}
        </LinkButton>
      </div>
      {wallet.walletStatus !== 0 ? (
        <p className="lt-money-form__error" role="status">
          {t('money.walletFrozen')}
        </p>
      ) : null}
    </section>
  );
}

/** After a recharge (`?recharged=<orderSn>`): says so once the order reads paid (the provider's notice may lag). */
function RechargeResult({ orderSn, viewerId }: { orderSn: string; viewerId: number }) {
  const { t } = useTranslation();
  const { api } = useAppContext();
  const result = useQuery({
    ...orderDetailQuery(api, viewerId, orderSn),
    refetchInterval: (query) => {
      const data = query.state.data;
      return data && isSuccess(data) && data.Data.status === OrderStatus.PENDING ? 2_000 : false;
    },
  }).data;
  if (!result || !isSuccess(result) || result.Data.status !== OrderStatus.PAID) return null;
  return (
    <p className="lt-wallet__success" role="status" data-testid="recharge-success">
      <Icon name="success" size={18} /> {t('money.recharge.paid')} {moneyText(t, result.Data.amount)}
    </p>
  );
}

function TabContent({
  tab,
  wallet,
  viewerId,
  page,
}: {
  tab: WalletTab;
  wallet: WalletInfo;
  viewerId: number;
  page: number;
}) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  switch (tab) {
    case 'log':
      return <Ledger viewerId={viewerId} page={page} filter={readLedgerFilter(params)} />;
    case 'orders':
      return <OrderList viewerId={viewerId} page={page} />;
    case 'cash':
      return <CashList viewerId={viewerId} page={page} />;
    case 'withdraw':
      return (
        <WithdrawForm wallet={wallet} onDone={() => void navigate(tabHref('cash'), { preventScrollReset: true })} />
      );
    case 'payPassword':
      return <PayPasswordForm hasPayPassword={wallet.hasPayPassword} />;
  }
}

/** The member's wallet: balances, the ledger, orders, withdrawals, the withdrawal form and the pay password. */
export function Component() {
  const { t } = useTranslation();
  const { api } = useAppContext();
  const viewer = useViewer();
  const [params] = useSearchParams();
  const { tab, page } = readProfileParams(params, WALLET_TABS);
  const viewerId = viewer?.userId ?? 0;
  const result = useQuery({ ...walletQuery(api, viewerId), enabled: viewerId > 0 }).data;
  const recharged = params.get('recharged');
  if (!viewer) return null;
  return (
    <div className="lt-page lt-wallet" data-testid="wallet-page">
      <h1 className="lt-page__title">{t('money.title')}</h1>
      {recharged ? <RechargeResult orderSn={recharged} viewerId={viewerId} /> : null}
      {!result ? <Spinner /> : null}
      {result && !isSuccess(result) ? (
        <p className="lt-card lt-empty">{t('money.loadFailed', { message: result.Message })}</p>
      ) : null}
      {result && isSuccess(result) ? (
        <>
          <Balances wallet={result.Data} />
          <section className="lt-card lt-wallet__section" aria-label={t(`money.tabs.${tab}`)}>
            <WalletTabs current={tab} />
            <TabContent tab={tab} wallet={result.Data} viewerId={viewerId} page={page} />
          </section>
        </>
      ) : null}
    </div>
  );
}

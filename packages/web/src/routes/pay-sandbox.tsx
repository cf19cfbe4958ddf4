import { OrderStatus } from '@luntan/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../i18n/use-translation';
import { useNavigate, useSearchParams, type LoaderFunctionArgs } from 'react-router';
import { isSuccess, request } from '../api/dispatcher';
import { orderDetailQuery, refreshMoney } from '../api/money-queries';
import { cachedForum } from '../api/queries';
import { useAppContext, type AppContext } from '../app-context';
import { moneyText, orderStatusLabel, orderTypeLabel, safeReturnPath } from '../components/money/money-format';
import { TimeText } from '../components/forum/time-text';
import { Button, LinkButton, Spinner } from '../components/ui';
import { useViewer } from '../hooks/use-forum';
import type { RouteHandle } from '../routing/handle';
import '../components/money/money.css';
import { endpoints } from '../api/endpoints';

export const handle: RouteHandle = { title: (t) => t('money.sandbox.title') };

export async function loader(ctx: AppContext, { request: req }: LoaderFunctionArgs): Promise<null> {
  const viewerId = cachedForum(ctx.queryClient)?.user?.userId;
  const orderSn = new URL(req.url).searchParams.get('orderSn');
  if (viewerId && orderSn) await ctx.queryClient.ensureQueryData(orderDetailQuery(ctx.api, viewerId, orderSn));
  return null;
}

/**
 * The sandbox provider's checkout (what its payUrl opens): the order, marked as a test, and two buttons that
 * decide its outcome (POST /api/v3/pay/sandbox/complete), then back to `return`: a same-site path, else /wallet.
 */
export function Component() {
  const { t } = useTranslation();
  const { api } = useAppContext();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const viewerId = useViewer()?.userId ?? 0;
  const [params] = useSearchParams();
  const orderSn = params.get('orderSn') ?? '';
  const back = safeReturnPath(params.get('return'));
  const [pending, setPending] = useState<'paid' | 'failed' | null>(null);
  const [problem, setProblem] = useState('');
  const result = useQuery({
    ...orderDetailQuery(api, viewerId, orderSn),
    enabled: viewerId > 0 && orderSn !== '',
  }).data;
  const order = result && isSuccess(result) ? result.Data : null;

  const complete = async (outcome: 'paid' | 'failed'): Promise<void> => {
    setPending(outcome);
    setProblem('');
    try {
      const answer = await request({ url: endpoints.pay.sandboxComplete, method: 'POST', data: { orderSn, outcome } });
      if (!isSuccess(answer)) {
        setProblem(answer.Message);
        return;
      }
      await refreshMoney(queryClient, viewerId);
      await navigate(back, { replace: true });
    } finally {
      setPending(null);
    }
  };

  return (
    <div className="lt-page lt-sandbox" data-testid="sandbox-page">
      <h1 className="lt-page__title">
        {t('money.sandbox.title')} <span className="lt-sandbox__badge">{t('money.sandbox.badge')}</span>
      </h1>
      <section className="lt-card lt-sandbox__card">
        <p className="lt-sandbox__notice" role="note">
          {t('money.sandbox.notice')}
        </p>
        {!orderSn ? <p className="lt-money-form__error">{t('money.sandbox.missing')}</p> : null}
        {orderSn && !result ? <Spinner /> : null}
        {result && !order ? <p className="lt-money-form__error">{result.Message}</p> : null}
        {order ? (
          <dl className="lt-pay__summary" data-testid="sandbox-order">
            <div>
              <dt>{t('money.sandbox.order')}</dt>
              <dd>{order.orderSn}</dd>
            </div>
            <div>
              <dt>{t('money.order.type')}</dt>
              <dd>
                {orderTypeLabel(t, order.type)}
                {order.title ? ` · ${order.title}` : ''}
              </dd>
            </div>
            <div>
              <dt>{t('money.order.time')}</dt>
              <dd>
                <TimeText iso={order.createdAt} />
              </dd>
            </div>
            <div>
              <dt>{t('money.pay.amount')}</dt>
              <dd className="lt-pay__amount" data-testid="sandbox-amount">
                {moneyText(t, order.amount)}
              </dd>
            </div>
          </dl>
        ) : null}
        {order && order.status !== OrderStatus.PENDING ? (
          <p className="lt-money-form__error" role="status">
            {t('money.sandbox.notPending', { status: orderStatusLabel(t, order.status) })}
          </p>
        ) : null}
        {problem ? (
          <p className="lt-money-form__error" role="alert" data-testid="sandbox-error">
            {problem}
          </p>
        ) : null}
        <div className="lt-money-form__actions">
          {order && order.status === OrderStatus.PENDING ? (
            <>
              <Button
                type="primary"
                loading={pending === 'paid'}
                disabled={pending !== null}
                onClick={() => void complete('paid')}
                data-testid="sandbox-pay"
              >
                {t('money.sandbox.pay')}
              </Button>
              <Button
                type="danger"
                loading={pending === 'failed'}
                disabled={pending !== null}
                onClick={() => void complete('failed')}
                data-testid="sandbox-fail"
              >
                {t('money.sandbox.fail')}
              </Button>
            </>
          ) : (
            <LinkButton to={back}>{t('money.sandbox.back')}</LinkButton>
          )}
        </div>
      </section>
    </div>
  );
}

import { OrderType, formatMoney, type OrderInfo } from '@luntan/shared';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from '../i18n/use-translation';
import { useNavigate, type LoaderFunctionArgs } from 'react-router';
import { isSuccess, request } from '../api/dispatcher';
import { payMethodsQuery } from '../api/money-queries';
import { useAppContext, type AppContext } from '../app-context';
import { checkAmount, keepAmountCharacters, payTypeLabel } from '../components/money/money-format';
import { providerChoices, useProviderPay } from '../components/money/provider-pay';
import { QrCode } from '../components/money/qr-code';
import { Button, LinkButton, Spinner, TextInput } from '../components/ui';
import { platformFromUserAgent } from '../platform/platform';
import { usePlatform } from '../platform/platform-context';
import type { RouteHandle } from '../routing/handle';
import '../components/money/money.css';
import { endpoints } from '../api/endpoints';

export const handle: RouteHandle = { title: (t) => t('money.recharge.title') };

export async function loader(ctx: AppContext, { request }: LoaderFunctionArgs): Promise<null> {
  // The layout as the user agent suggests (the page itself follows the window's width, as the shell does).
  const agent =
    request.headers.get('user-agent') ?? (typeof navigator === 'undefined' ? undefined : navigator.userAgent);
  await ctx.queryClient.ensureQueryData(payMethodsQuery(ctx.api, platformFromUserAgent(agent)));
  return null;
}

/** Where a recharge ends: the wallet, which says so once the order reads paid. */
export const rechargedPath = (orderSn: string): string => `/wallet?recharged=${encodeURIComponent(orderSn)}`;

/**
 * Recharging the wallet: an amount within the site's limits, a provider, then the order (type 30) and its payment:
 * the provider's page (the sandbox checkout included) or a QR code asked about every 2 s.
 */
export function Component() {
  const { t } = useTranslation();
  const { api } = useAppContext();
  const navigate = useNavigate();
  const platform = usePlatform();
  const result = useQuery(payMethodsQuery(api, platform)).data;
  const [amount, setAmount] = useState('');
  const [method, setMethod] = useState<number | null>(null);
  const [problem, setProblem] = useState('');
  const [creating, setCreating] = useState(false);
  const provider = useProviderPay((order: OrderInfo) => void navigate(rechargedPath(order.orderSn)));

  const methods = result && isSuccess(result) ? result.Data : null;
  const choices = methods ? providerChoices(methods.types, platform) : [];
  const chosen = method !== null && choices.includes(method) ? method : (choices[0] ?? null);
  const limits = methods?.recharge ?? { minAmount: '0.01', maxAmount: '0' };

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    if (chosen === null) return;
    const check = checkAmount(amount, limits.minAmount, limits.maxAmount);
    if (!check.ok) {
      setProblem(
        check.problem === 'format'
          ? t('money.recharge.badAmount')
          : check.problem === 'min'
            ? t('money.recharge.belowMin', { min: check.limit })
            : t('money.recharge.aboveMax', { max: check.limit }),
      );
      return;
    }
    setCreating(true);
    setProblem('');
    void request<OrderInfo>({
      url: endpoints.orders.create,
      method: 'POST',
      data: { type: OrderType.RECHARGE, amount: formatMoney(check.cents) },
    })
      .then(async (made) => {
        if (!isSuccess(made)) {
          setProblem(made.Message);
          return;
        }
        await provider.start(made.Data.orderSn, chosen, rechargedPath(made.Data.orderSn));
      })
      .finally(() => setCreating(false));
  };

  return (
    <div className="lt-page lt-recharge" data-testid="recharge-page">
      <h1 className="lt-page__title">{t('money.recharge.title')}</h1>
      <section className="lt-card">
        {!result ? <Spinner /> : null}
        {result && !methods ? <p className="lt-empty">{t('money.loadFailed', { message: result.Message })}</p> : null}
        {methods && choices.length === 0 ? (
          <p className="lt-empty" data-testid="recharge-none">
            {t('money.recharge.none')}
          </p>
        ) : null}
        {provider.qrCode ? (
          <div className="lt-pay__qr">
            <QrCode text={provider.qrCode} alt={t('money.pay.qrAlt')} />
            <p className="lt-pay__note">{t('money.pay.scan')}</p>
            <p className="lt-pay__note lt-pay__note--muted">
              <Spinner size={14} /> {t('money.pay.waiting')}
            </p>
            <Button onClick={provider.reset}>{t('money.pay.cancel')}</Button>
          </div>
        ) : methods && choices.length > 0 ? (
          <form className="lt-money-form" onSubmit={submit} noValidate data-testid="recharge-form">
            <TextInput
              label={t('money.recharge.amount')}
              name="amount"
              inputMode="decimal"
              autoComplete="off"
              value={amount}
              onChange={(value) => {
                setAmount(keepAmountCharacters(value));
                setProblem('');
              }}
              data-testid="recharge-amount"
            />
            <p className="lt-money-form__hint">
              {t('money.recharge.limits', { min: limits.minAmount, max: limits.maxAmount })}
            </p>
            <fieldset className="lt-pay__methods">
              <legend className="lt-field__label">{t('money.recharge.method')}</legend>
              {choices.map((type) => (
                <label key={type} className="lt-pay__method" data-testid={`recharge-method-${type}`}>
                  <input
                    type="radio"
                    name="paymentType"
                    value={type}
                    checked={chosen === type}
                    onChange={() => setMethod(type)}
                  />
                  <span>{payTypeLabel(t, type)}</span>
                </label>
              ))}
            </fieldset>
            {problem || provider.error ? (
              <p className="lt-money-form__error" role="alert" data-testid="recharge-error">
                {problem || provider.error}
              </p>
            ) : null}
            {provider.redirecting ? <p className="lt-pay__note">{t('money.pay.redirecting')}</p> : null}
            <div className="lt-money-form__actions">
              <Button
                type="primary"
                htmlType="submit"
                loading={creating || provider.pending || provider.redirecting}
                data-testid="recharge-submit"
              >
                {t('money.recharge.submit')}
              </Button>
              <LinkButton to="/wallet">{t('money.recharge.backToWallet')}</LinkButton>
            </div>
          </form>
        ) : null}
      </section>
    </div>
  );
}

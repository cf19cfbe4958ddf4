import { OrderStatus, PayType, formatMoney, parseMoney, type OrderInfo, type TradePayResult } from '@luntan/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { useLocation } from 'react-router';
import { isSuccess, request } from '../../api/dispatcher';
import { payMethodsQuery, refreshMoney, walletQuery } from '../../api/money-queries';
import { useAppContext } from '../../app-context';
import { useViewer } from '../../hooks/use-forum';
import { usePlatform } from '../../platform/platform-context';
import { Button, Dialog, Spinner, toast } from '../ui';
import { moneyText, orderStatusLabel, orderTypeLabel, payTypeLabel } from './money-format';
import { PayPasswordForm, PayPasswordInput } from './pay-password';
import { providerChoices, useProviderPay } from './provider-pay';
import { QrCode } from './qr-code';
import { dateTimeText } from '../forum/time-text';
import './money.css';
import { endpoints } from '../../api/endpoints';

/**
 * The one way a member pays for something: a paid thread, a reward, a paid group, the site's joining fee.
 *
 * Props:
 * - `open`, `onClose`: shown while `open`; Escape, the backdrop and the cancel button call `onClose`.
 * - `order`: the order to pay (an `OrderInfo` the caller made with POST /api/v3/order.create), or
 * - `createOrder`: how to make one, called each time the dialog opens without an order (resolve null when it could
 *   not be made; say why yourself, e.g. with `post()` from api/mutate, which toasts the server's message).
 * - `onPaid(order)`: called once the order is paid (from the wallet at once; through a provider's QR code when the
 *   polling sees it paid). The dialog has refreshed the wallet; the caller closes the dialog and refreshes its data.
 * - `returnPath`: where a provider's page (Alipay, WeChat H5, the sandbox checkout) sends the payer back, a
 *   same-site path; default the current page. That page learns the outcome from its own data.
 * - `title`: the line saying what is paid for; default the order's title, or its type's name.
 * - `providersOnly`: offer the providers only, not the wallet (an order a provider must pay: a red packet's, whose
 *   wallet payment is made when the thread is posted).
 *
 * It offers the wallet (the available balance; the six-digit pay password, or a form to set one; the server's
 * message on a wrong one, with the tries left; until when it is locked) and the providers the site takes.
 */
export interface PayDialogProps {
  open: boolean;
  onClose: () => void;
  order?: OrderInfo | null;
  createOrder?: () => Promise<OrderInfo | null>;
  onPaid: (order: OrderInfo) => void;
  returnPath?: string;
  title?: string;
  providersOnly?: boolean;
}

type Method = typeof PayType.WALLET | number;

function lockedUntil(iso: string | null, now = Date.now()): Date | null {
  if (!iso) return null;
  const at = Date.parse(iso);
  return Number.isNaN(at) || at <= now ? null : new Date(at);
}

export function PayDialog({
  open,
  onClose,
  order: given,
  createOrder,
  onPaid,
  returnPath,
  title,
  providersOnly = false,
}: PayDialogProps) {
  const { t } = useTranslation();
  const { api } = useAppContext();
  const queryClient = useQueryClient();
  const viewerId = useViewer()?.userId ?? 0;
  const platform = usePlatform();
  const location = useLocation();
  const formId = useId();

  const [created, setCreated] = useState<OrderInfo | null>(null);
  const [creating, setCreating] = useState(false);
  const [method, setMethod] = useState<Method | null>(null);
  const [payPassword, setPayPassword] = useState('');
  const [walletError, setWalletError] = useState('');
  const [walletPending, setWalletPending] = useState(false);
  const [settingPassword, setSettingPassword] = useState(false);
  const order = given ?? created;

  const finish = (paid: OrderInfo): void => {
    void refreshMoney(queryClient, viewerId);
    toast.success(t('money.pay.paid'));
    onPaid(paid);
  };
  const provider = useProviderPay(finish);

  const wallet = useQuery({ ...walletQuery(api, viewerId), enabled: open && viewerId > 0 }).data;
  const methods = useQuery({ ...payMethodsQuery(api, platform), enabled: open }).data;

  // Each opening without an order makes one (an unpaid order expires after ten minutes, so none is kept).
  const createRef = useRef(createOrder);
  createRef.current = createOrder;
  useEffect(() => {
    if (!open) {
      setCreated(null);
      setPayPassword('');
      setWalletError('');
      setSettingPassword(false);
      provider.reset();
      return;
    }
    if (given || !createRef.current) return;
    let live = true;
    setCreating(true);
    void createRef
      .current()
      .then((made) => {
        if (!live) return;
        if (made?.status === OrderStatus.PAID) {
          // Bought already: the server answers the order that bought it, and there is nothing to pay.
          toast.success(t('money.pay.alreadyPaid'));
          onPaid(made);
        } else if (made) setCreated(made);
        else onClose();
      })
      .finally(() => live && setCreating(false));
    return () => {
      live = false;
    };
    // Only the opening matters: the callbacks change with every render of the caller.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, given]);

  const walletInfo = wallet && isSuccess(wallet) ? wallet.Data : null;
  const payMethods = methods && isSuccess(methods) ? methods.Data : null;
  const providers = payMethods ? providerChoices(payMethods.types, platform) : [];
  const choices: Method[] = [...(payMethods?.wallet && !providersOnly ? [PayType.WALLET] : []), ...providers];
  const chosen = method !== null && choices.includes(method) ? method : (choices[0] ?? null);

  const amountCents = order ? (parseMoney(order.amount) ?? 0) : 0;
  const availableCents = walletInfo ? (parseMoney(walletInfo.availableAmount) ?? 0) : 0;
  const insufficient = walletInfo !== null && availableCents < amountCents;
  const locked = lockedUntil(walletInfo?.payLockedUntil ?? null);
  const walletFrozen = walletInfo !== null && walletInfo.walletStatus !== 0;
  const payable = order !== null && order.status === OrderStatus.PENDING;

  const payFromWallet = async (): Promise<void> => {
    if (!order) return;
    if (!/^\d{6}$/.test(payPassword)) {
      setWalletError(t('money.payPassword.sixDigits'));
      return;
    }
    setWalletPending(true);
    setWalletError('');
    try {
      const result = await request<TradePayResult>({
        url: endpoints.pay.order,
        method: 'POST',
        data: { orderSn: order.orderSn, paymentType: PayType.WALLET, payPassword },
      });
      if (isSuccess(result) && result.Data.status === OrderStatus.PAID) {
        finish({ ...order, status: OrderStatus.PAID, paymentType: PayType.WALLET });
        return;
      }
      setPayPassword('');
      setWalletError(result.Message);
      // A wrong try or the lock (-4029) changes what the wallet says (payLockedUntil).
      void refreshMoney(queryClient, viewerId);
    } finally {
      setWalletPending(false);
    }
  };

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    if (!order || chosen === null || !payable) return;
    if (chosen === PayType.WALLET) void payFromWallet();
    else void provider.start(order.orderSn, chosen, returnPath ?? `${location.pathname}${location.search}`);
  };

  const timeText = (at: Date): string => dateTimeText(at, t);

  const walletBlocked =
    chosen === PayType.WALLET &&
    (!walletInfo || insufficient || locked !== null || walletFrozen || !walletInfo.hasPayPassword);
  const showingQr = provider.qrCode !== null;

  return (
    <Dialog
      open={open}
      title={t('money.pay.title')}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose} data-testid="pay-cancel">
            {t('money.pay.cancel')}
          </Button>
          {showingQr ? null : (
            <Button
              type="primary"
              htmlType="submit"
              form={formId}
              loading={walletPending || provider.pending || provider.redirecting}
              disabled={!payable || chosen === null || walletBlocked}
              data-testid="pay-confirm"
            >
              {t('money.pay.confirm')}
            </Button>
          )}
        </>
      }
    >
      <div className="lt-pay" data-testid="pay-dialog">
        {!order ? (
          <p className="lt-pay__note">
            <Spinner size={16} /> {creating ? t('money.pay.creating') : null}
          </p>
        ) : (
          <dl className="lt-pay__summary">
            <div>
              <dt>{t('money.pay.for')}</dt>
              <dd data-testid="pay-title">{title || order.title || orderTypeLabel(t, order.type)}</dd>
            </div>
            <div>
              <dt>{t('money.pay.amount')}</dt>
              <dd className="lt-pay__amount" data-testid="pay-amount">
                {moneyText(t, order.amount)}
              </dd>
            </div>
          </dl>
        )}
        {order && !payable ? (
          <p className="lt-money-form__error" role="alert">
            {t('money.pay.notPending', { status: orderStatusLabel(t, order.status) })}
          </p>
        ) : null}

        {showingQr ? (
          <div className="lt-pay__qr">
            <QrCode text={provider.qrCode ?? ''} alt={t('money.pay.qrAlt')} />
            <p className="lt-pay__note">{t('money.pay.scan')}</p>
            <p className="lt-pay__note lt-pay__note--muted">
              <Spinner size={14} /> {t('money.pay.waiting')}
            </p>
          </div>
        ) : order && payable ? (
          <form id={formId} onSubmit={submit} noValidate>
            {!methods ? <Spinner /> : null}
            {methods && choices.length === 0 ? (
              <p className="lt-money-form__error" data-testid="pay-no-methods">
                {t('money.pay.noMethods')}
              </p>
            ) : null}
            {choices.length > 0 ? (
              <fieldset className="lt-pay__methods">
                <legend className="lt-field__label">{t('money.pay.method')}</legend>
                {choices.map((type) => (
                  <label key={type} className="lt-pay__method" data-testid={`pay-method-${type}`}>
                    <input
                      type="radio"
                      name="paymentType"
                      value={type}
                      checked={chosen === type}
                      onChange={() => {
                        setMethod(type);
                        setWalletError('');
                      }}
                    />
                    <span>
                      {type === PayType.WALLET
                        ? t('money.pay.walletBalance', { amount: walletInfo?.availableAmount ?? '…' })
                        : payTypeLabel(t, type)}
                    </span>
                  </label>
                ))}
              </fieldset>
            ) : null}
            {chosen === PayType.WALLET && walletInfo ? (
              <div className="lt-pay__wallet">
                {walletFrozen ? <p className="lt-money-form__error">{t('money.pay.walletFrozen')}</p> : null}
                {insufficient ? (
                  <p className="lt-money-form__error" data-testid="pay-insufficient">
                    {t('money.pay.insufficient')} ({moneyText(t, formatMoney(availableCents))})
                  </p>
                ) : null}
                {locked ? (
                  <p className="lt-money-form__error" data-testid="pay-locked">
                    {t('money.pay.locked', { until: timeText(locked) })}
                  </p>
                ) : null}
                {!walletInfo.hasPayPassword && !settingPassword ? (
                  <p className="lt-pay__note">
                    {t('money.pay.needPassword')}{' '}
                    <button
                      type="button"
                      className="lt-link-button"
                      onClick={() => setSettingPassword(true)}
                      data-testid="pay-set-password"
                    >
                      {t('money.pay.setNow')}
                    </button>
                  </p>
                ) : null}
                {walletInfo.hasPayPassword && !locked && !insufficient && !walletFrozen ? (
                  <PayPasswordInput
                    label={t('money.pay.payPassword')}
                    name="payPassword"
                    value={payPassword}
                    onChange={(value) => {
                      setPayPassword(value);
                      setWalletError('');
                    }}
                    autoFocus
                    data-testid="pay-password"
                  />
                ) : null}
                {walletError ? (
                  <p className="lt-money-form__error" role="alert" data-testid="pay-error">
                    {walletError}
                  </p>
                ) : null}
              </div>
            ) : null}
          </form>
        ) : null}
        {chosen === PayType.WALLET && walletInfo && !walletInfo.hasPayPassword && settingPassword && !showingQr ? (
          <PayPasswordForm hasPayPassword={false} compact onSaved={() => setSettingPassword(false)} />
        ) : null}
        {provider.redirecting ? <p className="lt-pay__note">{t('money.pay.redirecting')}</p> : null}
        {provider.error ? (
          <p className="lt-money-form__error" role="alert" data-testid="pay-error">
            {provider.error}
          </p>
        ) : null}
      </div>
    </Dialog>
  );
}

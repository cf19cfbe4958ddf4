import { PayType, type OrderInfo, type TradePayResult, type WalletInfo } from '@luntan/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isSuccess, request } from '../../api/dispatcher';
import { useAppContext } from '../../app-context';
import { Button, Dialog, Spinner, TextInput, toast } from '../ui';
import './thread-money.css';

/** The props the wallet pages' fuller pay dialog takes too (a subset: this one pays an order made by the caller). */
export interface PayDialogProps {
  open: boolean;
  onClose: () => void;
  order?: OrderInfo | null;
  onPaid: (order: OrderInfo) => void;
  title?: string;
}

/**
 * Pays an order from the wallet with the six-digit pay password: the minimal dialog the thread page needs until the
 * wallet pages' fuller one (providers, QR codes, setting the password) arrives under the same name and props. The
 * server's refusal (a wrong password and the tries left, not enough money, a lock) is shown as written.
 */
export function PayDialog({ open, onClose, order, onPaid, title }: PayDialogProps) {
  const { t } = useTranslation();
  const { api } = useAppContext();
  const queryClient = useQueryClient();
  const wallet = useQuery({
    queryKey: ['wallet', 'user'] as const,
    queryFn: () => api.get<WalletInfo>('/api/v3/wallet/user'),
    enabled: open,
  }).data;
  const info = wallet && isSuccess(wallet) ? wallet.Data : null;
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState('');
  const [pending, setPending] = useState(false);
  const formId = useId();
  if (!order) return null;

  const pay = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    if (!/^\d{6}$/.test(password)) {
      setProblem(t('threadMoney.pay.sixDigits'));
      return;
    }
    setPending(true);
    try {
      const result = await request<TradePayResult>({
        url: '/api/v3/trade/pay/order',
        method: 'POST',
        data: { orderSn: order.orderSn, paymentType: PayType.WALLET, payPassword: password },
      });
      if (!isSuccess(result)) {
        setProblem(result.Message);
        setPassword('');
        return;
      }
      await queryClient.invalidateQueries({ queryKey: ['wallet'] });
      toast.success(t('threadMoney.pay.paid'));
      onPaid(order);
    } finally {
      setPending(false);
    }
  };

  return (
    <Dialog
      open={open}
      title={t('threadMoney.pay.title')}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose} data-testid="pay-cancel">
            {t('threadMoney.cancel')}
          </Button>
          <Button
            type="primary"
            htmlType="submit"
            form={formId}
            loading={pending}
            disabled={info !== null && !info.hasPayPassword}
            data-testid="pay-confirm"
          >
            {t('threadMoney.pay.submit', { amount: order.amount })}
          </Button>
        </>
      }
    >
      <form id={formId} className="lt-quick-pay" onSubmit={(e) => void pay(e)} data-testid="pay-dialog">
        <p className="lt-quick-pay__for">{title || order.title}</p>
        <p className="lt-quick-pay__amount lt-money">¥{order.amount}</p>
        {!info ? (
          <Spinner />
        ) : (
          <>
            <p className="lt-quick-pay__balance">{t('threadMoney.pay.balance', { amount: info.availableAmount })}</p>
            {info.hasPayPassword ? (
              <TextInput
                label={t('threadMoney.pay.password')}
                mode="password"
                name="payPassword"
                inputMode="numeric"
                autoComplete="off"
                maxLength={6}
                value={password}
                data-testid="pay-password"
                onChange={(value) => {
                  setPassword(value.replace(/\D/g, '').slice(0, 6));
                  setProblem('');
                }}
                autoFocus
              />
            ) : (
              <p className="lt-quick-pay__problem" role="alert">
                {t('threadMoney.pay.noPassword')} <Link to="/wallet">{t('threadMoney.pay.toWallet')}</Link>
              </p>
            )}
          </>
        )}
        {problem ? (
          <p className="lt-quick-pay__problem" role="alert" data-testid="pay-error">
            {problem}
          </p>
        ) : null}
      </form>
    </Dialog>
  );
}

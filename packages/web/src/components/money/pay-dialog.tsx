import { PayType, type OrderInfo, type TradePayResult, type WalletInfo } from '@luntan/shared';
import { useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isSuccess, request } from '../../api/dispatcher';
import { useAppContext } from '../../app-context';
import { Button, Dialog, Spinner, TextInput } from '../ui';
import './thread-money.css';

export interface PayDialogProps {
  order: OrderInfo;
  onPaid: () => void;
  onClose: () => void;
}

/**
 * Pays an order from the wallet with the six-digit pay password. (The minimal one the thread page needs; the wallet
 * pages bring the fuller one with the providers.) The server's refusal (wrong password, tries left, not enough
 * money) is shown in the dialog as written.
 */
export function PayDialog({ order, onPaid, onClose }: PayDialogProps) {
  const { t } = useTranslation();
  const { api } = useAppContext();
  const wallet = useQuery({
    queryKey: ['wallet', 'user'] as const,
    queryFn: () => api.get<WalletInfo>('/api/v3/wallet/user'),
  }).data;
  const info = wallet && isSuccess(wallet) ? wallet.Data : null;
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState('');
  const [pending, setPending] = useState(false);
  const formId = useId();

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
      onPaid();
    } finally {
      setPending(false);
    }
  };

  return (
    <Dialog
      open
      title={t('threadMoney.pay.title')}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>{t('threadMoney.cancel')}</Button>
          <Button
            type="primary"
            htmlType="submit"
            form={formId}
            loading={pending}
            disabled={info !== null && !info.hasPayPassword}
            data-testid="pay-submit"
          >
            {t('threadMoney.pay.submit', { amount: order.amount })}
          </Button>
        </>
      }
    >
      <form id={formId} className="lt-pay" onSubmit={(e) => void pay(e)} data-testid="pay-dialog">
        <p className="lt-pay__for">{order.title}</p>
        <p className="lt-pay__amount">
          <span className="lt-money">¥{order.amount}</span>
        </p>
        {!info ? (
          <Spinner />
        ) : (
          <>
            <p className="lt-pay__balance">{t('threadMoney.pay.balance', { amount: info.availableAmount })}</p>
            {info.hasPayPassword ? (
              <TextInput
                label={t('threadMoney.pay.password')}
                mode="password"
                name="payPassword"
                inputMode="numeric"
                autoComplete="off"
                maxLength={6}
                value={password}
                onChange={(value) => {
                  setPassword(value.replace(/\D/g, ''));
                  setProblem('');
                }}
                autoFocus
              />
            ) : (
              <p className="lt-pay__problem" role="alert">
                {t('threadMoney.pay.noPassword')} <Link to="/wallet">{t('threadMoney.pay.toWallet')}</Link>
              </p>
            )}
          </>
        )}
        {problem ? (
          <p className="lt-pay__problem" role="alert" data-testid="pay-problem">
            {problem}
          </p>
        ) : null}
      </form>
    </Dialog>
  );
}

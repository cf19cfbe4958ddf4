import { formatMoney, parseMoney, type CashItem, type WalletInfo } from '@luntan/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { isSuccess, request } from '../../api/dispatcher';
import { refreshMoney } from '../../api/money-queries';
import { usePending } from '../../hooks/use-pending';
import { Button, TextInput, toast } from '../ui';
import { checkAmount, keepAmountCharacters, withdrawalFeeCents } from './money-format';
import { PayPasswordForm, PayPasswordInput } from './pay-password';
import { endpoints } from '../../api/endpoints';

/**
 * Applying for a withdrawal (POST /api/v3/wallet/cash): the site's rules, the fee as the amount is typed (frozen on
 * top of the amount), the pay password (money leaving the site needs it, as paying from the wallet does), and the
 * server's own words when it refuses (a wrong pay password says how many tries are left).
 */
export function WithdrawForm({ wallet, onDone }: { wallet: WalletInfo; onDone?: (cash: CashItem) => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { pending, run } = usePending();
  const [amount, setAmount] = useState('');
  const [account, setAccount] = useState('');
  const [payPassword, setPayPassword] = useState('');
  const [problem, setProblem] = useState('');
  const rules = wallet.cash;
  // 0 means no maximum, and no daily limit.
  const ruleText = [
    t('money.withdraw.ruleMin', { min: rules.minAmount }),
    parseMoney(rules.maxAmount) ? t('money.withdraw.ruleMax', { max: rules.maxAmount }) : null,
    rules.dailyCount > 0 ? t('money.withdraw.ruleDaily', { count: rules.dailyCount }) : null,
    t('money.withdraw.ruleFee', { rate: rules.feeRate }),
  ]
    .filter(Boolean)
    .join(t('money.withdraw.ruleSeparator'));

  const check = amount ? checkAmount(amount, rules.minAmount, rules.maxAmount) : null;
  const feeCents = check?.ok ? withdrawalFeeCents(check.cents, rules.feeRate) : 0;
  const totalCents = check?.ok ? check.cents + feeCents : 0;
  const availableCents = parseMoney(wallet.availableAmount) ?? 0;

  const amountProblem = (): string => {
    if (!check || (!check.ok && check.problem === 'format')) return t('money.withdraw.badAmount');
    if (!check.ok) {
      return check.problem === 'min'
        ? t('money.withdraw.belowMin', { min: check.limit })
        : t('money.withdraw.aboveMax', { max: check.limit });
    }
    if (totalCents > availableCents) return t('money.withdraw.overBalance', { total: formatMoney(totalCents) });
    return '';
  };
  const typedProblem = amount ? amountProblem() : '';

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    const local =
      amountProblem() ||
      (account.trim() ? '' : t('money.withdraw.accountRequired')) ||
      (/^\d{6}$/.test(payPassword) ? '' : t('money.payPassword.sixDigits'));
    if (local || !check?.ok) {
      setProblem(local);
      return;
    }
    void run(async () => {
      const result = await request<CashItem>({
        url: endpoints.wallet.cash,
        method: 'POST',
        data: { cashApplyAmount: formatMoney(check.cents), receiveAccount: account.trim(), payPassword },
      });
      if (!isSuccess(result)) {
        setProblem(result.Message);
        setPayPassword('');
        return;
      }
      setAmount('');
      setAccount('');
      setPayPassword('');
      setProblem('');
      toast.success(t('money.withdraw.done'));
      await refreshMoney(queryClient, wallet.userId);
      onDone?.(result.Data);
    });
  };

  if (!wallet.hasPayPassword) {
    // Money leaving the site needs the pay password: set one first, and the form follows.
    return (
      <div data-testid="withdraw-needs-pay-password">
        <p className="lt-money-form__hint">{t('money.withdraw.needsPayPassword')}</p>
        <PayPasswordForm hasPayPassword={false} compact />
      </div>
    );
  }

  return (
    <form className="lt-money-form" onSubmit={submit} noValidate data-testid="withdraw-form">
      <p className="lt-money-form__hint" data-testid="withdraw-rules">
        {ruleText}
      </p>
      <TextInput
        label={t('money.withdraw.amount')}
        name="cashApplyAmount"
        inputMode="decimal"
        autoComplete="off"
        value={amount}
        onChange={(value) => {
          setAmount(keepAmountCharacters(value));
          setProblem('');
        }}
        data-testid="withdraw-amount"
      />
      <p className="lt-money-form__hint" aria-live="polite" data-testid="withdraw-fee">
        {check?.ok
          ? t('money.withdraw.fee', { fee: formatMoney(feeCents), total: formatMoney(totalCents) })
          : typedProblem || '\u00a0'}
      </p>
      <TextInput
        label={t('money.withdraw.account')}
        name="receiveAccount"
        placeholder={t('money.withdraw.accountHint')}
        maxLength={100}
        value={account}
        onChange={(value) => {
          setAccount(value);
          setProblem('');
        }}
        data-testid="withdraw-account"
      />
      <PayPasswordInput
        label={t('money.withdraw.payPassword')}
        name="payPassword"
        value={payPassword}
        onChange={(value) => {
          setPayPassword(value);
          setProblem('');
        }}
        data-testid="withdraw-pay-password"
      />
      {problem ? (
        <p className="lt-money-form__error" role="alert" data-testid="withdraw-error">
          {problem}
        </p>
      ) : null}
      <div>
        <Button
          type="primary"
          htmlType="submit"
          loading={pending}
          disabled={wallet.walletStatus !== 0}
          data-testid="withdraw-submit"
        >
          {t('money.withdraw.submit')}
        </Button>
      </div>
    </form>
  );
}

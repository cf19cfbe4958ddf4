import { PAY_PASSWORD_PATTERN } from '@luntan/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { isSuccess, request } from '../../api/dispatcher';
import { refreshMoney } from '../../api/money-queries';
import { usePending } from '../../hooks/use-pending';
import { useViewer } from '../../hooks/use-forum';
import { Button, TextInput, type TextInputProps } from '../ui';
import { endpoints } from '../../api/endpoints';

/** The six-digit pay password field: digits only, six at most, a number pad on phones. */
export function PayPasswordInput(props: Omit<TextInputProps, 'mode' | 'maxLength' | 'inputMode'>) {
  const { onChange, ...rest } = props;
  return (
    <TextInput
      {...rest}
      mode="password"
      inputMode="numeric"
      autoComplete="off"
      maxLength={6}
      onChange={(value, event) => onChange?.(value.replace(/\D/g, '').slice(0, 6), event)}
    />
  );
}

export interface PayPasswordFormProps {
  /** Whether one is set already (the heading and button say change rather than set). */
  hasPayPassword: boolean;
  /** After the server saved it. */
  onSaved?: () => void;
  /** A smaller form without its heading (inside the pay dialog). */
  compact?: boolean;
}

/**
 * Sets or changes the six-digit pay password (POST /api/v3/users/pay-password/reset): typed twice, confirmed by the
 * login password. The server's refusal is shown under the form.
 */
export function PayPasswordForm({ hasPayPassword, onSaved, compact = false }: PayPasswordFormProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const viewerId = useViewer()?.userId ?? 0;
  const { pending, run } = usePending();
  const [values, setValues] = useState({ payPassword: '', confirm: '', password: '' });
  const [problem, setProblem] = useState('');
  const set = (field: keyof typeof values) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setProblem('');
  };

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    event.stopPropagation();
    if (!PAY_PASSWORD_PATTERN.test(values.payPassword)) return setProblem(t('money.payPassword.sixDigits'));
    if (values.payPassword !== values.confirm) return setProblem(t('money.payPassword.mismatch'));
    if (!values.password) return setProblem(t('money.payPassword.loginRequired'));
    void run(async () => {
      const result = await request({
        url: endpoints.users.payPasswordReset,
        method: 'POST',
        data: { password: values.password, payPassword: values.payPassword },
      });
      if (!isSuccess(result)) {
        setProblem(result.Message);
        return;
      }
      setValues({ payPassword: '', confirm: '', password: '' });
      await refreshMoney(queryClient, viewerId);
      onSaved?.();
    });
  };

  const action = hasPayPassword ? t('money.payPassword.change') : t('money.payPassword.set');
  return (
    <form
      className={`lt-money-form${compact ? ' lt-money-form--compact' : ''}`}
      onSubmit={submit}
      noValidate
      aria-label={action}
      data-testid="pay-password-form"
    >
      {compact ? null : (
        <p className="lt-money-form__hint">
          {hasPayPassword ? t('money.payPassword.isSet') : t('money.payPassword.notSet')}
        </p>
      )}
      <PayPasswordInput
        label={t('money.payPassword.new')}
        name="payPassword"
        value={values.payPassword}
        onChange={set('payPassword')}
        data-testid="pay-password-new"
      />
      <PayPasswordInput
        label={t('money.payPassword.confirm')}
        name="payPasswordConfirm"
        value={values.confirm}
        onChange={set('confirm')}
        data-testid="pay-password-confirm"
      />
      <TextInput
        mode="password"
        label={t('money.payPassword.loginPassword')}
        name="password"
        autoComplete="current-password"
        value={values.password}
        onChange={set('password')}
        data-testid="pay-password-login"
      />
      <p className="lt-money-form__hint">{t('money.payPassword.hint')}</p>
      {problem ? (
        <p className="lt-money-form__error" role="alert" data-testid="pay-password-error">
          {problem}
        </p>
      ) : null}
      <div>
        <Button type="primary" htmlType="submit" loading={pending} data-testid="pay-password-save">
          {action}
        </Button>
      </div>
    </form>
  );
}

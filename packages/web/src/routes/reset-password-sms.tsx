import { smsResetPasswordBody } from '@luntan/shared';
import { useState, type FormEvent } from 'react';
import { useTranslation } from '../i18n/use-translation';
import { Link, useNavigate } from 'react-router';
import { isSuccess, request } from '../api/dispatcher';
import { useAppContext } from '../app-context';
import { forgetSession } from '../auth/session';
import { PhoneCodeFields } from '../components/phone/phone-fields';
import { Button, TextInput, toast } from '../components/ui';
import { usePending } from '../hooks/use-pending';
import type { RouteHandle } from '../routing/handle';
import { AuthCard } from './auth-card';
import { endpoints } from '../api/endpoints';

export const handle: RouteHandle = { title: (t) => t('phone.resetTitle') };

/**
 * A forgotten password, reset with an SMS code to the bound number; every session of the account ends. A section,
 * so the reset-password page can show it beside the e-mail way; /user/reset-password/sms shows it alone.
 */
export function ResetPasswordSmsSection() {
  const { t } = useTranslation();
  const ctx = useAppContext();
  const navigate = useNavigate();
  const [mobile, setMobile] = useState('');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const { pending, run } = usePending();

  const onSubmit = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    if (!mobile || !code || !password) {
      toast.warning(t('phone.resetRequired'));
      return;
    }
    if (password !== confirm) {
      toast.warning(t('my.settings.mismatch'));
      return;
    }
    void run(async () => {
      const result = await request({
        url: endpoints.sms.resetPassword,
        method: 'POST',
        data: { mobile, code, password },
        validator: smsResetPasswordBody,
        handleError: false,
      });
      if (!isSuccess(result)) {
        toast.error(result.Message);
        return;
      }
      // The server signed out every session, this one too.
      await forgetSession(ctx);
      toast.success(t('phone.resetDone'));
      await navigate('/user/login', { replace: true });
    });
  };

  return (
    <form className="lt-auth__form" onSubmit={onSubmit} noValidate data-testid="reset-sms-form">
      <PhoneCodeFields type="reset_pwd" mobile={mobile} onMobileChange={setMobile} code={code} onCodeChange={setCode} />
      <TextInput
        mode="password"
        label={t('my.settings.newPassword')}
        name="password"
        autoComplete="new-password"
        value={password}
        onChange={setPassword}
        required
      />
      <TextInput
        mode="password"
        label={t('my.settings.confirmPassword')}
        name="confirmPassword"
        autoComplete="new-password"
        value={confirm}
        onChange={setConfirm}
        required
      />
      <Button type="primary" size="large" htmlType="submit" full loading={pending} data-testid="reset-sms-submit">
        {t('phone.resetSubmit')}
      </Button>
    </form>
  );
}

export function Component() {
  const { t } = useTranslation();
  return (
    <AuthCard title={t('phone.resetHeading')} footer={<Link to="/user/login">{t('auth.toLogin')}</Link>}>
      <ResetPasswordSmsSection />
    </AuthCard>
  );
}

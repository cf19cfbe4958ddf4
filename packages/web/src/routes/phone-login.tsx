import { smsCodeBody } from '@luntan/shared';
import { useState, type FormEvent } from 'react';
import { useTranslation } from '../i18n/use-translation';
import { Link, useNavigate } from 'react-router';
import { useAppContext } from '../app-context';
import { submitSignIn } from '../auth/session';
import { PhoneCodeFields } from '../components/phone/phone-fields';
import { Button, toast } from '../components/ui';
import { useForum } from '../hooks/use-forum';
import { usePending } from '../hooks/use-pending';
import type { RouteHandle } from '../routing/handle';
import { AuthCard } from './auth-card';
import { endpoints } from '../api/endpoints';

export const handle: RouteHandle = { title: (t) => t('phone.loginTitle') };

/** Sign in with a number and an SMS code; a first sign-in makes the account (unless registration is closed). */
export function Component() {
  const { t } = useTranslation();
  const ctx = useAppContext();
  const navigate = useNavigate();
  const { forum } = useForum();
  const [mobile, setMobile] = useState('');
  const [code, setCode] = useState('');
  const { pending, run } = usePending();

  const onSubmit = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    if (!mobile || !code) {
      toast.warning(t('phone.required'));
      return;
    }
    void run(() =>
      submitSignIn(ctx, navigate, {
        url: endpoints.sms.login,
        data: { mobile, code },
        validator: smsCodeBody,
        successText: t('auth.loginSuccess'),
      }),
    );
  };

  return (
    <AuthCard
      title={t('phone.loginHeading')}
      footer={
        <>
          <Link to="/user/login">{t('phone.toUsernameLogin')}</Link>
          {' · '}
          <Link to="/user/reset-password?way=sms">{t('phone.forgotPassword')}</Link>
        </>
      }
    >
      {forum && !forum.setSite.smsEnabled ? <p className="lt-auth__notice">{t('phone.smsOff')}</p> : null}
      <form className="lt-auth__form" onSubmit={onSubmit} noValidate data-testid="phone-login-form">
        <PhoneCodeFields type="login" mobile={mobile} onMobileChange={setMobile} code={code} onCodeChange={setCode} />
        <p className="lt-phone__hint">{t('phone.loginHint')}</p>
        <Button type="primary" size="large" htmlType="submit" full loading={pending} data-testid="phone-login-submit">
          {t('auth.loginSubmit')}
        </Button>
      </form>
    </AuthCard>
  );
}

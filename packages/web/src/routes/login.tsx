import { loginBody } from '@luntan/shared';
import { useState, type FormEvent } from 'react';
import { useTranslation } from '../i18n/use-translation';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useAppContext } from '../app-context';
import { submitSignIn } from '../auth/session';
import { Button, TextInput, toast } from '../components/ui';
import type { RouteHandle } from '../routing/handle';
import { AuthCard } from './auth-card';
import { useForum } from '../hooks/use-forum';
import { OauthButtons, OauthErrorNotice, oauthErrorOf } from '../components/oauth/oauth-buttons';
import { usePending } from '../hooks/use-pending';
import { asksForCaptcha, useCaptcha } from '../components/community/captcha';
import { Code } from '@luntan/shared';
import { endpoints } from '../api/endpoints';

export const handle: RouteHandle = { title: (t) => t('auth.loginTitle') };

/**
 * Username (or bound mobile number) and password login; the server's message in a toast on failure; then back to the saved address. Below,
 * the other services one may sign in with, and the reason a sign-in with one of them came back here.
 */
export function Component() {
  const { t } = useTranslation();
  const ctx = useAppContext();
  const navigate = useNavigate();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const { pending, run } = usePending();
  const { forum } = useForum();
  // The server asks for a captcha after three failures in a row (loginCaptcha); the page offers it from then on.
  const [failures, setFailures] = useState(0);
  const [asked, setAsked] = useState(false);
  const captcha = useCaptcha(asked || (forum?.setSite.loginCaptcha === true && failures >= 3));
  const [search] = useSearchParams();
  // The server takes a bound number in place of the username; members have numbers where the site sends SMS.
  const byNumberToo = forum?.setSite.smsEnabled === true;

  const submit = async (): Promise<void> => {
    if (!username.trim() || !password) {
      toast.warning(t('auth.required'));
      return;
    }
    await run(async () => {
      const solution = await captcha.take();
      const result = await submitSignIn(ctx, navigate, {
        url: endpoints.users.login,
        data: { username: username.trim(), password, ...(solution ? { captcha: solution } : {}) },
        validator: loginBody,
        successText: t('auth.loginSuccess'),
      });
      if (asksForCaptcha(result)) setAsked(true);
      if (result.Code === Code.LOGIN_FAILED) setFailures((n) => n + 1);
    });
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    submit().catch((error: unknown) => console.error(error));
  };

  return (
    <AuthCard
      title={t(byNumberToo ? 'auth.loginHeadingPassword' : 'auth.loginHeading')}
      footer={
        <>
          {t('auth.noAccount')} <Link to="/user/register">{t('auth.toRegister')}</Link>
          {forum?.setSite.smsEnabled ? (
            <>
              {' · '}
              <Link to="/user/phone-login" data-testid="to-phone-login">
                {t('phone.toPhoneLogin')}
              </Link>
            </>
          ) : null}
        </>
      }
    >
      <OauthErrorNotice error={oauthErrorOf(search)} />
      <form className="lt-auth__form" onSubmit={onSubmit} noValidate>
        <TextInput
          label={t(byNumberToo ? 'auth.usernameOrMobile' : 'auth.username')}
          name="username"
          autoComplete="username"
          placeholder={t(byNumberToo ? 'auth.usernameOrMobilePlaceholder' : 'auth.usernamePlaceholder')}
          value={username}
          onChange={setUsername}
          required
        />
        <TextInput
          label={t('auth.password')}
          name="password"
          mode="password"
          autoComplete="current-password"
          placeholder={t('auth.passwordPlaceholder')}
          value={password}
          onChange={setPassword}
          required
        />
        {captcha.element}
        <Link className="lt-auth__forgot" to="/user/reset-password" data-testid="forgot-password">
          {t('auth.forgotPassword')}
        </Link>
        <Button type="primary" size="large" htmlType="submit" full loading={pending}>
          {t('auth.loginSubmit')}
        </Button>
      </form>
      <OauthButtons />
    </AuthCard>
  );
}

import { loginBody } from '@luntan/shared';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useAppContext } from '../app-context';
import { submitSignIn } from '../auth/session';
import { Button, TextInput, toast } from '../components/ui';
import type { RouteHandle } from '../routing/handle';
import { AuthCard } from './auth-card';
import { OauthButtons, OauthErrorNotice, oauthErrorOf } from '../components/oauth/oauth-buttons';
import { usePending } from '../hooks/use-pending';

export const handle: RouteHandle = { title: (t) => t('auth.loginTitle') };

/**
 * Username and password login; the server's message in a toast on failure; then back to the saved address. Below,
 * the other services one may sign in with, and the reason a sign-in with one of them came back here.
 */
export function Component() {
  const { t } = useTranslation();
  const ctx = useAppContext();
  const navigate = useNavigate();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const { pending, run } = usePending();
  const [search] = useSearchParams();

  const submit = async (): Promise<void> => {
    if (!username.trim() || !password) {
      toast.warning(t('auth.required'));
      return;
    }
    await run(async () => {
      await submitSignIn(ctx, navigate, {
        url: '/api/v3/users/username.login',
        data: { username: username.trim(), password },
        validator: loginBody,
        successText: t('auth.loginSuccess'),
      });
    });
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    submit().catch((error: unknown) => console.error(error));
  };

  return (
    <AuthCard
      title={t('auth.loginHeading')}
      footer={
        <>
          {t('auth.noAccount')} <Link to="/user/register">{t('auth.toRegister')}</Link>
        </>
      }
    >
      <OauthErrorNotice error={oauthErrorOf(search)} />
      <form className="lt-auth__form" onSubmit={onSubmit} noValidate>
        <TextInput
          label={t('auth.username')}
          name="username"
          autoComplete="username"
          placeholder={t('auth.usernamePlaceholder')}
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
        <Button type="primary" size="large" htmlType="submit" full loading={pending}>
          {t('auth.loginSubmit')}
        </Button>
      </form>
      <OauthButtons />
    </AuthCard>
  );
}

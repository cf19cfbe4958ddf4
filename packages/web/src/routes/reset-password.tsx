import { Code, passwordForgotBody, passwordResetBody } from '@luntan/shared';
import { useState, type ComponentType, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from '../i18n/use-translation';
import { Link, useSearchParams } from 'react-router';
import { isSuccess, request } from '../api/dispatcher';
import { useAppContext } from '../app-context';
import { forgetSession } from '../auth/session';
import { Button, Icon, LinkButton, TextInput, toast } from '../components/ui';
import { useForum } from '../hooks/use-forum';
import { usePending } from '../hooks/use-pending';
import type { RouteHandle } from '../routing/handle';
import { AuthCard } from './auth-card';

export const handle: RouteHandle = { title: (t) => t('mail.resetTitle') };

/** The site sends no mail: said plainly, instead of a form that cannot work. */
export function MailOffNotice() {
  const { t } = useTranslation();
  return (
    <p className="lt-auth__notice" role="status" data-testid="mail-off">
      {t('mail.off')}
    </p>
  );
}

/** The e-mail way: a username or address; the answer is the same whatever the account (the server says nothing). */
function ResetByEmail() {
  const { t } = useTranslation();
  const { forum } = useForum();
  const mailOff = forum?.setSite.mailEnabled === false;
  const [account, setAccount] = useState('');
  const [sent, setSent] = useState(false);
  const { pending, run } = usePending();

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    if (!account.trim()) {
      toast.warning(t('mail.accountRequired'));
      return;
    }
    void run(async () => {
      const result = await request({
        url: '/api/v3/users/password.forgot',
        method: 'POST',
        data: { account: account.trim() },
        validator: passwordForgotBody,
        handleError: false,
      });
      if (isSuccess(result)) setSent(true);
      else toast.error(result.Message);
    });
  };

  if (sent) {
    return (
      <div className="lt-auth__done" role="status" data-testid="reset-sent">
        <Icon name="success" size={32} />
        <h2 className="lt-auth__subtitle">{t('mail.sentTitle')}</h2>
        <p>{t('mail.sent')}</p>
        <Button onClick={() => setSent(false)}>{t('mail.sendAgain')}</Button>
      </div>
    );
  }
  return (
    <form className="lt-auth__form" onSubmit={submit} noValidate data-testid="reset-by-email">
      {mailOff ? <MailOffNotice /> : null}
      <TextInput
        label={t('mail.account')}
        name="account"
        autoComplete="username"
        placeholder={t('mail.accountPlaceholder')}
        value={account}
        onChange={setAccount}
        disabled={mailOff}
        required
      />
      <Button type="primary" size="large" htmlType="submit" full loading={pending} disabled={mailOff}>
        {t('mail.sendLink')}
      </Button>
    </form>
  );
}

/**
 * The ways to recover an account, one section each. Only e-mail today; another way (an SMS code) is one more entry,
 * and with more than one the page shows them as tabs.
 */
const WAYS: ReadonlyArray<{ id: string; labelKey: 'mail.byEmail'; Way: ComponentType }> = [
  { id: 'email', labelKey: 'mail.byEmail', Way: ResetByEmail },
];

function ForgotPassword() {
  const { t } = useTranslation();
  const [current, setCurrent] = useState(WAYS[0]!.id);
  const way = WAYS.find((w) => w.id === current) ?? WAYS[0]!;
  return (
    <AuthCard
      title={t('mail.resetHeading')}
      footer={
        <>
          {t('mail.backToLogin')} <Link to="/user/login">{t('mail.toLogin')}</Link>
        </>
      }
    >
      {WAYS.length > 1 ? (
        <div className="lt-auth__tabs" role="tablist">
          {WAYS.map((w) => (
            <button
              key={w.id}
              type="button"
              role="tab"
              aria-selected={w.id === way.id}
              className="lt-auth__tab"
              onClick={() => setCurrent(w.id)}
            >
              {t(w.labelKey)}
            </button>
          ))}
        </div>
      ) : (
        <h2 className="lt-auth__subtitle">{t(way.labelKey)}</h2>
      )}
      <way.Way />
    </AuthCard>
  );
}

/** The mailed link: a new password twice; success signs this device out too (every session ended). */
function NewPassword({ token }: { token: string }) {
  const { t } = useTranslation();
  const ctx = useAppContext();
  const [values, setValues] = useState({ password: '', confirm: '' });
  const [done, setDone] = useState(false);
  const [expired, setExpired] = useState<string | null>(null);
  const { pending, run } = usePending();
  const set = (field: keyof typeof values) => (value: string) => setValues((v) => ({ ...v, [field]: value }));

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    if (!values.password) {
      toast.warning(t('mail.passwordRequired'));
      return;
    }
    if (values.password !== values.confirm) {
      toast.warning(t('mail.mismatch'));
      return;
    }
    void run(async () => {
      const result = await request({
        url: '/api/v3/users/password.reset',
        method: 'POST',
        data: { token, password: values.password },
        validator: passwordResetBody,
        handleError: false,
      });
      if (isSuccess(result)) {
        await forgetSession(ctx);
        setDone(true);
      } else if (result.Code === Code.RESOURCE_EXPIRED) {
        setExpired(result.Message);
      } else {
        toast.error(result.Message);
      }
    });
  };

  let body: ReactNode;
  if (done) {
    body = (
      <div className="lt-auth__done" role="status" data-testid="reset-done">
        <Icon name="success" size={32} />
        <p>{t('mail.resetDone')}</p>
        <LinkButton type="primary" to="/user/login">
          {t('mail.toLogin')}
        </LinkButton>
      </div>
    );
  } else if (expired) {
    body = (
      <div className="lt-auth__done" role="alert" data-testid="reset-expired">
        <Icon name="warning" size={32} />
        <p>{expired}</p>
        <LinkButton type="primary" to="/user/reset-password">
          {t('mail.askAgain')}
        </LinkButton>
      </div>
    );
  } else {
    body = (
      <form className="lt-auth__form" onSubmit={submit} noValidate data-testid="reset-form">
        <TextInput
          label={t('mail.newPassword')}
          name="newPassword"
          mode="password"
          autoComplete="new-password"
          placeholder={t('mail.newPasswordPlaceholder')}
          value={values.password}
          onChange={set('password')}
          required
        />
        <TextInput
          label={t('mail.confirmPassword')}
          name="confirmPassword"
          mode="password"
          autoComplete="new-password"
          value={values.confirm}
          onChange={set('confirm')}
          required
        />
        <Button type="primary" size="large" htmlType="submit" full loading={pending}>
          {t('mail.savePassword')}
        </Button>
      </form>
    );
  }
  return (
    <AuthCard
      title={t('mail.newPasswordHeading')}
      footer={done ? <Link to="/">{t('mail.home')}</Link> : <Link to="/user/login">{t('mail.toLogin')}</Link>}
    >
      {body}
    </AuthCard>
  );
}

/** /user/reset-password: ask for a link (no token), or set the new password (the mailed link, ?token=). */
export function Component() {
  const [search] = useSearchParams();
  const token = search.get('token');
  return token ? <NewPassword token={token} /> : <ForgotPassword />;
}

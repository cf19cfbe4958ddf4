import { Code, passwordForgotBody, passwordResetBody } from '@luntan/shared';
import { useId, useState, type ComponentType, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from '../i18n/use-translation';
import { Link, useSearchParams } from 'react-router';
import { isSuccess, request } from '../api/dispatcher';
import { useAppContext } from '../app-context';
import { forgetSession } from '../auth/session';
import { Button, Icon, LinkButton, Spinner, TextInput, toast } from '../components/ui';
import { useForum } from '../hooks/use-forum';
import { usePending } from '../hooks/use-pending';
import type { RouteHandle } from '../routing/handle';
import { AuthCard } from './auth-card';
import { ResetPasswordSmsSection } from './reset-password-sms';
import { endpoints } from '../api/endpoints';

export const handle: RouteHandle = { title: (t) => t('mail.resetTitle') };

/** The e-mail way: a username or address; the answer is the same whatever the account (the server says nothing). */
function ResetByEmail() {
  const { t } = useTranslation();
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
        url: endpoints.users.passwordForgot,
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
      <TextInput
        label={t('mail.account')}
        name="account"
        autoComplete="username"
        placeholder={t('mail.accountPlaceholder')}
        value={account}
        onChange={setAccount}
        required
      />
      <Button type="primary" size="large" htmlType="submit" full loading={pending}>
        {t('mail.sendLink')}
      </Button>
    </form>
  );
}

type WayId = 'email' | 'sms';

/** The ways to recover an account, each offered only while the site can deliver it (mail, SMS). */
const WAYS: ReadonlyArray<{ id: WayId; labelKey: 'mail.byEmail' | 'phone.bySms'; Way: ComponentType }> = [
  { id: 'email', labelKey: 'mail.byEmail', Way: ResetByEmail },
  { id: 'sms', labelKey: 'phone.bySms', Way: ResetPasswordSmsSection },
];

/** Without mail or SMS nobody can prove who they are here: an administrator must set the password. */
function NoWayNotice() {
  const { t } = useTranslation();
  return (
    <div className="lt-auth__done" role="status" data-testid="reset-no-way">
      <Icon name="warning" size={32} />
      <p>{t('mail.noWay')}</p>
    </div>
  );
}

function ForgotPassword() {
  const { t } = useTranslation();
  const { forum } = useForum();
  const [search] = useSearchParams();
  const offered = WAYS.filter(
    (w) => (w.id === 'email' && forum?.setSite.mailEnabled) || (w.id === 'sms' && forum?.setSite.smsEnabled),
  );
  const [chosen, setChosen] = useState<string | null>(search.get('way'));
  const way = offered.find((w) => w.id === chosen) ?? offered[0];
  const tabsId = useId();

  let body: ReactNode;
  if (!forum) body = <Spinner />;
  else if (!way) body = <NoWayNotice />;
  else if (offered.length === 1) {
    body = (
      <>
        <h2 className="lt-auth__subtitle">{t(way.labelKey)}</h2>
        <way.Way />
      </>
    );
  } else {
    body = (
      <>
        <div className="lt-auth__tabs" role="tablist">
          {offered.map((w) => (
            <button
              key={w.id}
              id={`${tabsId}-${w.id}`}
              type="button"
              role="tab"
              aria-selected={w.id === way.id}
              aria-controls={`${tabsId}-panel`}
              className="lt-auth__tab"
              onClick={() => setChosen(w.id)}
              data-testid={`reset-way-${w.id}`}
            >
              {t(w.labelKey)}
            </button>
          ))}
        </div>
        <div id={`${tabsId}-panel`} role="tabpanel" aria-labelledby={`${tabsId}-${way.id}`}>
          <way.Way />
        </div>
      </>
    );
  }
  return (
    <AuthCard
      title={t('mail.resetHeading')}
      footer={
        <>
          {t('mail.backToLogin')} <Link to="/user/login">{t('mail.toLogin')}</Link>
        </>
      }
    >
      {body}
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
        url: endpoints.users.passwordReset,
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

/**
 * /user/reset-password: the ways to get back in (a mailed link, an SMS code; `?way=sms` opens on that one), or the new
 * password of a mailed link (?token=).
 */
export function Component() {
  const [search] = useSearchParams();
  const token = search.get('token');
  return token ? <NewPassword token={token} /> : <ForgotPassword />;
}

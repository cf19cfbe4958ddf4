import { registerBody } from '@luntan/shared';
import { useState, type FormEvent } from 'react';
import { useTranslation } from '../i18n/use-translation';
import { useQuery } from '@tanstack/react-query';
import { signinFieldsQuery } from '../api/forum-queries';
import type { AppContext } from '../app-context';
import {
  answersOf,
  missingRequired,
  SigninFieldsForm,
  type SigninValues,
} from '../components/forum/signin-fields-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { isSuccess } from '../api/dispatcher';
import { useAppContext } from '../app-context';
import { submitSignIn } from '../auth/session';
import { Button, TextInput, toast } from '../components/ui';
import { useForum } from '../hooks/use-forum';
import type { RouteHandle } from '../routing/handle';
import { AuthCard } from './auth-card';
import { usePending } from '../hooks/use-pending';
import { useCaptcha } from '../components/community/captcha';
import { inviteDetailQuery } from '../api/community-queries';
import '../components/community/community.css';
import { endpoints } from '../api/endpoints';

export const handle: RouteHandle = { title: (t) => t('auth.registerTitle') };

/** Username registration; the server's message in a toast on failure; then back to the saved address. */
export async function loader(ctx: AppContext): Promise<null> {
  await ctx.queryClient.ensureQueryData(signinFieldsQuery(ctx.api));
  return null;
}

export function Component() {
  const { t } = useTranslation();
  const ctx = useAppContext();
  const navigate = useNavigate();
  const { forum } = useForum();
  const closed = forum?.setSite.registerClose === true;
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [nickname, setNickname] = useState('');
  const [email, setEmail] = useState('');
  const mailOn = forum?.setSite.mailEnabled === true;
  const { pending, run } = usePending();
  const fieldsResult = useQuery(signinFieldsQuery(ctx.api)).data;
  const fields = fieldsResult && isSuccess(fieldsResult) ? fieldsResult.Data : [];
  const [answers, setAnswers] = useState<SigninValues>({});
  const [search] = useSearchParams();
  const inviteCode = search.get('inviteCode') ?? '';
  const invite = useQuery({ ...inviteDetailQuery(ctx.api, inviteCode), enabled: inviteCode !== '' }).data;
  const inviteInfo = invite && isSuccess(invite) ? invite.Data : null;
  const inviteBroken = inviteCode !== '' && invite !== undefined && (!inviteInfo || !inviteInfo.valid);
  const inviteOnly = forum?.setSite.registerInviteOnly === true && inviteCode === '';
  const agreementOpen = forum?.setSite.registerAgreementOpen === true;
  const [accepted, setAccepted] = useState(false);
  const captcha = useCaptcha(forum?.setSite.registerCaptcha === true && !closed);

  const submit = async (): Promise<void> => {
    if (!username.trim() || !password) {
      toast.warning(t('auth.required'));
      return;
    }
    const missing = missingRequired(fields, answers, false);
    if (missing) {
      toast.warning(t('signin.required', { name: missing.name }));
      return;
    }
    if (agreementOpen && !accepted) {
      toast.warning(t('community.agreement.needAccept'));
      return;
    }
    await run(async () => {
      const body: Record<string, unknown> = { username: username.trim(), password };
      if (inviteCode) body.inviteCode = inviteCode;
      if (agreementOpen) body.agreement = true;
      const solution = await captcha.take();
      if (solution) body.captcha = solution;
      if (nickname.trim()) body.nickname = nickname.trim();
      if (email.trim()) body.email = email.trim();
      const given = answersOf(fields, answers);
      if (given.length > 0) body.signinFields = given;
      await submitSignIn(ctx, navigate, {
        url: endpoints.users.register,
        data: body,
        validator: registerBody,
        successText: t('auth.registerSuccess'),
      });
    });
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    submit().catch((error: unknown) => console.error(error));
  };

  return (
    <AuthCard
      title={t('auth.registerHeading')}
      footer={
        <>
          {t('auth.haveAccount')} <Link to="/user/login">{t('auth.toLogin')}</Link>
        </>
      }
    >
      {closed ? (
        <p className="lt-auth__notice" role="status">
          {t('auth.registerClosed')}
        </p>
      ) : null}
      {inviteInfo && inviteInfo.valid ? (
        <p className="lt-auth__notice lt-auth__notice--info" role="status" data-testid="invite-notice">
          {t('community.invite.registerWith', { name: inviteInfo.inviter.nickname, group: inviteInfo.groupName })}
        </p>
      ) : null}
      {inviteBroken ? (
        <p className="lt-auth__notice" role="alert">
          {t('community.invite.invalid')}
        </p>
      ) : null}
      {inviteOnly && !closed ? (
        <p className="lt-auth__notice" role="status">
          {t('community.invite.inviteOnly')}
        </p>
      ) : null}
      <form className="lt-auth__form" onSubmit={onSubmit} noValidate>
        <TextInput
          label={t('auth.username')}
          name="username"
          autoComplete="username"
          placeholder={t('auth.usernamePlaceholder')}
          value={username}
          onChange={setUsername}
          disabled={closed}
          required
        />
        <TextInput
          label={t('auth.password')}
          name="password"
          mode="password"
          autoComplete="new-password"
          placeholder={t('auth.passwordPlaceholder')}
          value={password}
          onChange={setPassword}
          disabled={closed}
          required
        />
        <TextInput
          label={t('auth.nickname')}
          name="nickname"
          autoComplete="nickname"
          placeholder={t('auth.nicknamePlaceholder')}
          value={nickname}
          onChange={setNickname}
          disabled={closed}
        />
        <TextInput
          label={t('auth.email')}
          name="email"
          mode="email"
          autoComplete="email"
          placeholder={t('auth.emailPlaceholder')}
          value={email}
          onChange={setEmail}
          disabled={closed}
        />
        {mailOn && email.trim() ? <p className="lt-auth__hint">{t('auth.emailHint')}</p> : null}
        {fields.length > 0 ? (
          <SigninFieldsForm fields={fields} values={answers} onChange={setAnswers} canUpload={false} />
        ) : null}
        {captcha.element}
        {agreementOpen ? (
          <label className="lt-agreement-check">
            <input
              type="checkbox"
              name="agreement"
              checked={accepted}
              onChange={(e) => setAccepted(e.target.checked)}
              data-testid="agreement-accept"
            />
            <span>
              {t('community.agreement.accept')}{' '}
              <Link to="/user/agreement?type=register" target="_blank">
                {t('community.agreement.register')}
              </Link>{' '}
              {t('community.agreement.and')}{' '}
              <Link to="/user/agreement?type=privacy" target="_blank">
                {t('community.agreement.privacy')}
              </Link>
            </span>
          </label>
        ) : null}
        <Button type="primary" size="large" htmlType="submit" full loading={pending} disabled={closed}>
          {t('auth.registerSubmit')}
        </Button>
      </form>
    </AuthCard>
  );
}

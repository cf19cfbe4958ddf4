import { emailBindBody, type EmailBindResult, type UserProfile } from '@luntan/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { isSuccess, request } from '../../api/dispatcher';
import { useForum } from '../../hooks/use-forum';
import { patchProfile } from '../../hooks/use-people-actions';
import { usePending } from '../../hooks/use-pending';
import { Button, TextInput, toast } from '../ui';
import { endpoints } from '../../api/endpoints';

/**
 * The personal centre's e-mail: the address and whether it is verified, a link still waiting to be opened, and a
 * form that mails a verification link to a new address (it becomes the member's when the link is opened).
 */
export function EmailSettings({ profile }: { profile: UserProfile }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { forum } = useForum();
  const mailOff = forum?.setSite.mailEnabled === false;
  const [email, setEmail] = useState('');
  const { pending, run } = usePending();

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    if (!email.trim()) {
      toast.warning(t('my.settings.emailRequired'));
      return;
    }
    void run(async () => {
      const result = await request<EmailBindResult>({
        url: endpoints.users.emailBind,
        method: 'POST',
        data: { email: email.trim() },
        validator: emailBindBody,
      });
      if (!isSuccess(result)) {
        toast.error(result.Message);
        return;
      }
      setEmail('');
      patchProfile(queryClient, profile.id, (p) => ({ ...p, emailPending: result.Data.email }));
      toast.success(t('my.settings.verificationSent', { email: result.Data.email }));
    });
  };

  return (
    <form className="lt-settings__block" onSubmit={submit} aria-labelledby="settings-email" noValidate>
      <h3 id="settings-email" className="lt-settings__title">
        {t('my.settings.email')}
      </h3>
      {profile.email ? (
        <p className="lt-email" data-testid="email-current">
          <span className="lt-email__address">{profile.email}</span>
          <span className={`lt-email__state lt-email__state--${profile.emailVerified ? 'ok' : 'pending'}`}>
            {profile.emailVerified ? t('my.settings.emailVerified') : t('my.settings.emailUnverified')}
          </span>
        </p>
      ) : (
        <p className="lt-settings__hint">{t('my.settings.emailNone')}</p>
      )}
      {profile.emailPending ? (
        <p className="lt-settings__note" role="status" data-testid="email-pending">
          {t('my.settings.emailPending', { email: profile.emailPending })}
        </p>
      ) : null}
      {mailOff ? (
        <p className="lt-settings__note lt-settings__note--off" role="status" data-testid="mail-off">
          {t('mail.off')}
        </p>
      ) : null}
      <TextInput
        mode="email"
        label={t('my.settings.newEmail')}
        name="email"
        autoComplete="email"
        placeholder={t('my.settings.emailPlaceholder')}
        value={email}
        onChange={setEmail}
        disabled={mailOff}
      />
      <p className="lt-settings__hint">{t('my.settings.emailHint')}</p>
      <div>
        <Button type="primary" htmlType="submit" loading={pending} disabled={mailOff} data-testid="email-send">
          {t('my.settings.sendVerification')}
        </Button>
      </div>
    </form>
  );
}

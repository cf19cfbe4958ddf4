import { isLocale, type Locale, type UserProfile } from '@luntan/shared';
import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { post } from '../../api/mutate';
import { useQueryClient } from '@tanstack/react-query';
import { patchProfile } from '../../hooks/use-people-actions';
import { usePending } from '../../hooks/use-pending';
import { htmlLang, switchLanguage, writeLocaleCookie } from '../../i18n/runtime';
import { Link } from 'react-router';
import { useForum } from '../../hooks/use-forum';
import { Button, TextInput, toast } from '../ui';
import { EmailSettings } from './email-settings';
import { UsernameSettings } from './username-settings';
import { PushSettingsBlock } from './push-settings';
import { LinkedAccountsBlock } from '../oauth/linked-accounts';
import { linkedAccountsKey } from '../../api/oauth-queries';
import { endpoints } from '../../api/endpoints';

const LANGUAGES: ReadonlyArray<{ locale: Locale; name: string }> = [
  { locale: 'zh', name: '中文' },
  { locale: 'en', name: 'English' },
];

/**
 * The current password, then the new one twice; the server signs out every other session. An account made by an
 * outside sign-in has no password its owner knows (hasPassword false): it sets its first one without the current.
 */
function PasswordForm({ profile }: { profile: UserProfile }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const needsCurrent = profile.hasPassword !== false;
  const { pending, run } = usePending();
  const [values, setValues] = useState({ password: '', newPassword: '', confirm: '' });
  const set = (field: keyof typeof values) => (value: string) => setValues((v) => ({ ...v, [field]: value }));

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    if ((needsCurrent && !values.password) || !values.newPassword) {
      toast.warning(t(needsCurrent ? 'my.settings.passwordRequired' : 'mail.passwordRequired'));
      return;
    }
    if (values.newPassword !== values.confirm) {
      toast.warning(t('my.settings.mismatch'));
      return;
    }
    void run(async () => {
      const done = await post<UserProfile>(endpoints.users.update, {
        ...(needsCurrent ? { password: values.password } : {}),
        newPassword: values.newPassword,
      });
      if (!done) return;
      patchProfile(queryClient, profile.id, () => done);
      setValues({ password: '', newPassword: '', confirm: '' });
      toast.success(t('my.settings.passwordChanged'));
      // A first password lets the member unlink an account: the block below says so once it reads again.
      await queryClient.invalidateQueries({ queryKey: linkedAccountsKey(profile.id) });
    });
  };

  return (
    <form className="lt-settings__block" onSubmit={submit} aria-labelledby="settings-password" noValidate>
      <h3 id="settings-password" className="lt-settings__title">
        {t('my.settings.password')}
      </h3>
      {needsCurrent ? (
        <TextInput
          mode="password"
          label={t('my.settings.currentPassword')}
          name="password"
          autoComplete="current-password"
          value={values.password}
          onChange={set('password')}
        />
      ) : (
        <p className="lt-settings__hint" data-testid="password-first">
          {t('my.settings.firstPasswordHint')}
        </p>
      )}
      <TextInput
        mode="password"
        label={t('my.settings.newPassword')}
        name="newPassword"
        autoComplete="new-password"
        value={values.newPassword}
        onChange={set('newPassword')}
      />
      <TextInput
        mode="password"
        label={t('my.settings.confirmPassword')}
        name="confirmPassword"
        autoComplete="new-password"
        value={values.confirm}
        onChange={set('confirm')}
      />
      <div>
        <Button type="primary" htmlType="submit" loading={pending} data-testid="password-save">
          {t('my.settings.changePassword')}
        </Button>
      </div>
    </form>
  );
}

/** The bound number, masked, with the way to bind one or change it. */
function PhoneBlock() {
  const { t } = useTranslation();
  const { forum } = useForum();
  const mobile = forum?.user?.mobile ?? '';
  return (
    <section className="lt-settings__block" aria-labelledby="settings-phone">
      <h3 id="settings-phone" className="lt-settings__title">
        {t('phone.settingsTitle')}
      </h3>
      <div className="lt-settings__row">
        <span data-testid="settings-mobile">{mobile || t('phone.settingsNone')}</span>
        <Link to={mobile ? '/user/rebind' : '/user/bind-phone'} data-testid="settings-phone-action">
          {mobile ? t('phone.settingsChange') : t('phone.settingsBind')}
        </Link>
      </div>
    </section>
  );
}

/**
 * Account settings: username, phone, password, e-mail, likes privacy, language (kept with the account and in the
 * locale cookie), push notifications.
 */
export function AccountSettings({ profile }: { profile: UserProfile }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const [privacyPending, setPrivacyPending] = useState(false);
  const current: Locale = isLocale(i18n.language) ? i18n.language : 'zh';

  const setLikesPublic = async (likesPublic: boolean): Promise<void> => {
    setPrivacyPending(true);
    try {
      const next = await post<UserProfile>(endpoints.users.update, { likesPublic });
      if (!next) return;
      patchProfile(queryClient, profile.id, () => next);
      toast.success(t('my.settings.saved'));
    } finally {
      setPrivacyPending(false);
    }
  };

  const setLanguage = async (locale: Locale): Promise<void> => {
    if (locale === current) return;
    // The cookie makes the next server render speak it too; the account keeps it for the user's other devices.
    writeLocaleCookie(locale);
    document.documentElement.lang = htmlLang(locale);
    await switchLanguage(i18n, locale);
    if (await post(endpoints.users.update, { locale })) toast.success(i18n.t('my.settings.saved'));
  };

  return (
    <div className="lt-settings" data-testid="settings">
      <UsernameSettings profile={profile} />
      <PhoneBlock />
      <PasswordForm profile={profile} />
      <EmailSettings profile={profile} />
      <LinkedAccountsBlock userId={profile.id} />
      <section className="lt-settings__block" aria-labelledby="settings-privacy">
        <h3 id="settings-privacy" className="lt-settings__title">
          {t('my.settings.privacy')}
        </h3>
        <label className="lt-switch">
          <input
            type="checkbox"
            role="switch"
            className="lt-switch__input"
            checked={profile.likesPublic}
            disabled={privacyPending}
            onChange={(event) => void setLikesPublic(event.target.checked)}
            data-testid="likes-public"
          />
          <span className="lt-switch__track" aria-hidden="true" />
          <span className="lt-switch__label">{t('my.settings.likesPublic')}</span>
        </label>
        <p className="lt-settings__hint">{t('my.settings.likesPublicHint')}</p>
      </section>
      <section className="lt-settings__block" aria-labelledby="settings-language">
        <h3 id="settings-language" className="lt-settings__title">
          {t('my.settings.language')}
        </h3>
        <div className="lt-settings__choices" role="radiogroup" aria-labelledby="settings-language">
          {LANGUAGES.map(({ locale, name }) => (
            <label key={locale} className="lt-settings__choice" lang={htmlLang(locale)}>
              <input
                type="radio"
                name="locale"
                value={locale}
                checked={current === locale}
                onChange={() => void setLanguage(locale)}
                data-testid={`locale-${locale}`}
              />
              <span>{name}</span>
            </label>
          ))}
        </div>
        <p className="lt-settings__hint">{t('my.settings.languageHint')}</p>
      </section>
      <PushSettingsBlock userId={profile.id} />
    </div>
  );
}

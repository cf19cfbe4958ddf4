import { updateUserBody, type UserProfile } from '@luntan/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { isSuccess, request } from '../../api/dispatcher';
import { forumKey } from '../../api/queries';
import { patchProfile } from '../../hooks/use-people-actions';
import { usePending } from '../../hooks/use-pending';
import { Button, TextInput, toast } from '../ui';
import { endpoints } from '../../api/endpoints';

/**
 * The username, and while it is one the site made up (a first SMS or outside sign-in) a form to choose one's own,
 * once: the server applies the registration's rules and says why a name is refused.
 */
export function UsernameSettings({ profile }: { profile: UserProfile }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [username, setUsername] = useState('');
  const { pending, run } = usePending();

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    if (!username.trim()) {
      toast.warning(t('my.settings.usernameRequired'));
      return;
    }
    void run(async () => {
      const result = await request<UserProfile>({
        url: endpoints.users.update,
        method: 'POST',
        data: { username: username.trim() },
        validator: updateUserBody,
      });
      if (!isSuccess(result)) {
        toast.error(result.Message);
        return;
      }
      setUsername('');
      patchProfile(queryClient, profile.id, () => result.Data);
      // The header's viewer carries the username too.
      await queryClient.invalidateQueries({ queryKey: forumKey });
      toast.success(t('my.settings.usernameChanged'));
    });
  };

  const heading = (
    <>
      <h3 id="settings-username" className="lt-settings__title">
        {t('my.settings.username')}
      </h3>
      <div className="lt-settings__row">
        <span data-testid="settings-username">{profile.username}</span>
      </div>
    </>
  );
  if (!profile.usernameChangeable) {
    return (
      <section className="lt-settings__block" aria-labelledby="settings-username">
        {heading}
      </section>
    );
  }
  return (
    <form className="lt-settings__block" onSubmit={submit} aria-labelledby="settings-username" noValidate>
      {heading}
      <p className="lt-settings__hint" data-testid="username-changeable">
        {t('my.settings.usernameHint')}
      </p>
      <TextInput
        label={t('my.settings.newUsername')}
        name="username"
        autoComplete="username"
        placeholder={t('my.settings.usernamePlaceholder')}
        value={username}
        onChange={setUsername}
      />
      <div>
        <Button type="primary" htmlType="submit" loading={pending} data-testid="username-save">
          {t('my.settings.saveUsername')}
        </Button>
      </div>
    </form>
  );
}

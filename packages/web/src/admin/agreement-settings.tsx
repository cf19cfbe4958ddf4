import { useTranslation } from '../i18n/use-translation';
import { Button, Textarea } from '../components/ui';
import { useSettingsForm } from './use-settings-form';

/** The settings page's agreements (tag agreement): whether registration asks to accept them, and their texts. */
export function AgreementSettings() {
  const { t } = useTranslation();
  const form = useSettingsForm(['registerAgreementOpen', 'registerAgreement', 'privacyAgreement']);
  const { pending, save } = form;
  const text = (key: string) => String(form.get(key) ?? '');

  return (
    <form
      className="lt-card lt-admin-form"
      onSubmit={(e) => void save(e)}
      aria-labelledby="agreement-settings-title"
      data-testid="agreement-settings"
    >
      <h2 id="agreement-settings-title" className="lt-card__title">
        {t('community.admin.agreement.title')}
      </h2>
      <label className="lt-check">
        <input
          type="checkbox"
          name="registerAgreementOpen"
          checked={form.get('registerAgreementOpen') === true}
          onChange={(e) => form.set('registerAgreementOpen', e.target.checked)}
        />
        {t('community.admin.agreement.open')}
      </label>
      <Textarea
        name="registerAgreement"
        label={t('community.admin.agreement.register')}
        value={text('registerAgreement')}
        onChange={(value) => form.set('registerAgreement', value)}
        rows={6}
      />
      <Textarea
        name="privacyAgreement"
        label={t('community.admin.agreement.privacy')}
        value={text('privacyAgreement')}
        onChange={(value) => form.set('privacyAgreement', value)}
        rows={6}
      />
      <div className="lt-admin-form__actions">
        <Button type="primary" htmlType="submit" loading={pending} data-testid="agreement-save">
          {t('admin.save')}
        </Button>
      </div>
    </form>
  );
}

import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from '../i18n/use-translation';
import { Button, Textarea } from '../components/ui';
import { usePending } from '../hooks/use-pending';
import { adminCall } from './admin-api';

const TAG = 'agreement';

interface Values {
  registerAgreementOpen: boolean;
  registerAgreement: string;
  privacyAgreement: string;
}

/** The settings page's agreements (tag agreement): whether registration asks to accept them, and their texts. */
export function AgreementSettings({
  stored,
  onSaved,
}: {
  stored: Array<{ key: string; tag: string; value: string | number | boolean }> | null;
  onSaved: () => Promise<void>;
}) {
  const { t } = useTranslation();
  const [values, setValues] = useState<Values>({
    registerAgreementOpen: false,
    registerAgreement: '',
    privacyAgreement: '',
  });
  const { pending, run } = usePending();

  useEffect(() => {
    if (!stored) return;
    const of = (key: string) => stored.find((r) => r.tag === TAG && r.key === key)?.value;
    setValues({
      registerAgreementOpen: of('registerAgreementOpen') === true,
      registerAgreement: String(of('registerAgreement') ?? ''),
      privacyAgreement: String(of('privacyAgreement') ?? ''),
    });
  }, [stored]);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    await run(async () => {
      const data = (Object.keys(values) as Array<keyof Values>).map((key) => ({ key, value: values[key], tag: TAG }));
      if (await adminCall('POST', '/api/settings.v2', { data }, t('admin.saved'))) await onSaved();
    });
  };

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
          checked={values.registerAgreementOpen}
          onChange={(e) => setValues((v) => ({ ...v, registerAgreementOpen: e.target.checked }))}
        />
        {t('community.admin.agreement.open')}
      </label>
      <Textarea
        name="registerAgreement"
        label={t('community.admin.agreement.register')}
        value={values.registerAgreement}
        onChange={(registerAgreement) => setValues((v) => ({ ...v, registerAgreement }))}
        rows={6}
      />
      <Textarea
        name="privacyAgreement"
        label={t('community.admin.agreement.privacy')}
        value={values.privacyAgreement}
        onChange={(privacyAgreement) => setValues((v) => ({ ...v, privacyAgreement }))}
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

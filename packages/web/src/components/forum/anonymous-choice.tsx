import { useTranslation } from '../../i18n/use-translation';
import '../people/anonymous-user.css';

/** The editor's "post anonymously" checkbox (shown where the viewer holds thread.allowAnonymous in the category). */
export function AnonymousChoice({ checked, onChange }: { checked: boolean; onChange: (checked: boolean) => void }) {
  const { t } = useTranslation();
  return (
    <div className="lt-post-form__anonymous">
      <label className="lt-check">
        <input
          type="checkbox"
          name="anonymous"
          data-testid="post-anonymous"
          checked={checked}
          onChange={(event) => onChange(event.target.checked)}
        />{' '}
        {t('anonymous.checkbox')}
      </label>
      <span className="lt-post-form__hint">{t('anonymous.hint')}</span>
    </div>
  );
}

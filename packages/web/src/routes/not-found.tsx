import { useTranslation } from '../i18n/use-translation';
import { useNavigate } from 'react-router';
import { Button } from '../components/ui';
import { usePlatform } from '../platform/platform-context';
import type { RouteHandle } from '../routing/handle';
import { goBackOrHome } from '../routing/history';
import './not-found.css';

export const handle: RouteHandle = { title: (t) => t('notFound.title'), notFound: true };

/** The not-found page, desktop and mobile variants by platform. The server answers it with HTTP 404. */
export function NotFoundPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const platform = usePlatform();
  return (
    <section className={`lt-not-found lt-not-found--${platform}`} aria-labelledby="not-found-title">
      <img
        className="lt-not-found__image"
        src="/static/404.svg"
        alt={t('notFound.imageAlt')}
        width={320}
        height={200}
      />
      <h1 id="not-found-title" className="lt-not-found__title">
        {t('notFound.title')}
      </h1>
      <p className="lt-not-found__text">{t('notFound.description')}</p>
      <Button
        type="primary"
        size={platform === 'h5' ? 'large' : 'middle'}
        full={platform === 'h5'}
        className="lt-not-found__back"
        onClick={() => goBackOrHome(navigate)}
      >
        {t('notFound.back')}
      </Button>
    </section>
  );
}

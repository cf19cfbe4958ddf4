import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { RouteHandle } from '../routing/handle';

export const handle: RouteHandle = { title: (t) => t('search.title') };

/** Search results: the heading for the keyword; thread and user results arrive with the threads issue. */
export function Component() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const keyword = (params.get('keyword') ?? '').trim();
  return (
    <div className="lt-page">
      <section className="lt-card" aria-labelledby="search-heading">
        <h1 id="search-heading" className="lt-page__title" data-testid="search-heading">
          {keyword ? t('search.resultsFor', { keyword }) : t('search.title')}
        </h1>
        <p className="lt-empty">{keyword ? t('search.empty') : t('search.prompt')}</p>
      </section>
    </div>
  );
}

import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../i18n/use-translation';
import { Link, useSearchParams, type LoaderFunctionArgs } from 'react-router';
import { agreementQuery } from '../api/community-queries';
import { isSuccess } from '../api/dispatcher';
import { useAppContext, type AppContext } from '../app-context';
import { Spinner } from '../components/ui';
import type { RouteHandle } from '../routing/handle';
import '../components/community/community.css';

export const handle: RouteHandle = { title: (t) => t('community.agreement.title') };

type Kind = 'register' | 'privacy';

export async function loader(ctx: AppContext, _args: LoaderFunctionArgs): Promise<null> {
  await ctx.queryClient.ensureQueryData(agreementQuery(ctx.api));
  return null;
}

/** /user/agreement?type=register|privacy: the agreements the administrator wrote, as plain text. */
export function Component() {
  const { t } = useTranslation();
  const { api } = useAppContext();
  const [search] = useSearchParams();
  const kind: Kind = search.get('type') === 'privacy' ? 'privacy' : 'register';
  const result = useQuery(agreementQuery(api)).data;
  if (!result) return <Spinner />;
  const text = isSuccess(result)
    ? kind === 'privacy'
      ? result.Data.privacyAgreement
      : result.Data.registerAgreement
    : result.Message;
  return (
    <div className="lt-page">
      <section className="lt-card lt-agreement-page" aria-labelledby="agreement-title" data-testid="agreement-page">
        <nav className="lt-tabs" aria-label={t('community.agreement.title')}>
          {(['register', 'privacy'] as const).map((k) => (
            <Link
              key={k}
              to={`/user/agreement?type=${k}`}
              replace
              className={`lt-tab${k === kind ? ' lt-tab--active' : ''}`}
              aria-current={k === kind ? 'page' : undefined}
            >
              {t(`community.agreement.${k}`)}
            </Link>
          ))}
        </nav>
        <h1 id="agreement-title" className="lt-page__title">
          {t(`community.agreement.${kind}`)}
        </h1>
        {text ? (
          <div className="lt-agreement">{text}</div>
        ) : (
          <p className="lt-empty">{t('community.agreement.empty')}</p>
        )}
      </section>
    </div>
  );
}

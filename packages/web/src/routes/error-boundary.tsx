import { useTranslation } from '../i18n/use-translation';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { Button, Icon } from '../components/ui';
import { isAssetError } from '../routing/asset-loader';
import { useShownPage } from '../routing/shown-page';
import { NotFoundPage, handle as notFoundHandle } from './not-found';
import './error-boundary.css';

/** A page chunk that did not load: offer a reload rather than a blank screen. */
export function AssetErrorPage() {
  const { t } = useTranslation();
  return (
    <section className="lt-error-page" role="alert">
      <Icon name="reload" size={40} />
      <h1>{t('errors.assetTitle')}</h1>
      <p>{t('errors.assetDescription')}</p>
      <Button type="primary" onClick={() => window.location.reload()}>
        {t('errors.reload')}
      </Button>
    </section>
  );
}

/** 出bug了 页面暂时无法展示. */
export function BugPage({ withHomeLink = true }: { withHomeLink?: boolean }) {
  const { t } = useTranslation();
  return (
    <section className="lt-error-page" role="alert">
      <Icon name="warning" size={40} />
      <h1>{t('errors.bug')}</h1>
      {withHomeLink ? <Link to="/">{t('errors.home')}</Link> : null}
    </section>
  );
}

function logError(error: unknown): void {
  if (typeof window !== 'undefined') console.error(error);
}

/** Errors inside a page: the header and footer stay. */
export function PageErrorBoundary() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  // The title is the not-found page's, not that of the page the loader refused.
  useShownPage(notFound ? notFoundHandle : null);
  if (notFound) return <NotFoundPage />;
  if (isAssetError(error)) return <AssetErrorPage />;
  logError(error);
  return <BugPage />;
}

/** Errors in the shell itself: a bare page. */
export function RootErrorBoundary() {
  const { t } = useTranslation();
  const error = useRouteError();
  if (isAssetError(error)) return <AssetErrorPage />;
  logError(error);
  return (
    <main className="lt-root-error">
      <BugPage withHomeLink={false} />
      {/* A full page load: the shell itself failed, so client-side navigation may not work. */}
      <a href="/">{t('errors.home')}</a>
    </main>
  );
}

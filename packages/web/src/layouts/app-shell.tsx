import { useEffect, useState } from 'react';
import { useTranslation } from '../i18n/use-translation';
import { Outlet, ScrollRestoration, useLocation, useMatches } from 'react-router';
import { PlainLink, PlainLinkNavigator } from '../components/plain-link';
import { Button, Icon } from '../components/ui';
import { useForum } from '../hooks/use-forum';
import { useLiveUpdates } from '../hooks/use-live-updates';
import { usePlatform } from '../platform/platform-context';
import { PluginRuntime } from '../plugin-runtime/plugin-runtime';
import { documentTitle, type RouteHandle } from '../routing/handle';
import { ShownPageContext } from '../routing/shown-page';
import { DesktopHeader } from './desktop/desktop-header';
import { MobileHeader } from './mobile/mobile-header';
import { AppFrame } from './shared/app-frame';

/** 获取站点接口信息失败: the site information could not be fetched. */
function SiteInfoError({ retry }: { retry: () => void }) {
  const { t } = useTranslation();
  return (
    <section className="lt-error-page" role="alert" data-testid="site-info-failed">
      <Icon name="warning" size={40} />
      <h1>{t('site.siteInfoFailed')}</h1>
      <Button onClick={retry}>{t('site.retry')}</Button>
    </section>
  );
}

/** The site is closed: visitors see its notice; administrators can still sign in and use everything. */
function SiteClosed({ message }: { message: string }) {
  const { t } = useTranslation();
  return (
    <section className="lt-error-page" role="status" data-testid="site-closed">
      <Icon name="warning" size={40} />
      <h1>{t('site.closed')}</h1>
      <p>{message || t('site.closedDefault')}</p>
      <PlainLink to="/user/login">{t('site.adminLogin')}</PlainLink>
    </section>
  );
}

/**
 * Keeps the document title in step with the page after client-side navigations: the matched page's, or the one an
 * error boundary shows in its place.
 */
function useDocumentTitle(siteName: string | undefined, shown: RouteHandle | null): void {
  const { t } = useTranslation();
  const matches = useMatches();
  const title = documentTitle(shown ? [{ handle: shown }] : matches, t, siteName);
  useEffect(() => {
    document.title = title;
  }, [title]);
}

/** Marks the document once the browser has taken over the server's HTML (tests and styles can rely on it). */
function useHydratedMark(): void {
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
  }, []);
}

/**
 * The frame around every page. Both layouts are one tree: crossing 800 px swaps the header and the frame's classes,
 * while the page keeps its place (same element types at the same positions), so React keeps what is being typed,
 * the focus and the caret. A separate component per layout would remount the page at every switch.
 */
export function AppShell() {
  const platform = usePlatform();
  useHydratedMark();
  const { forum, failed, retry } = useForum();
  // One event stream per page for a signed-in member (messages, notices, counters arrive at once).
  useLiveUpdates(forum?.user?.userId);
  const [shownPage, setShownPage] = useState<RouteHandle | null>(null);
  useDocumentTitle(forum?.setSite.siteName, shownPage);
  const location = useLocation();
  const closed = forum?.setSite.siteClose === true && !forum.user?.isAdmin && location.pathname !== '/user/login';
  return (
    <PlainLinkNavigator>
      <PluginRuntime>
        <SkipLink />
        <AppFrame platform={platform} header={platform === 'h5' ? <MobileHeader /> : <DesktopHeader />}>
          {failed ? (
            <SiteInfoError retry={retry} />
          ) : closed ? (
            <SiteClosed message={forum.setSite.siteCloseMsg} />
          ) : (
            <ShownPageContext.Provider value={setShownPage}>
              <Outlet />
            </ShownPageContext.Provider>
          )}
        </AppFrame>
        {/* Back and forward return to where the reader was on the page (a list's page and position). */}
        <ScrollRestoration />
      </PluginRuntime>
    </PlainLinkNavigator>
  );
}

function SkipLink() {
  const { t } = useTranslation();
  return (
    <a className="lt-skip-link" href="#main">
      {t('nav.skipToContent')}
    </a>
  );
}

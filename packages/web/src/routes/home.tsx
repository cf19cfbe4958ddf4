import { useTranslation } from 'react-i18next';
import { PluginSlot } from '../components/plugin/plugin-slot';
import { useForum } from '../hooks/use-forum';
import { usePlatform } from '../platform/platform-context';
import type { RouteHandle } from '../routing/handle';
import './home.css';

export const handle: RouteHandle = {};

function SiteBanner() {
  const { t } = useTranslation();
  const { forum } = useForum();
  const site = forum?.setSite;
  return (
    <section className="lt-card lt-home__banner" aria-labelledby="home-site-name">
      <h1 id="home-site-name" className="lt-home__site-name">
        {site?.siteName || t('site.defaultTitle')}
      </h1>
      <p className="lt-home__intro">{site?.siteIntroduction || t('home.noIntroduction')}</p>
    </section>
  );
}

function Tabs() {
  const { t } = useTranslation();
  return (
    <nav className="lt-home__tabs" aria-label={t('home.threadsHeading')}>
      <a className="lt-home__tab lt-home__tab--active" href="/" aria-current="page">
        {t('home.all')}
      </a>
    </nav>
  );
}

function ThreadList() {
  const { t } = useTranslation();
  return (
    <section className="lt-card lt-home__threads" aria-labelledby="home-threads">
      <h2 id="home-threads" className="lt-card__title">
        {t('home.threadsHeading')}
      </h2>
      <p className="lt-empty">{t('home.empty')}</p>
    </section>
  );
}

function AboutCard() {
  const { t } = useTranslation();
  const { forum } = useForum();
  return (
    <section className="lt-card" aria-labelledby="home-about">
      <h2 id="home-about" className="lt-card__title">
        {t('home.about')}
      </h2>
      <p className="lt-card__text">{forum?.setSite.siteIntroduction || t('home.noIntroduction')}</p>
    </section>
  );
}

function RecommendCard() {
  const { t } = useTranslation();
  return (
    <section className="lt-card" aria-labelledby="home-recommend">
      <h2 id="home-recommend" className="lt-card__title">
        {t('home.recommend')}
      </h2>
      <p className="lt-empty lt-empty--small">{t('home.noRecommend')}</p>
    </section>
  );
}

/** The index page with the spec's index hook slots; the thread list arrives with the threads issue. */
export function Component() {
  const platform = usePlatform();
  const main = (
    <div className="lt-home__main">
      <PluginSlot target="plugin_index" hook="header_insert_before" />
      <PluginSlot target="plugin_index" hook="header_replace">
        <SiteBanner />
      </PluginSlot>
      <PluginSlot target="plugin_index" hook="header_insert_after" />
      <PluginSlot target="plugin_index" hook="tabs_replace">
        <Tabs />
      </PluginSlot>
      <PluginSlot target="plugin_index" hook="topping_insert_before" />
      <PluginSlot target="plugin_index" hook="topping_replace" />
      <PluginSlot target="plugin_index" hook="topping_insert_after" />
      <ThreadList />
    </div>
  );
  if (platform === 'h5') return <div className="lt-home lt-home--h5">{main}</div>;
  return (
    <div className="lt-home lt-home--pc">
      <aside className="lt-home__left">
        <PluginSlot target="plugin_index" hook="left_insert" />
      </aside>
      {main}
      <aside className="lt-home__right">
        <AboutCard />
        <PluginSlot target="plugin_index" hook="recommend_replace">
          <RecommendCard />
        </PluginSlot>
        <PluginSlot target="plugin_index" hook="qrcode_replace" />
        <PluginSlot target="plugin_index" hook="right_insert" />
      </aside>
    </div>
  );
}

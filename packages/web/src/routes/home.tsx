import type { CategoryItem } from '@luntan/shared';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../i18n/use-translation';
import { isSuccess } from '../api/dispatcher';
import type { LoaderFunctionArgs } from 'react-router';
import { useSearchParams } from 'react-router';
import {
  categoriesQuery,
  HOME_TABS,
  positiveInt,
  threadListQuery,
  type HomeTab,
  type ThreadListParams,
} from '../api/forum-queries';
import { useAppContext } from '../app-context';
import type { AppContext } from '../app-context';
import { Pager } from '../components/forum/pager';
import { SearchBox } from '../components/forum/search-box';
import { ThreadCard } from '../components/forum/thread-card';
import { PluginSlot } from '../components/plugin/plugin-slot';
import { HotTopicsCard, HotTopicsRow } from '../components/forum/hot-topics';
import { HOT_TOPICS_CARD, hotTopicsQuery } from '../api/topic-queries';
import { PlainLink } from '../components/plain-link';
import { LinkButton, Spinner } from '../components/ui';
import { useForum } from '../hooks/use-forum';
import { usePlatform } from '../platform/platform-context';
import type { RouteHandle } from '../routing/handle';
import '../components/forum/forum.css';
import './home.css';

export const handle: RouteHandle = {};

const RECOMMEND: ThreadListParams = { page: 1, tab: 'hot', perPage: 5 };

/** The list the address asks for: `?categoryId=&tab=&page=`. */
export function homeListParams(search: URLSearchParams): ThreadListParams {
  const tab = search.get('tab');
  const categoryId = positiveInt(search.get('categoryId'), 0);
  return {
    page: positiveInt(search.get('page'), 1),
    tab: HOME_TABS.includes(tab as HomeTab) ? (tab as HomeTab) : 'all',
    ...(categoryId ? { categoryId } : {}),
  };
}

export async function loader(ctx: AppContext, { request }: LoaderFunctionArgs): Promise<null> {
  const params = homeListParams(new URL(request.url).searchParams);
  await Promise.all([
    ctx.queryClient.ensureQueryData(categoriesQuery(ctx.api)),
    ctx.queryClient.ensureQueryData(threadListQuery(ctx.api, params)),
    ctx.queryClient.ensureQueryData(threadListQuery(ctx.api, RECOMMEND)),
    ctx.queryClient.ensureQueryData(hotTopicsQuery(ctx.api, HOT_TOPICS_CARD)),
  ]);
  return null;
}

function homeHref(values: { categoryId?: number; tab?: HomeTab }): string {
  const params = new URLSearchParams();
  if (values.categoryId) params.set('categoryId', String(values.categoryId));
  if (values.tab && values.tab !== 'all') params.set('tab', values.tab);
  const query = params.toString();
  return query ? `/?${query}` : '/';
}

function useCategories(): CategoryItem[] {
  const { api } = useAppContext();
  const result = useQuery(categoriesQuery(api)).data;
  return result && isSuccess(result) ? result.Data : [];
}

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

/** Category navigation: a column on the desktop, a scrolling row on a phone. */
function CategoryNav({ current, tab, row }: { current?: number; tab: HomeTab; row?: boolean }) {
  const { t } = useTranslation();
  const categories = useCategories();
  const items = [{ categoryId: 0, name: t('home.allCategories'), threadCount: -1, children: [] as CategoryItem[] }];
  for (const category of categories) {
    items.push(category);
    for (const child of category.children) items.push({ ...child, name: `· ${child.name}` });
  }
  return (
    <nav
      className={row ? 'lt-category-nav lt-category-nav--row' : 'lt-card lt-category-nav'}
      aria-label={t('home.categories')}
    >
      {row ? null : <h2 className="lt-card__title">{t('home.categories')}</h2>}
      <ul>
        {items.map((item) => {
          const active = (current ?? 0) === item.categoryId;
          return (
            <li key={item.categoryId}>
              <PlainLink
                className={`lt-category-nav__item${active ? ' lt-category-nav__item--active' : ''}`}
                to={homeHref({ categoryId: item.categoryId, tab })}
                aria-current={active ? 'page' : undefined}
              >
                <span>{item.name}</span>
                {item.threadCount >= 0 && !row ? (
                  <span className="lt-category-nav__count">{item.threadCount}</span>
                ) : null}
              </PlainLink>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

function Tabs({ current, categoryId }: { current: HomeTab; categoryId?: number }) {
  const { t } = useTranslation();
  return (
    <nav className="lt-tabs" aria-label={t('home.tabs')}>
      {HOME_TABS.map((tab) => (
        <PlainLink
          key={tab}
          className={`lt-tab${tab === current ? ' lt-tab--active' : ''}`}
          to={homeHref({ categoryId, tab })}
          aria-current={tab === current ? 'page' : undefined}
        >
          {t(`home.tab.${tab}`)}
        </PlainLink>
      ))}
    </nav>
  );
}

function ThreadList({ params }: { params: ThreadListParams }) {
  const { t } = useTranslation();
  const { api } = useAppContext();
  const { forum } = useForum();
  const query = useQuery(threadListQuery(api, params));
  const result = query.data;
  const page = result && isSuccess(result) ? result.Data : null;
  return (
    <section className="lt-card lt-home__threads" aria-labelledby="home-threads" aria-busy={query.isFetching}>
      <div className="lt-home__threads-head">
        <h2 id="home-threads" className="lt-card__title">
          {t('home.threadsHeading')}
        </h2>
        {forum?.other.canCreateThread ? (
          <LinkButton
            type="primary"
            size="small"
            to={params.categoryId ? `/thread/post?categoryId=${params.categoryId}` : '/thread/post'}
          >
            {t('forum.newThread')}
          </LinkButton>
        ) : null}
      </div>
      {!result ? <Spinner /> : null}
      {result && !page ? <p className="lt-empty">{result.Message}</p> : null}
      {page && page.pageData.length === 0 ? <p className="lt-empty">{t('home.empty')}</p> : null}
      {page ? (
        <div className="lt-thread-list">
          {page.pageData.map((thread) => (
            <ThreadCard key={thread.threadId} thread={thread} />
          ))}
        </div>
      ) : null}
      {page ? <Pager current={page.currentPage} total={page.totalPage} /> : null}
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
  const { api } = useAppContext();
  const result = useQuery(threadListQuery(api, RECOMMEND)).data;
  const threads = result && isSuccess(result) ? result.Data.pageData : [];
  return (
    <section className="lt-card" aria-labelledby="home-recommend">
      <h2 id="home-recommend" className="lt-card__title">
        {t('home.recommend')}
      </h2>
      {threads.length === 0 ? (
        <p className="lt-empty lt-empty--small">{t('home.noRecommend')}</p>
      ) : (
        <ol className="lt-recommend">
          {threads.map((thread) => (
            <li key={thread.threadId}>
              <PlainLink to={`/thread/${thread.threadId}`}>{thread.title}</PlainLink>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/** The index page: category navigation, tabs, sticky threads on top, paging by address, the spec's index hooks. */
export function Component() {
  const platform = usePlatform();
  const [search] = useSearchParams();
  const params = homeListParams(search);
  const main = (
    <div className="lt-home__main">
      <PluginSlot target="plugin_index" hook="header_insert_before" />
      <PluginSlot target="plugin_index" hook="header_replace">
        <SiteBanner />
      </PluginSlot>
      <PluginSlot target="plugin_index" hook="header_insert_after" />
      {platform === 'h5' ? <SearchBox variant="block" /> : null}
      {platform === 'h5' ? <CategoryNav current={params.categoryId} tab={params.tab ?? 'all'} row /> : null}
      {platform === 'h5' ? <HotTopicsRow /> : null}
      <PluginSlot target="plugin_index" hook="tabs_replace">
        <Tabs current={params.tab ?? 'all'} categoryId={params.categoryId} />
      </PluginSlot>
      <PluginSlot target="plugin_index" hook="topping_insert_before" />
      <PluginSlot target="plugin_index" hook="topping_replace" />
      <PluginSlot target="plugin_index" hook="topping_insert_after" />
      <ThreadList params={params} />
    </div>
  );
  if (platform === 'h5') {
    // A phone has no side columns: what plugins add to them follows the list (recommend and QR code stay desktop's).
    return (
      <div className="lt-home lt-home--h5">
        {main}
        <PluginSlot target="plugin_index" hook="left_insert" />
        <PluginSlot target="plugin_index" hook="right_insert" />
      </div>
    );
  }
  return (
    <div className="lt-home lt-home--pc">
      <aside className="lt-home__left">
        <CategoryNav current={params.categoryId} tab={params.tab ?? 'all'} />
        <PluginSlot target="plugin_index" hook="left_insert" />
      </aside>
      {main}
      <aside className="lt-home__right">
        <AboutCard />
        <PluginSlot target="plugin_index" hook="recommend_replace">
          <RecommendCard />
        </PluginSlot>
        <HotTopicsCard />
        <PluginSlot target="plugin_index" hook="qrcode_replace" />
        <PluginSlot target="plugin_index" hook="right_insert" />
      </aside>
    </div>
  );
}

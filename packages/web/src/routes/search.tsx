import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../i18n/use-translation';
import { isSuccess } from '../api/dispatcher';
import { Link, useSearchParams, type LoaderFunctionArgs } from 'react-router';
import { positiveInt, threadListQuery, userSearchQuery } from '../api/forum-queries';
import { useAppContext, type AppContext } from '../app-context';
import { Highlight } from '../components/forum/highlight';
import { Pager } from '../components/forum/pager';
import { SearchBox } from '../components/forum/search-box';
import { ThreadCard } from '../components/forum/thread-card';
import { authorOf, UserAvatar, userHref } from '../components/people/user-hover-card';
import { Spinner } from '../components/ui';
import { usePlatform } from '../platform/platform-context';
import type { RouteHandle } from '../routing/handle';
import './search.css';

export const handle: RouteHandle = { title: (t) => t('search.title') };

type SearchTab = 'threads' | 'users';

function readParams(params: URLSearchParams): { keyword: string; tab: SearchTab; page: number } {
  return {
    keyword: (params.get('keyword') ?? '').trim().slice(0, 100),
    tab: params.get('type') === 'users' ? 'users' : 'threads',
    page: positiveInt(params.get('page'), 1),
  };
}

export async function loader(ctx: AppContext, { request }: LoaderFunctionArgs): Promise<null> {
  const { keyword, tab, page } = readParams(new URL(request.url).searchParams);
  if (!keyword) return null;
  await Promise.all([
    ctx.queryClient.ensureQueryData(threadListQuery(ctx.api, { page: tab === 'threads' ? page : 1, search: keyword })),
    ctx.queryClient.ensureQueryData(userSearchQuery(ctx.api, keyword, tab === 'users' ? page : 1)),
  ]);
  return null;
}

function ThreadResults({ keyword, page }: { keyword: string; page: number }) {
  const { t } = useTranslation();
  const { api } = useAppContext();
  const result = useQuery(threadListQuery(api, { page, search: keyword })).data;
  if (!result) return <Spinner />;
  if (!isSuccess(result)) return <p className="lt-empty">{result.Message}</p>;
  if (result.Data.pageData.length === 0) return <p className="lt-empty">{t('search.empty')}</p>;
  return (
    <>
      <div className="lt-thread-list" data-testid="search-threads">
        {result.Data.pageData.map((thread) => (
          <ThreadCard key={thread.threadId} thread={thread} keyword={keyword} />
        ))}
      </div>
      <Pager current={result.Data.currentPage} total={result.Data.totalPage} />
    </>
  );
}

function UserResults({ keyword, page }: { keyword: string; page: number }) {
  const { t } = useTranslation();
  const { api } = useAppContext();
  const result = useQuery(userSearchQuery(api, keyword, page)).data;
  if (!result) return <Spinner />;
  if (!isSuccess(result)) return <p className="lt-empty">{result.Message}</p>;
  if (result.Data.pageData.length === 0) return <p className="lt-empty">{t('search.empty')}</p>;
  return (
    <>
      <ul className="lt-user-results" data-testid="search-users">
        {result.Data.pageData.map((user) => (
          <li key={user.userId} className="lt-user-result">
            <UserAvatar user={authorOf(user)} />
            <div>
              <div className="lt-user-result__name">
                <Link to={userHref(user.userId)}>
                  <Highlight text={user.nickname} keyword={keyword} />
                </Link>
                {user.nickname !== user.username ? (
                  <span className="lt-user-result__username">
                    @<Highlight text={user.username} keyword={keyword} />
                  </span>
                ) : null}
              </div>
              <div className="lt-user-result__meta">
                {t('search.userStats', { threads: user.threadCount, fans: user.fansCount })}
              </div>
            </div>
          </li>
        ))}
      </ul>
      <Pager current={result.Data.currentPage} total={result.Data.totalPage} />
    </>
  );
}

/**
 * Search results: threads, also found through a reply or comment (shown under the thread, linked to its place), with
 * the matches marked and Chinese words found inside sentences; and users.
 */
export function Component() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const { keyword, tab, page } = readParams(params);
  const platform = usePlatform();
  const href = (type: SearchTab): string =>
    `/search?keyword=${encodeURIComponent(keyword)}${type === 'users' ? '&type=users' : ''}`;
  return (
    <div className="lt-page">
      {/* The mobile header has no search box; keyed so that it shows the keyword of each new search. */}
      {platform === 'h5' ? <SearchBox key={keyword} variant="block" /> : null}
      <section className="lt-card" aria-labelledby="search-heading">
        <h1 id="search-heading" className="lt-page__title" data-testid="search-heading">
          {keyword ? t('search.resultsFor', { keyword }) : t('search.title')}
        </h1>
        {keyword ? (
          <>
            <nav className="lt-tabs lt-search__tabs" aria-label={t('search.types')}>
              {(['threads', 'users'] as const).map((type) => (
                <Link
                  key={type}
                  to={href(type)}
                  className={`lt-tab${type === tab ? ' lt-tab--active' : ''}`}
                  aria-current={type === tab ? 'page' : undefined}
                >
                  {t(`search.${type}`)}
                </Link>
              ))}
            </nav>
            {tab === 'threads' ? (
              <ThreadResults keyword={keyword} page={page} />
            ) : (
              <UserResults keyword={keyword} page={page} />
            )}
          </>
        ) : (
          <p className="lt-empty">{t('search.prompt')}</p>
        )}
      </section>
    </div>
  );
}

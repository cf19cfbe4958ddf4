import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Form, useSearchParams, type LoaderFunctionArgs } from 'react-router';
import { isSuccess } from '../api/dispatcher';
import { positiveInt } from '../api/forum-queries';
import { hotTopicsQuery, topicSearchQuery, TOPICS_PER_PAGE } from '../api/topic-queries';
import { useAppContext, type AppContext } from '../app-context';
import { TopicList } from '../components/forum/hot-topics';
import { Pager } from '../components/forum/pager';
import { Button, Spinner } from '../components/ui';
import { useTranslation } from '../i18n/use-translation';
import type { RouteHandle } from '../routing/handle';
import '../components/forum/topics.css';

/** All topics (/topics): the hot ones, most threads first, or those whose name holds `?q=`; paged by address. */

export const handle: RouteHandle = { title: (t) => t('topics.all') };

function readParams(params: URLSearchParams): { q: string; page: number } {
  return { q: (params.get('q') ?? '').trim().slice(0, 20), page: positiveInt(params.get('page'), 1) };
}

const listQuery = (ctx: Pick<AppContext, 'api'>, q: string, page: number) => {
  const query = q
    ? topicSearchQuery(ctx.api, q, TOPICS_PER_PAGE, page)
    : hotTopicsQuery(ctx.api, TOPICS_PER_PAGE, page);
  return { queryKey: query.queryKey as readonly unknown[], queryFn: query.queryFn };
};

export async function loader(ctx: AppContext, { request }: LoaderFunctionArgs): Promise<null> {
  const { q, page } = readParams(new URL(request.url).searchParams);
  await ctx.queryClient.ensureQueryData(listQuery(ctx, q, page));
  return null;
}

export function Component() {
  const { t } = useTranslation();
  const ctx = useAppContext();
  const [params] = useSearchParams();
  const { q, page } = readParams(params);
  const result = useQuery(listQuery(ctx, q, page)).data;
  const inputId = useId();
  return (
    <div className="lt-page">
      <section className="lt-card" aria-labelledby="topics-heading">
        <h1 id="topics-heading" className="lt-page__title">
          {q ? t('topics.all') : t('topics.hot')}
        </h1>
        <Form className="lt-topic-search" role="search" method="get" action="/topics" key={q}>
          <label className="lt-visually-hidden" htmlFor={inputId}>
            {t('topics.searchLabel')}
          </label>
          <input
            id={inputId}
            type="search"
            name="q"
            defaultValue={q}
            maxLength={20}
            placeholder={t('topics.searchPlaceholder')}
          />
          <Button type="primary" size="small" htmlType="submit">
            {t('topics.search')}
          </Button>
        </Form>
        {!result ? <Spinner /> : null}
        {result && !isSuccess(result) ? <p className="lt-empty">{result.Message}</p> : null}
        {result && isSuccess(result) && result.Data.pageData.length === 0 ? (
          <p className="lt-empty">{q ? t('topics.noMatch') : t('topics.none')}</p>
        ) : null}
        {result && isSuccess(result) && result.Data.pageData.length > 0 ? (
          <>
            <TopicList topics={result.Data.pageData} testId="topics-list" />
            <Pager current={result.Data.currentPage} total={result.Data.totalPage} />
          </>
        ) : null}
      </section>
    </div>
  );
}

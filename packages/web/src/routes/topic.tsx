import { Code } from '@luntan/shared';
import { useQuery } from '@tanstack/react-query';
import { data, Link, useParams, useSearchParams, type LoaderFunctionArgs } from 'react-router';
import { isSuccess } from '../api/dispatcher';
import { positiveInt } from '../api/forum-queries';
import { topicQuery, topicThreadsQuery } from '../api/topic-queries';
import { useAppContext, type AppContext } from '../app-context';
import { Pager } from '../components/forum/pager';
import { ThreadCard } from '../components/forum/thread-card';
import { Spinner } from '../components/ui';
import { useTranslation } from '../i18n/use-translation';
import type { PageHead, RouteHandle } from '../routing/handle';
import '../components/forum/forum.css';
import '../components/forum/topics.css';

/**
 * A topic's page (/topic/:topicId): its name, thread count and views, and its threads the viewer may see (thread.list
 * filter[topicId]: the server leaves out what the viewer may not read), newest first, paged by address.
 */

interface TopicLoaderData {
  head: PageHead | null;
}

export const handle: RouteHandle = {
  title: (t) => t('topics.title'),
  head: (loaderData) => (loaderData as TopicLoaderData | undefined)?.head ?? null,
};

export async function loader(ctx: AppContext, { params, request }: LoaderFunctionArgs): Promise<TopicLoaderData> {
  const topicId = positiveInt(params.topicId, 0);
  if (!topicId) throw data(null, { status: 404 });
  const page = positiveInt(new URL(request.url).searchParams.get('page'), 1);
  const [topic] = await Promise.all([
    ctx.queryClient.ensureQueryData(topicQuery(ctx.api, topicId)),
    ctx.queryClient.ensureQueryData(topicThreadsQuery(ctx.api, topicId, page)),
  ]);
  if (isSuccess(topic) && topic.Data.pageData.length === 0) throw data(null, { status: 404 });
  if (topic.Code === Code.RESOURCE_NOT_FOUND) throw data(null, { status: 404 });
  const item = isSuccess(topic) ? topic.Data.pageData[0] : undefined;
  return { head: item ? { title: `#${item.content}#` } : null };
}

function TopicThreads({ topicId, page }: { topicId: number; page: number }) {
  const { t } = useTranslation();
  const { api } = useAppContext();
  const result = useQuery(topicThreadsQuery(api, topicId, page)).data;
  if (!result) return <Spinner />;
  if (!isSuccess(result)) return <p className="lt-empty">{result.Message}</p>;
  if (result.Data.pageData.length === 0) return <p className="lt-empty">{t('topics.empty')}</p>;
  return (
    <>
      <div className="lt-thread-list" data-testid="topic-threads">
        {result.Data.pageData.map((thread) => (
          <ThreadCard key={thread.threadId} thread={thread} />
        ))}
      </div>
      <Pager current={result.Data.currentPage} total={result.Data.totalPage} />
    </>
  );
}

export function Component() {
  const { t } = useTranslation();
  const { api } = useAppContext();
  const params = useParams();
  const [search] = useSearchParams();
  const topicId = positiveInt(params.topicId, 0);
  const page = positiveInt(search.get('page'), 1);
  const result = useQuery(topicQuery(api, topicId)).data;
  const topic = result && isSuccess(result) ? result.Data.pageData[0] : undefined;
  return (
    <div className="lt-page">
      <section className="lt-card" aria-labelledby="topic-heading" data-testid="topic-head">
        {!result ? <Spinner /> : null}
        {result && !isSuccess(result) ? <p className="lt-empty">{result.Message}</p> : null}
        {result && isSuccess(result) && !topic ? <p className="lt-empty">{t('topics.notFound')}</p> : null}
        {topic ? (
          <>
            <h1 id="topic-heading" className="lt-topic-head__name" data-testid="topic-name">
              #{topic.content}#
            </h1>
            <p className="lt-topic-head__stats" data-testid="topic-stats">
              {t('topics.threadCount', { count: topic.threadCount })}
              {' · '}
              {t('topics.viewCount', { count: topic.viewCount })}
              {' · '}
              <Link className="lt-topic-head__all" to="/topics">
                {t('topics.all')}
              </Link>
            </p>
          </>
        ) : null}
      </section>
      <section className="lt-card" aria-labelledby="topic-threads-heading">
        <h2 id="topic-threads-heading" className="lt-card__title">
          {t('topics.threads')}
        </h2>
        <TopicThreads topicId={topicId} page={page} />
      </section>
    </div>
  );
}

import { Code } from '@luntan/shared';
import { useTranslation } from '../i18n/use-translation';
import { isSuccess } from '../api/dispatcher';
import { data, Link, useSearchParams, type LoaderFunctionArgs } from 'react-router';
import { positiveInt, postsQuery, threadDetailQuery } from '../api/forum-queries';
import { useAppContext, type AppContext } from '../app-context';
import { useQueryData } from '../hooks/use-query-data';
import { Spinner } from '../components/ui';
import type { PageHead, RouteHandle } from '../routing/handle';
import '../components/forum/forum.css';
import './thread.css';
import '../components/forum/prose.css';
import { ThreadBody } from '../components/thread/thread-body';
import { Replies } from '../components/thread/replies';
import { useThreadId, useViewCount } from '../components/thread/thread-hooks';

interface ThreadLoaderData {
  head: PageHead | null;
}

export const handle: RouteHandle = {
  head: (loaderData) => (loaderData as ThreadLoaderData | undefined)?.head ?? null,
};

const DESCRIPTION_MAX = 100;

export async function loader(ctx: AppContext, { params, request }: LoaderFunctionArgs): Promise<ThreadLoaderData> {
  const threadId = positiveInt(params.threadId, 0);
  if (!threadId) throw data(null, { status: 404 });
  const page = positiveInt(new URL(request.url).searchParams.get('page'), 1);
  const [detail] = await Promise.all([
    ctx.queryClient.ensureQueryData(threadDetailQuery(ctx.api, threadId)),
    ctx.queryClient.ensureQueryData(postsQuery(ctx.api, threadId, page)),
  ]);
  if (detail.Code === Code.RESOURCE_NOT_FOUND) throw data(null, { status: 404 });
  if (detail.Code !== 0) return { head: null };
  const thread = detail.Data;
  return {
    head: {
      title: thread.title,
      description: [...thread.summary].slice(0, DESCRIPTION_MAX).join(''),
      type: 'article',
    },
  };
}

/** A thread: the first post, its actions, the replies with paging and the reply box. */
export function Component() {
  const { t } = useTranslation();
  const { api } = useAppContext();
  const threadId = useThreadId();
  const [search] = useSearchParams();
  const page = positiveInt(search.get('page'), 1);
  const result = useQueryData(threadDetailQuery(api, threadId));
  useViewCount(threadId);
  if (!result) return <Spinner />;
  if (!isSuccess(result)) {
    return (
      <section className="lt-card lt-error-page" role="alert">
        <h1>{result.Message}</h1>
        <Link to="/">{t('errors.home')}</Link>
      </section>
    );
  }
  return (
    <div className="lt-thread-page">
      <ThreadBody thread={result.Data} />
      <Replies thread={result.Data} page={page} />
    </div>
  );
}

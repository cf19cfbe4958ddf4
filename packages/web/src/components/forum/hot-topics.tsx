import type { TopicItem } from '@luntan/shared';
import { topicPath } from '@luntan/shared';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { isSuccess } from '../../api/dispatcher';
import { HOT_TOPICS_CARD, hotTopicsQuery } from '../../api/topic-queries';
import { useAppContext } from '../../app-context';
import { useTranslation } from '../../i18n/use-translation';
import './topics.css';

/** A list of topics: `#name#`, linked to its page, with its thread count. */
export function TopicList({ topics, testId }: { topics: TopicItem[]; testId?: string }) {
  const { t } = useTranslation();
  return (
    <ol className="lt-topic-list" data-testid={testId}>
      {topics.map((topic) => (
        <li key={topic.topicId} className="lt-topic-list__item">
          <Link className="lt-topic-list__name" to={topicPath(topic.topicId)}>
            #{topic.content}#
          </Link>
          <span className="lt-topic-list__count">{t('topics.threadCount', { count: topic.threadCount })}</span>
        </li>
      ))}
    </ol>
  );
}

/** The home page's hot topics (the desktop's right column), with a link to all topics. */
export function HotTopicsCard() {
  const { t } = useTranslation();
  const { api } = useAppContext();
  const result = useQuery(hotTopicsQuery(api, HOT_TOPICS_CARD)).data;
  const topics = result && isSuccess(result) ? result.Data.pageData : [];
  return (
    <section className="lt-card" aria-labelledby="home-hot-topics" data-testid="hot-topics">
      <div className="lt-topics-card__head">
        <h2 id="home-hot-topics" className="lt-card__title">
          {t('topics.hot')}
        </h2>
        <Link className="lt-topics-card__more" to="/topics">
          {t('topics.more')}
        </Link>
      </div>
      {topics.length === 0 ? (
        <p className="lt-empty lt-empty--small">{t('topics.none')}</p>
      ) : (
        <TopicList topics={topics} />
      )}
    </section>
  );
}

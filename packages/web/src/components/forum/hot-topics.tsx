import type { TopicItem } from '@luntan/shared';
import { topicPath } from '@luntan/shared';
import { useQuery } from '@tanstack/react-query';
import { isSuccess } from '../../api/dispatcher';
import { PlainLink } from '../plain-link';
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
          <PlainLink className="lt-topic-list__name" to={topicPath(topic.topicId)}>
            #{topic.content}#
          </PlainLink>
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
        <PlainLink className="lt-topics-card__more" to="/topics">
          {t('topics.more')}
        </PlainLink>
      </div>
      {topics.length === 0 ? (
        <p className="lt-empty lt-empty--small">{t('topics.none')}</p>
      ) : (
        <TopicList topics={topics} />
      )}
    </section>
  );
}

/** The phone's hot topics: a row of the hottest few under the categories, and a link to all topics. */
export function HotTopicsRow() {
  const { t } = useTranslation();
  const { api } = useAppContext();
  const result = useQuery(hotTopicsQuery(api, HOT_TOPICS_CARD)).data;
  const topics = result && isSuccess(result) ? result.Data.pageData : [];
  if (topics.length === 0) return null;
  return (
    <nav className="lt-topics-row" aria-label={t('topics.hot')} data-testid="hot-topics">
      {topics.map((topic) => (
        <PlainLink key={topic.topicId} className="lt-topics-row__item" to={topicPath(topic.topicId)}>
          #{topic.content}#
        </PlainLink>
      ))}
      <PlainLink className="lt-topics-row__item lt-topics-row__item--more" to="/topics">
        {t('topics.more')}
      </PlainLink>
    </nav>
  );
}

import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { Badge } from '../components/ui';
import { useForum } from '../hooks/use-forum';
import { useUnreadCounters } from '../hooks/use-unread';
import type { RouteHandle } from '../routing/handle';
import './message.css';

export const handle: RouteHandle = { title: (t) => t('message.title') };

/** The four categories of the message centre (spec section 2) and the counter each shows. */
export const MESSAGE_CATEGORIES = [
  { type: 'index', counter: 'dialogMessageUnread' },
  { type: 'account', counter: 'accountUnread' },
  { type: 'financial', counter: 'financialUnread' },
  { type: 'thread', counter: 'threadUnread' },
] as const;

type CategoryType = (typeof MESSAGE_CATEGORIES)[number]['type'];

function isCategory(value: string | null): value is CategoryType {
  return MESSAGE_CATEGORIES.some((c) => c.type === value);
}

/** The message centre frame; the lists and the chat arrive with the messages issue. */
export function Component() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const { forum } = useForum();
  const counters = useUnreadCounters(forum?.user?.userId);
  const requested = params.get('type');
  const active: CategoryType = isCategory(requested) ? requested : 'index';
  const chatWith = params.get('page') === 'chat' ? params.get('userId') : null;

  useEffect(() => {
    if (params.get('page') === 'chat' && !params.get('userId')) {
      console.error('[message] a chat needs a userId: wrong user name');
    }
  }, [params]);

  return (
    <div className="lt-page lt-message">
      <h1 className="lt-page__title">{t('message.heading')}</h1>
      <nav className="lt-message__tabs" aria-label={t('message.categories')}>
        {MESSAGE_CATEGORIES.map(({ type, counter }) => {
          const count = counters?.[counter] ?? 0;
          return (
            <Link
              key={type}
              to={type === 'index' ? '/message' : `/message?type=${type}`}
              className={type === active ? 'lt-message__tab lt-message__tab--active' : 'lt-message__tab'}
              aria-current={type === active ? 'page' : undefined}
              data-testid={`message-tab-${type}`}
            >
              <Badge count={count} label={t('nav.unread', { count })}>
                <span>{t(`message.${type}`)}</span>
              </Badge>
            </Link>
          );
        })}
      </nav>
      <section className="lt-card lt-message__list" aria-label={t(`message.${active}`)}>
        {chatWith ? <h2 className="lt-card__title">{params.get('nickname') ?? chatWith}</h2> : null}
        <p className="lt-empty">{t('message.empty')}</p>
      </section>
    </div>
  );
}

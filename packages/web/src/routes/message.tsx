import { useEffect } from 'react';
import { useTranslation } from '../i18n/use-translation';
import { Link, useSearchParams, type LoaderFunctionArgs } from 'react-router';
import { dialogListQuery, dialogMessagesQuery, dialogRecordQuery, noticesQuery } from '../api/message-queries';
import { isSuccess } from '../api/dispatcher';
import { quietUserProfileQuery } from '../api/people-queries';
import { cachedForum } from '../api/queries';
import type { AppContext } from '../app-context';
import { Chat } from '../components/messages/chat';
import { DialogList } from '../components/messages/dialog-list';
import { NoticeList } from '../components/messages/notice-list';
import { Badge } from '../components/ui';
import { useForum } from '../hooks/use-forum';
import { useUnreadCounters } from '../hooks/use-unread';
import { usePlatform } from '../platform/platform-context';
import type { RouteHandle } from '../routing/handle';
import '../components/messages/messages.css';
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

/** What the address asks for: `?type=` a category, `?page=chat&userId=N&nickname=X` a chat, `?p=` a list's page. */
export interface MessageView {
  category: CategoryType;
  chat: { userId: number; nickname: string } | null;
  /** page=chat without a usable userId (the spec's "wrong user name"): the list is shown instead. */
  chatWithoutUser: boolean;
  listPage: number;
}

function positive(value: string | null): number | null {
  const n = Number(value);
  return value !== null && Number.isSafeInteger(n) && n > 0 ? n : null;
}

export function readMessageView(params: URLSearchParams): MessageView {
  const wantsChat = params.get('page') === 'chat';
  const userId = wantsChat ? positive(params.get('userId')) : null;
  const requested = params.get('type');
  return {
    category: wantsChat ? 'index' : isCategory(requested) ? requested : 'index',
    chat: userId ? { userId, nickname: params.get('nickname') ?? '' } : null,
    chatWithoutUser: wantsChat && userId === null,
    listPage: positive(params.get('p')) ?? 1,
  };
}

export async function loader(ctx: AppContext, { request }: LoaderFunctionArgs): Promise<null> {
  // The login guard has run: the viewer is known.
  const viewerId = cachedForum(ctx.queryClient)?.user?.userId;
  if (!viewerId) return null;
  const view = readMessageView(new URL(request.url).searchParams);
  const q = ctx.queryClient;
  const chat = async (userId: number): Promise<void> => {
    const [record] = await Promise.all([
      q.ensureQueryData(dialogRecordQuery(ctx.api, userId, viewerId)),
      q.ensureQueryData(quietUserProfileQuery(ctx.api, userId, viewerId)),
    ]);
    const dialogId = isSuccess(record) ? record.Data.dialogId : null;
    if (dialogId) await q.ensureInfiniteQueryData(dialogMessagesQuery(ctx.api, dialogId, viewerId));
  };
  await Promise.all([
    view.category === 'index' ? q.ensureQueryData(dialogListQuery(ctx.api, view.listPage, viewerId)) : null,
    view.chat ? chat(view.chat.userId) : null,
    view.category !== 'index' ? q.ensureQueryData(noticesQuery(ctx.api, view.category, view.listPage, viewerId)) : null,
  ]);
  return null;
}

function CategoryTabs({ active, viewerId }: { active: CategoryType; viewerId: number }) {
  const { t } = useTranslation();
  const counters = useUnreadCounters(viewerId);
  return (
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
  );
}

/**
 * The message centre: private messages (the dialogs, and the chat beside them on a desktop, in their place on a
 * phone), account messages, financial notices and thread notices, each with its unread count.
 */
export function Component() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const platform = usePlatform();
  const { forum } = useForum();
  const viewerId = forum?.user?.userId ?? 0;
  const view = readMessageView(params);
  const { chat, category } = view;

  useEffect(() => {
    if (view.chatWithoutUser) console.error('[message] a chat needs a userId: wrong user name');
  }, [view.chatWithoutUser]);

  // One tree for both layouts, so that the chat keeps its place (and what is being typed in it) when the window
  // crosses 800 px: a phone shows the chat alone, a desktop the dialogs beside it.
  const phone = platform === 'h5';
  const chatAlone = phone && chat !== null;
  return (
    <div className={chatAlone ? 'lt-page lt-message lt-message--chat' : 'lt-page lt-message'}>
      {chatAlone ? null : <h1 className="lt-page__title">{t('message.heading')}</h1>}
      {chatAlone ? null : <CategoryTabs active={category} viewerId={viewerId} />}
      {category !== 'index' ? (
        <NoticeList category={category} page={view.listPage} viewerId={viewerId} />
      ) : (
        <div className={phone ? 'lt-message__single' : 'lt-message__split'}>
          {chatAlone ? null : (
            <DialogList page={view.listPage} activeUserId={phone ? null : (chat?.userId ?? null)} viewerId={viewerId} />
          )}
          {chat ? (
            <Chat
              key={chat.userId}
              userId={chat.userId}
              nickname={chat.nickname}
              backTo={phone ? '/message' : undefined}
            />
          ) : phone ? null : (
            <section className="lt-card lt-message__placeholder" data-testid="chat-placeholder">
              <p className="lt-empty">{t('message.chat.choose')}</p>
            </section>
          )}
        </div>
      )}
    </div>
  );
}
